"""Append-only run journal: what a crash, Ctrl-C or dropped SSH session must not lose.

Every record is one JSON line. A closed second is written to the OS as soon as it is
journaled, the rest at least once a second: a killed process loses at most the last second,
and never a second it printed. The final session file is built by replaying the journal, so
a finished run and a recovered one go through the same code.
The writer holds an exclusive lock: a journal nobody holds belongs to a run that died.

A store that fills up mid-run does not stop the run: the journal is cut back to its last
whole line and what comes after is held in memory, so the run still ends with every record
(`records`) and its figures shown, whether or not they can then be saved.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import time
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

import orjson

from tui_bench.redaction import redact_document
from tui_bench.storage.atomic import PRIVATE_FILE, private_dir, store_error
from tui_bench.storage.columns import json_default

# Written to the OS when journaled: what a run prints as it goes.
PROMPT_KINDS = frozenset({"header", "second", "end"})
SAMPLE = "sample"
END = "end"
FLUSH_EVERY_S = 1.0
# Samples are kept as the sampler took them for this long, then one in each SAMPLE_EVERY_S:
# the per-second series already holds each second's server and client figures, and the
# samples' extra detail (USS, PSS, threads, descriptors) moves slowly.
SAMPLES_WHOLE_S = 600.0
SAMPLE_EVERY_S = 10.0


class JournalWriter:
    def __init__(self, path: Path, header: Mapping[str, Any]) -> None:
        self.path = path
        # Lines not yet written; once the store is full, every line from then on.
        self._pending: list[bytes] = []
        self._written = 0
        # When the last sample journaled was taken; the last one passed over since.
        self._sample_s: Any = None
        self._held: Mapping[str, Any] | None = None
        # Why the journal stopped taking lines (a full disk); None while it takes them.
        self.failure: OSError | None = None
        try:
            private_dir(path.parent)
            self._fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, PRIVATE_FILE)
        except OSError as exc:
            raise store_error(path.parent, exc, "cannot start the run's journal") from None
        os.fchmod(self._fd, PRIVATE_FILE)
        fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        self._last_flush = time.monotonic()
        self.write("header", header)
        if self.failure is not None:
            # Nothing measured yet: the run is refused rather than run unsaved.
            exc = self.failure
            self.discard()
            raise store_error(path.parent, exc, "cannot start the run's journal") from None

    def write(self, kind: str, record: Mapping[str, Any]) -> None:
        if kind == SAMPLE:
            # Only those the session keeps (samples were three quarters of a day's journal),
            # and the run's closing reading: the last one passed over is written at its end.
            if not kept_sample(record, self._sample_s):
                self._held = record
                return
            self._sample_s, self._held = record.get("t_s"), None
        elif kind == END and self._held is not None:
            self._append(SAMPLE, self._held)
            self._held = None
        self._append(kind, record)

    def _append(self, kind: str, record: Mapping[str, Any]) -> None:
        entry = {"k": kind, **record}
        line = orjson.dumps(entry, default=json_default, option=orjson.OPT_SERIALIZE_NUMPY)
        redacted = redact_document(entry, line.decode())
        if redacted is not entry:
            line = orjson.dumps(redacted, default=json_default, option=orjson.OPT_SERIALIZE_NUMPY)
        self._pending.append(line + b"\n")
        if kind in PROMPT_KINDS or time.monotonic() - self._last_flush >= FLUSH_EVERY_S:
            self.flush()

    def flush(self) -> None:
        self._last_flush = time.monotonic()
        if self.failure is not None or not self._pending:
            return
        data = b"".join(self._pending)
        try:
            done = 0
            while done < len(data):
                done += os.write(self._fd, data[done:])
        except OSError as exc:
            self.failure = exc
            # A torn line would be skipped on replay; cut it so the file ends whole.
            with contextlib.suppress(OSError):
                os.ftruncate(self._fd, self._written)
            return
        self._written += len(data)
        self._pending.clear()

    def records(self) -> Iterator[dict[str, Any]]:
        """Every record journaled: those on disk, then those held in memory."""
        yield from read_records(self.path)
        yield from _records(self._pending)

    def close(self) -> None:
        if self._fd < 0:
            return
        self.flush()
        if self.failure is None:
            try:
                os.fsync(self._fd)
            except OSError as exc:
                self.failure = exc
        os.close(self._fd)
        self._fd = -1

    def discard(self) -> None:
        """Remove the journal: what it holds is incomplete, and would be recovered as a run
        that never ended."""
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1
        self.path.unlink(missing_ok=True)


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
        yield from _records(handle)


def _records(lines: Iterable[bytes]) -> Iterator[dict[str, Any]]:
    for line in lines:
        try:
            record = orjson.loads(line)
        except orjson.JSONDecodeError:
            continue
        if isinstance(record, dict) and "k" in record:
            yield record


def kept_sample(sample: Mapping[str, Any], last_kept_s: Any) -> bool:
    """Whether a session keeps `sample`, the last it kept taken at `last_kept_s`: every one
    of the first SAMPLES_WHOLE_S, then the first of each SAMPLE_EVERY_S."""
    t_s = sample.get("t_s")
    if not isinstance(t_s, int | float) or t_s < SAMPLES_WHOLE_S:
        return True
    if not isinstance(last_kept_s, int | float):
        return True
    return t_s // SAMPLE_EVERY_S != last_kept_s // SAMPLE_EVERY_S
