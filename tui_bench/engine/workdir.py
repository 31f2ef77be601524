"""A run's working directory (the tool's request log, its JSON summary, its script), in the
system's temporary directory. Its run holds a lock in it while it lives: the directory of a
run that died (kill -9, a crash) is then told from a live one, and removed by the next run."""

from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from tui_bench.spec import MAX_DURATION_S

PREFIX = "tuibench-run-"
OWNER = ".owner"


@contextlib.contextmanager
def run_workdir() -> Iterator[Path]:
    """A fresh working directory, held for the run and removed after it."""
    remove_dead_workdirs()
    workdir = Path(tempfile.mkdtemp(prefix=PREFIX))
    # Locked before it gets its name: no one ever sees an owner file that is not held.
    staged = workdir / f"{OWNER}.new"
    fd = os.open(staged, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        staged.rename(workdir / OWNER)
        yield workdir
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
        os.close(fd)


def remove_dead_workdirs(parent: Path | None = None) -> list[Path]:
    """Remove the working directories whose run is gone; those removed."""
    removed = []
    for workdir in (parent or Path(tempfile.gettempdir())).glob(f"{PREFIX}*"):
        try:
            fd = os.open(workdir / OWNER, os.O_RDONLY)
        except FileNotFoundError:
            # Not owned yet, or left by a tuibench that kept no owner file: gone once no run
            # taken could still be going on in it.
            if _age_s(workdir) > 2 * MAX_DURATION_S:
                shutil.rmtree(workdir, ignore_errors=True)
                removed.append(workdir)
            continue
        except OSError:
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            continue  # its run is alive
        finally:
            os.close(fd)
        shutil.rmtree(workdir, ignore_errors=True)
        removed.append(workdir)
    return removed


def _age_s(path: Path) -> float:
    try:
        return time.time() - path.stat().st_mtime
    except OSError:
        return 0.0
