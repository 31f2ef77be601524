"""Input tuibench refuses itself, in one line with exit 2 and nothing saved: imports larger
than any tool's output (in bounded memory and time, measured from outside), and runs no
tool could make sense of."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.faults.conftest import TUIBENCH, tuibench
from tests.request.test_form_input import form
from tui_bench.cli.cmd_import import MAX_IMPORT_BYTES
from tui_bench.errors import UsageError

# The interpreter and tuibench's imports take ~50 MB; a read of the whole input would not fit.
PEAK_RSS_KB = 150 * 1024
# CPU time, user and system: 0.5 s here, however long a busy machine makes it wait.
CPU_S = 20.0


def measured(*args: str) -> tuple[subprocess.CompletedProcess[str], int, float]:
    """`tuibench ARGS`, its peak RSS in KiB and the CPU time it took (from the kernel, for it
    alone)."""
    probe = (
        "import resource, subprocess, sys;"
        "done = subprocess.run(sys.argv[1:], capture_output=True, text=True);"
        "use = resource.getrusage(resource.RUSAGE_CHILDREN);"
        "sys.stdout.write(str(use.ru_maxrss) + ' ' + str(use.ru_utime + use.ru_stime) + '\\n');"
        "sys.stdout.write(str(done.returncode) + '\\n' + done.stdout);"
        "sys.stderr.write(done.stderr)"
    )
    proc = subprocess.run(
        [sys.executable, "-c", probe, *TUIBENCH, *args],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    usage, code, out = proc.stdout.split("\n", 2)
    peak, took = usage.split()
    return subprocess.CompletedProcess(args, int(code), out, proc.stderr), int(peak), float(took)


@pytest.mark.parametrize("source", ["/dev/zero", "big"])
def test_an_oversized_import_is_refused_in_bounded_memory(
    sessions: Path, tmp_path: Path, source: str
) -> None:
    path = Path(source)
    if source == "big":
        path = tmp_path / "big.txt"
        with open(path, "wb") as handle:
            handle.truncate(200 * 1024 * 1024)  # 200 MB, sparse: nothing to write
    proc, peak_kb, took = measured("import", str(path))
    assert proc.returncode == 2
    assert proc.stderr == (
        f"tuibench: error: {path}: more than {MAX_IMPORT_BYTES // 2**20} MB, larger than any "
        "tool's output: not imported\n"
    )
    assert peak_kb < PEAK_RSS_KB, f"peak RSS {peak_kb} KiB"
    assert took < CPU_S, took
    assert not sessions.exists() or list(sessions.iterdir()) == []


def test_output_just_under_the_limit_is_read(sessions: Path, tmp_path: Path) -> None:
    path = tmp_path / "noise.txt"
    path.write_bytes(b"x" * MAX_IMPORT_BYTES)
    proc = tuibench("import", str(path))
    assert proc.returncode == 2
    # Read whole, and found to be no tool's output.
    assert proc.stderr == (
        f"tuibench: error: {path}: not the output of a known tool (tried h2load, wrk, ab)\n"
    )


FEWER = "-n 10 is fewer than -c 100: every connection needs at least one request"
SPACE = "bad URL 'http://127.0.0.1:8080/a b': it holds a space or a control character"
BAD_RUNS = [
    (["-c", "100", "-n", "10"], FEWER),
    (["--tool", "ab", "-c", "100", "-n", "10"], FEWER),
    (["http://127.0.0.1:8080/a b"], SPACE),
    (["http://127.0.0.1:0/"], "bad URL 'http://127.0.0.1:0/': port 0 is no port to connect to"),
    (["-d", "99999999"], "-d 99999999s is longer than a day, the longest run taken"),
]


@pytest.mark.parametrize(("argv", "reason"), BAD_RUNS)
def test_a_run_no_tool_could_make_is_refused_before_it_starts(
    sessions: Path, argv: list[str], reason: str
) -> None:
    url = [] if any(a.startswith("http") for a in argv) else ["http://127.0.0.1:1/"]
    proc = tuibench("run", "--headless", "--no-server", *argv, *url)
    assert proc.returncode == 2
    assert proc.stderr == f"tuibench: error: {reason}\n"
    assert proc.stdout == ""
    assert not sessions.exists()


@pytest.mark.parametrize(
    ("texts", "mode", "reason"),
    [
        ({"urls": "http://127.0.0.1:0/"}, "duration", "port 0 is no port to connect to"),
        ({"connections": "100", "requests": "10"}, "count", "-n 10 is fewer than -c 100"),
        ({"duration": "99999999"}, "duration", "-d 99999999s is longer than a day"),
    ],
)
def test_the_run_form_refuses_them_alike(texts: dict[str, str], mode: str, reason: str) -> None:
    with pytest.raises(UsageError, match=reason):
        form({"urls": "http://127.0.0.1:1/", **texts}, mode=mode).config()
