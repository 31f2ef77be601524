"""The request log's file system (the system temporary directory) filling up mid-run, for
real: the tool goes on without its log; the run says so in one line, its seconds from then
on are unknown (not 0 req/s, not a collapse blamed on the server) and the tool's own totals
are kept whole."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import orjson

from tests.conftest import need
from tests.faults.conftest import TUIBENCH, fill
from tui_bench.demo.nginx_target import DemoTarget
from tui_bench.storage.store import load


def test_a_temporary_disk_filling_up_leaves_the_seconds_after_it_unknown(
    small_disk: Path, nginx: DemoTarget, tmp_path: Path
) -> None:
    need("h2load")
    # Room for some 10,000 requests of log (25 bytes each): a second or two of any machine.
    fill(small_disk, 256 << 10)
    store = tmp_path / "sessions"
    env = {**os.environ, "TMPDIR": str(small_disk), "TUIBENCH_SESSIONS": str(store)}
    argv = ["run", "--headless", "--no-server", "-d", "5", "-c", "2", "-m", "10"]
    proc = subprocess.run(
        [*TUIBENCH, *argv, nginx.urls["h2c"]],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env=env,
    )
    assert "Traceback" not in proc.stderr
    said = [line for line in proc.stderr.splitlines() if "filled up" in line]
    assert len(said) == 1 and str(small_disk) in said[0], proc.stderr
    (saved,) = store.glob("*.json")
    doc = orjson.loads(saved.read_bytes())
    codes = [w["code"] for w in doc["warnings"]]
    assert "log-lost" in codes and "connections-dying" not in codes
    assert doc["validity"]["verdict"] == "suspect"
    rows = load(saved).series
    known = [r for r in rows if r.get("rps") is not None]
    unknown = [r for r in rows if r.get("rps") is None]
    assert unknown and all(r["t_s"] > known[-1]["t_s"] for r in unknown)
    # The tool's own total is whole; the log held only its first part.
    assert doc["result"]["requests"]["total"] > sum(r["requests"] for r in known)
