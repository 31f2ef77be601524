"""A request log larger than the temporary file system it is written to, for real: read as
h2load writes it and given back as it is read (punched out), the run counts every request."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import orjson

from tests.conftest import need
from tests.faults.conftest import HANG_S, TUIBENCH, tmpfs
from tui_bench.demo.nginx_target import DemoTarget
from tui_bench.storage.minutes import latency_between
from tui_bench.storage.store import load

REQUESTS = 400_000


def test_a_log_larger_than_its_file_system_is_read_whole(nginx: DemoTarget, tmp_path: Path) -> None:
    need("h2load")
    store = tmp_path / "sessions"
    # About 25 bytes a request: a log of some 10 MB, through 8 MiB. At a fixed rate, the log
    # grows at most 1 MB a second: the reader may fall 4 s behind (a busy machine) and the
    # disk still holds what it has not read.
    with tmpfs("8m") as disk:
        env = {**os.environ, "TMPDIR": str(disk), "TUIBENCH_SESSIONS": str(store)}
        argv = ["run", "--headless", "--no-server", "-n", str(REQUESTS), "--rate", "40000"]
        argv += ["-c", "4", "-m", "10"]
        proc = subprocess.run(
            [*TUIBENCH, *argv, nginx.urls["h2c"]],
            capture_output=True,
            text=True,
            timeout=HANG_S,
            check=False,
            env=env,
        )
    assert "Traceback" not in proc.stderr
    assert "filled up" not in proc.stderr, proc.stderr
    (saved,) = store.glob("*.json")
    doc = orjson.loads(saved.read_bytes())
    assert "log-lost" not in [w["code"] for w in doc["warnings"]]
    session = load(saved)
    assert session.status == "completed"
    assert sum(row["requests"] for row in session.series) == REQUESTS
    # Every request is in the run's histogram and in its minutes.
    assert session.histogram is not None and session.histogram.count == REQUESTS
    assert latency_between(session.minutes, 0, 3600) == session.histogram
