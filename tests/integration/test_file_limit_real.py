"""Under the usual default of 1,024 open files, a run of more connections than that: the
limit is raised where the hard limit allows, so every connection opens (none counted as a
connect error), and refused in one line where it does not."""

from __future__ import annotations

import resource
import subprocess
from pathlib import Path

import orjson
import pytest

from tests.conftest import need
from tests.integration.test_cli_real_tools import TUIBENCH
from tui_bench.demo.nginx_target import DemoTarget

pytestmark = pytest.mark.real

CONNECTIONS = 1500


def run_limited(soft: int, hard: int, *args: str) -> subprocess.CompletedProcess[str]:
    def limited() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))

    return subprocess.run(
        [*TUIBENCH, "run", "--headless", "--json", "--no-server", *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        preexec_fn=limited,
    )


@pytest.mark.parametrize(
    ("tool", "load"),
    [
        ("h2load", ("--h1", "-n", "6000")),
        ("wrk", ("-d", "2", "-t", "2")),
        ("ab", ("-n", "6000")),
    ],
)
def test_the_limit_is_raised_so_every_connection_opens(
    nginx: DemoTarget, sessions: Path, tool: str, load: tuple[str, ...]
) -> None:
    need(tool)
    proc = run_limited(1024, 8192, "--tool", tool, "-c", str(CONNECTIONS), *load, nginx.urls["h1"])
    assert proc.returncode == 0, proc.stderr
    assert "open-file limit raised from 1,024 to " in proc.stderr
    result = orjson.loads(proc.stdout)
    assert result["errors"].get("connect", 0) == 0, result["errors"]
    assert result["requests"]["failed"] == 0, result["requests"]


def test_a_hard_limit_below_the_connections_is_refused_before_any_load(
    nginx: DemoTarget, sessions: Path
) -> None:
    need("wrk")
    proc = run_limited(1024, 1024, "--tool", "wrk", "-c", str(CONNECTIONS), "-d", "2",
                       nginx.urls["h1"])  # fmt: skip
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and "the hard limit is 1,024" in proc.stderr
    assert not sessions.exists() or not any(sessions.iterdir())
