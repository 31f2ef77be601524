"""Redaction is linear in a header's length (a header of `auth` repeated once took 0.8 s at
10 KB and 245 s at 120 KB), and a header past the bound is refused in one line at once."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from tests.integration.test_cli_real_tools import tuibench
from tui_bench.redaction import MARK, redact_text, redacted_in
from tui_bench.spec import MAX_HEADER_BYTES

# `auth` over and over is a word every secret-name pattern could start at, everywhere.
HOSTILE = ("auth", "a", "a:b@", "http://", "?api_key=")


@pytest.mark.parametrize("unit", HOSTILE)
def test_redaction_time_grows_linearly(unit: str) -> None:
    def seconds(size: int) -> float:
        text = "X-Big: " + unit * (size // len(unit))
        start = time.perf_counter()
        redact_text(text)
        redacted_in([text])
        return time.perf_counter() - start

    small, big = seconds(32 * 1024), seconds(512 * 1024)
    # 16 times the text: well under 16² times the time.
    assert big < max(40 * small, 0.05), (small, big)


@pytest.mark.parametrize("kb", [10, 20, 40])
def test_a_big_header_is_taken_without_delay(kb: int, sessions: Path) -> None:
    header = "X-Big: " + "auth" * (kb * 256)
    start = time.monotonic()
    proc = tuibench("run", "--headless", "-n", "10", "-c", "1", "-H", header, "http://127.0.0.1:1/")
    took = time.monotonic() - start
    # Nothing listens on port 1: the run stops there, right after the spec was checked.
    assert "nothing listens on 127.0.0.1:1" in proc.stderr, proc.stderr
    assert took < 10, took


def test_a_header_past_the_bound_is_refused_in_one_line(sessions: Path) -> None:
    secret = "Authorization: Bearer " + "t" * (120 * 1024)
    start = time.monotonic()
    proc = tuibench("run", "--headless", "-d", "1", "-H", secret, "http://127.0.0.1:1/")
    took = time.monotonic() - start
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1, proc.stderr
    assert f"at most {MAX_HEADER_BYTES:,}" in proc.stderr and "'Authorization'" in proc.stderr
    assert "tttt" not in proc.stderr  # neither the value nor a piece of it
    assert took < 10, took
    assert not sessions.exists() or not list(sessions.iterdir())
    assert redact_text(secret).startswith(f"Authorization: {MARK}")
