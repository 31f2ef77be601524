"""Append-only run journal: what a crash, Ctrl-C or dropped SSH session must not lose.

Every record is one JSON line. The writer flushes to the OS at least once a second, so a
killed process loses at most the last second; the final session file is built by replaying
the journal, so a finished run and a recovered one go through the same code.
The writer holds an exclusive lock: a journal nobody holds belongs to a run that died.
"""

from __future__ import annotations

import fcntl
import os
import time
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import IO, Any

import orjson

from tui_bench.redaction import redact_document
from tui_bench.storage.atomic import PRIVATE_FILE, private_dir

JOURNAL_SUFFIX = ".journal"


class JournalWriter:
    def __init__(self, path: Path, header: Mapping[str, Any]) -> None:
        private_dir(path.parent)
        self.path = path
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, PRIVATE_FILE)
        os.fchmod(fd, PRIVATE_FILE)
        self._file: IO[bytes] = os.fdopen(fd, "ab")
        fcntl.flock(self._file.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        self._last_flush = time.monotonic()
        self.write("header", header)
        self.flush()

    def write(self, kind: str, record: Mapping[str, Any]) -> None:
        entry = {"k": kind, **record}
        line = orjson.dumps(entry, option=orjson.OPT_SERIALIZE_NUMPY)
        redacted = redact_document(entry, line.decode())
        if redacted is not entry:
            line = orjson.dumps(redacted, option=orjson.OPT_SERIALIZE_NUMPY)
        self._file.write(line + b"\n")
        now = time.monotonic()
        if now - self._last_flush >= 1.0:
            self._file.flush()
            self._last_flush = now

    def flush(self) -> None:
        self._file.flush()
        self._last_flush = time.monotonic()

    def close(self) -> None:
        if self._file.closed:
            return
        self._file.flush()
        os.fsync(self._file.fileno())
        self._file.close()


def is_abandoned(path: Path) -> bool:
    """True when no live writer holds the journal (its run died before finishing)."""
    try:
        with open(path, "rb") as handle:
            try:
                fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                return False
            return True
    except FileNotFoundError:
        return False


def read_records(path: Path) -> Iterator[dict[str, Any]]:
    """The journal's records; a torn last line (the writer was killed mid-write) is skipped."""
    with open(path, "rb") as handle:
        for line in handle:
            try:
                record = orjson.loads(line)
            except orjson.JSONDecodeError:
                continue
            if isinstance(record, dict) and "k" in record:
                yield record
