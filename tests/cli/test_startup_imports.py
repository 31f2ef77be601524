"""`tuibench run` and `tuibench sweep` read and check their flags before they paint their
first frame: that start loads no engine, statistics, sessions, psutil or drawing. Checked
in a fresh interpreter, by what it loaded (never by a timing). `tuibench` alone reads no
flags at all."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator

import pytest

from tui_bench.cli.args import build_parser
from tui_bench.cli.main import NO_ARGUMENTS

ARGV = [
    "run",
    "-c",
    "20",
    "-d",
    "2",
    "--rate",
    "100",
    "-H",
    "X-A: 1",
    "--threshold",
    "p99<50ms",
    "--baseline",
    "nightly@latest",
    "--fail-on-regression",
    "--gate-metric",
    "p99_s",
    "--verdict",
    "likely",
    "--generator",
    "local",
    "http://127.0.0.1:8080/",
]

CODE = """
import sys
import tui_bench.cli.main
from tui_bench.cli.args import build_parser
from tui_bench.cli.run_flags import request_from_args, settings_of
from tui_bench.errors import UsageError

parser = build_parser()
args = parser.parse_args(sys.argv[1:])
request = request_from_args(args)
settings_of(args)
print(request.spec.connections, request.judging.gate_metric, request.judging.fail_on_regression)
try:
    request_from_args(parser.parse_args(["run", "ftp://127.0.0.1/"]))
except UsageError as exc:
    print("refused:", exc)
print(*sorted(sys.modules))
"""

# What reading the flags must not load: the engine and asyncio, the statistics (numpy,
# scipy), the sessions, psutil, and Textual; nor what only the flags of Prometheus, JUnit
# and the hlog export need (snappy, HdrHistogram, XML, an HTTP client).
HEAVY_PACKAGES = ("numpy", "scipy", "psutil", "textual", "asyncio", "cramjam", "hdrh", "xml")
HEAVY_MODULES = (
    "tui_bench.engine",
    "tui_bench.storage.session",
    "tui_bench.histogram",
    "tui_bench.metrics",
    "tui_bench.report.junit",
    "urllib.request",
)
# Of the analysis and the job layer, only their plain names and settings.
LIGHT = {"tui_bench.analysis.names", "tui_bench.analysis.run_counts", "tui_bench.jobs.settings"}


def heavy_of(modules: set[str]) -> set[str]:
    return {
        m
        for m in modules
        if m.split(".")[0] in HEAVY_PACKAGES
        or any(m == h or m.startswith(f"{h}.") for h in HEAVY_MODULES)
        or (m.startswith(("tui_bench.analysis.", "tui_bench.jobs.")) and m not in LIGHT)
    }


def test_reading_the_run_flags_loads_nothing_heavy() -> None:
    out = subprocess.run(
        [sys.executable, "-c", CODE, *ARGV], capture_output=True, text=True, check=True
    ).stdout.splitlines()
    assert out[0] == "20 p99_s 5.0"
    assert out[1].startswith("refused: ") and "ftp" in out[1], "a bad flag is still refused"
    modules = set(out[2].split())
    assert "tui_bench.request.run" in modules and "tui_bench.spec" in modules
    assert heavy_of(modules) == set()


SWEEP_ARGV = ["sweep", "--vary", "c=10,20", "--repeat", "2", "-d", "1", "http://127.0.0.1:8080/"]

# What `tuibench sweep` does before the sweep screen's stand-in is up: its module, its plan
# and the URL that frame shows.
SWEEP_CODE = """
import sys
import tui_bench.cli.main
from tui_bench.cli.args import build_parser
from tui_bench.cli.cmd_sweep import plan_from_args
from tui_bench.cli.run_flags import request_from_args, settings_of

args = build_parser().parse_args(sys.argv[1:])
plan = plan_from_args(args)
request_from_args(args, check=False)
settings_of(args)
print(len(plan.order), plan.record().target())
print(*sorted(sys.modules))
"""


def test_reading_the_sweep_flags_loads_nothing_heavy() -> None:
    out = subprocess.run(
        [sys.executable, "-c", SWEEP_CODE, *SWEEP_ARGV], capture_output=True, text=True, check=True
    ).stdout.splitlines()
    assert out[0] == "4 http://127.0.0.1:8080/"
    modules = set(out[1].split())
    assert "tui_bench.cli.cmd_sweep" in modules and "tui_bench.request.sweep_plan" in modules
    # The command's module runs the event loop the app needs: asyncio is its own.
    assert {m for m in heavy_of(modules) if not m.startswith("asyncio")} == set()


def test_no_arguments_are_what_the_grammar_makes_of_none() -> None:
    """`tuibench` alone opens the home screen without building the grammar: what it takes
    for the options must be what the grammar would have given."""
    assert vars(build_parser().parse_args([])) == NO_ARGUMENTS


@pytest.fixture
def hang_up_url() -> Iterator[str]:
    """A port that takes each connection and closes it: a run against it fails at once."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(16)

        def hang_up() -> None:
            with contextlib.suppress(OSError):  # the listener closed: the test is over
                while True:
                    listener.accept()[0].close()

        threading.Thread(target=hang_up, daemon=True).start()
        yield f"http://127.0.0.1:{listener.getsockname()[1]}/"
        listener.shutdown(socket.SHUT_RDWR)


def test_closed_standard_streams(hang_up_url: str) -> None:
    # Started by another program with a standard stream closed: one line or the help, never
    # a traceback, whether refused before the load (nothing listens on port 1) or after.
    run = ["run", "-n", "10", "-c", "1", hang_up_url]
    for args, closed, code in (
        (["sessions", "--json"], 0, 0),
        ([], 0, 0),
        (run, 0, 1),
        ([*run, "--headless"], 1, 1),
        (["run", "--headless", "-n", "10", "http://127.0.0.1:1/"], 1, 2),
    ):
        done = subprocess.run(
            [sys.executable, "-m", "tui_bench.cli.main", *args],
            stdin=None,
            stdout=subprocess.PIPE if closed == 0 else None,
            stderr=subprocess.PIPE,
            text=True,
            timeout=60,
            check=False,
            preexec_fn=lambda fd=closed: os.close(fd),
        )
        assert done.returncode == code, done.stderr
        assert "Traceback" not in done.stderr
        if closed == 0 and not args:
            assert done.stdout.startswith("usage: tuibench")
