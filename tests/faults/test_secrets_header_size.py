"""Redaction is linear in a header's length (a header of `auth` repeated once took 0.8 s at
10 KB and 245 s at 120 KB), and a header past the bound is refused in one line at once.

The time is CPU time, of this thread or of the tuibench run: unlike the wall clock, it does
not grow while another process holds the core."""

from __future__ import annotations

import resource
import subprocess
import time
from pathlib import Path

import pytest

from tests.integration.test_cli_real_tools import tuibench
from tui_bench.redaction import MARK, redact_text, redacted_in
from tui_bench.spec import MAX_HEADER_BYTES

# `auth` over and over is a word every secret-name pattern could start at, everywhere.
HOSTILE = ("auth", "a", "a:b@", "http://", "?api_key=")


REPEATS = 5


@pytest.mark.parametrize("unit", HOSTILE)
def test_redaction_time_grows_linearly(unit: str) -> None:
    def seconds(size: int) -> float:
        text = "X-Big: " + unit * (size // len(unit))
        start = time.thread_time()
        redact_text(text)
        redacted_in([text])
        return time.thread_time() - start

    # The least of a few tries, interleaved: what the work takes, not what else ran then.
    tries = [(seconds(32 * 1024), seconds(512 * 1024)) for _ in range(REPEATS)]
    small, big = min(t[0] for t in tries), min(t[1] for t in tries)
    # 16 times the text: some 16 times the time (15 measured), where a quadratic pass takes
    # 256 times; the bound lies between, 4 times from either.
    assert big < 64 * small, (small, big)


def cpu_timed(*args: str) -> tuple[subprocess.CompletedProcess[str], float]:
    """`tuibench ARGS` and the CPU time (user and system) it took."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = tuibench(*args)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return proc, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


# A run refused at once takes some 0.4 s of CPU; a quadratic redaction took 12.8 s at 40 KB.
CPU_BOUND_S = 10.0


@pytest.mark.parametrize("kb", [10, 20, 40])
def test_a_big_header_is_taken_without_delay(kb: int, sessions: Path) -> None:
    header = "X-Big: " + "auth" * (kb * 256)
    args = ("run", "--headless", "-n", "10", "-c", "1", "-H", header, "http://127.0.0.1:1/")
    proc, took = cpu_timed(*args)
    # Nothing listens on port 1: the run stops there, right after the spec was checked.
    assert "nothing listens on 127.0.0.1:1" in proc.stderr, proc.stderr
    assert took < CPU_BOUND_S, took


def test_a_header_past_the_bound_is_refused_in_one_line(sessions: Path) -> None:
    secret = "Authorization: Bearer " + "t" * (120 * 1024)
    proc, took = cpu_timed("run", "--headless", "-d", "1", "-H", secret, "http://127.0.0.1:1/")
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1, proc.stderr
    assert f"at most {MAX_HEADER_BYTES:,}" in proc.stderr and "'Authorization'" in proc.stderr
    assert "tttt" not in proc.stderr  # neither the value nor a piece of it
    assert took < CPU_BOUND_S, took
    assert not sessions.exists() or not list(sessions.iterdir())
    assert redact_text(secret).startswith(f"Authorization: {MARK}")
