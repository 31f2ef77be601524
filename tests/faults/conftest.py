"""The store's faults made for real: a small tmpfs filled up, files cut short, kill -9."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tui_bench.cli.main import main
from tui_bench.spec import RunSpec
from tui_bench.storage.journal import JournalWriter
from tui_bench.storage.session_records import SessionDraft

TUIBENCH = [sys.executable, "-m", "tui_bench.cli.main"]


# Only a hang takes this long: a sweep of two 1.5 s points, some 10 s on a quiet machine,
# took 70 s on this one loaded by other work, past the minute allowed before.
HANG_S = 300.0


def tuibench(*args: str, timeout: float = HANG_S) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*TUIBENCH, *args], capture_output=True, text=True, timeout=timeout, check=False
    )


def in_process(capsys: pytest.CaptureFixture[str], *args: str) -> subprocess.CompletedProcess[str]:
    """`tuibench ARGS` through its entry point in this process: what a listing does, without
    an interpreter and scipy started for each."""
    capsys.readouterr()
    code = main(list(args))
    out, err = capsys.readouterr()
    return subprocess.CompletedProcess(list(args), code, out, err)


@contextlib.contextmanager
def tmpfs(size: str) -> Iterator[Path]:
    """A tmpfs of `size` (mount's words: `1m`) of the test's own, unmounted after it."""
    if os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root")
    mount = Path(tempfile.mkdtemp(prefix="tuibench-full-"))
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(mount)],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        mount.rmdir()
        pytest.skip(f"cannot mount a tmpfs: {done.stderr.strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)
        mount.rmdir()


@pytest.fixture
def small_disk() -> Iterator[Path]:
    """A 1 MiB tmpfs."""
    with tmpfs("1m") as mount:
        yield mount


def fill(disk: Path, leave: int) -> None:
    """Fill `disk` up to all but `leave` bytes (0: full to the last byte)."""
    free = os.statvfs(disk).f_bavail * os.statvfs(disk).f_frsize
    fd = os.open(disk / "filler", os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    try:
        os.write(fd, b"\0" * max(0, free - leave))
        while leave == 0:
            os.write(fd, b"\0" * 512)
    except OSError:
        pass
    finally:
        os.close(fd)


def died_journal(directory: Path, session_id: str, seconds: int) -> Path:
    """The journal of a run that died after `seconds` closed seconds of 100 requests each:
    written by the journal's own writer, then let go of as a killed process does."""
    header = SessionDraft(
        id=session_id,
        spec=RunSpec(urls=("http://127.0.0.1:1/",), connections=1, duration_s=10),
        argv=[],
        tool={"name": "h2load", "path": None, "version": "1.52.0"},
        host={},
        started_at="2026-01-01T00:00:00+00:00",
        name="api",
        tags=[],
    ).header()
    journal = JournalWriter(directory / f"{session_id}.journal", header)
    for t in range(seconds):
        row = {"t_s": t, "window_s": 1.0, "requests": 100, "rps": 100.0, "errors": 0}
        journal.write("second", {**row, "2xx": 100, "max_s": 0.002 * (t + 1)})
    journal.close()
    return journal.path
