"""Atomic file writes: a reader sees the old file or the new one, never half of one."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from tui_bench.errors import UsageError


def write_atomic(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        # mkstemp makes the file private; a session is an ordinary file the user may share.
        umask = os.umask(0)
        os.umask(umask)
        os.fchmod(fd, 0o666 & ~umask)
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    _fsync_dir(path.parent)


def _fsync_dir(directory: Path) -> None:
    # The rename itself is durable only once the directory entry is on disk.
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write_new(path: Path, text: str, *, force: bool = False) -> Path:
    """Write `text` to `path` (atomically), never over an existing file unless `force`;
    the absolute path written. UsageError (one line) when it cannot."""
    target = path.expanduser().absolute()
    # A directory that is not there is a typo more often than a wish: not made.
    if not target.parent.is_dir():
        raise UsageError(f"cannot write {target}: No such file or directory")
    if target.exists() and not force:
        raise UsageError(f"{target} exists: choose another file, or --force to overwrite it")
    try:
        write_atomic(target, text.encode())
    except OSError as exc:
        raise UsageError(f"cannot write {target}: {exc.strerror}") from None
    return target
