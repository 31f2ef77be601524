"""Atomic file writes: a reader sees the old file or the new one, never half of one."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterable
from pathlib import Path

from tui_bench.errors import StoreError, UsageError
from tui_bench.formats import fmt_bytes

PRIVATE_DIR = 0o700
PRIVATE_FILE = 0o600


def private_dir(directory: Path) -> None:
    """Make `directory` (and its missing parents) and let only its owner in: a store of
    sessions tells which servers were tested, how and with which headers. An existing one
    is tightened."""
    directory.mkdir(mode=PRIVATE_DIR, parents=True, exist_ok=True)
    if directory.stat().st_mode & 0o777 != PRIVATE_DIR:
        directory.chmod(PRIVATE_DIR)


def write_atomic(path: Path, data: bytes | Iterable[bytes], *, private: bool = True) -> None:
    """`data`, or its chunks as they come (an export too big to hold at once);
    `private`: a file of tuibench's own (a session, the recent configs), 0600 in a 0700
    directory; else a file the user asked for where they said, made as their umask says."""
    if private:
        private_dir(path.parent)
    else:
        path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        if not private:
            # mkstemp makes the file private; an export is an ordinary file to share.
            umask = os.umask(0)
            os.umask(umask)
            os.fchmod(fd, 0o666 & ~umask)
        with os.fdopen(fd, "wb") as handle:
            for chunk in (data,) if isinstance(data, bytes) else data:
                handle.write(chunk)
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


def write_new(path: Path, text: str | Iterable[str], *, force: bool = False) -> Path:
    """Write `text` (or its chunks) to `path` (atomically), never over an existing file
    unless `force`; the absolute path written. UsageError (one line) when it cannot. Every
    file the user asks for goes through here, its secrets redacted."""
    target = path.expanduser().absolute()
    # A directory that is not there is a typo more often than a wish: not made.
    if not target.parent.is_dir():
        raise UsageError(f"cannot write {target}: No such file or directory")
    if target.exists() and not force:
        raise UsageError(f"{target} exists: choose another file, or --force to overwrite it")
    # Here, not at the top: reading the store (a first screen) loads no redaction rules.
    from tui_bench.redaction import redact_text

    try:
        chunks = (text,) if isinstance(text, str) else text
        write_atomic(target, (redact_text(c).encode() for c in chunks), private=False)
    except OSError as exc:
        raise UsageError(f"cannot write {target}: {exc.strerror}") from None
    return target


def store_error(directory: Path, exc: OSError, doing: str) -> StoreError:
    """`exc` met writing in `directory` as one line naming the store and its free space."""
    where = directory
    while not where.exists() and where != where.parent:
        where = where.parent
    try:
        free = f"{fmt_bytes(shutil.disk_usage(where).free)} free"
    except OSError:
        free = "free space unknown"
    return StoreError(f"{doing}: {directory}: {exc.strerror or exc} ({free})")
