"""An index of the sessions directory: what listing a session needs, kept per file.

The session files stay the truth. The index is a cache in the user's cache directory
($XDG_CACHE_HOME/tuibench/index/), keyed by file name with the file's size and mtime: a file
that changed, appeared or went away is read again (or dropped) on the next listing, an index
that is missing, damaged or of another version is rebuilt, and one that cannot be written
only costs the next listing its speed. Listing 10,000 sessions then reads one file and stats
the others, whatever their series hold.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from tui_bench.errors import SessionError
from tui_bench.storage.atomic import write_atomic
from tui_bench.storage.catalog import SessionRow, row_from_head, session_row, unreadable_row
from tui_bench.storage.history_facts import history_facts
from tui_bench.storage.session import parse
from tui_bench.storage.store import SESSION_SUFFIX, recover_abandoned, sessions_dir

# Bump when what an entry holds changes: every index is then rebuilt.
INDEX_VERSION = 1


@dataclass(frozen=True)
class Indexed:
    """One session file as the index knows it: its headline (`session_row`) and its
    history facts, or why it cannot be read."""

    path: Path
    head: Mapping[str, Any] | None
    facts: Mapping[str, Any] | None
    error: str | None = None

    @property
    def row(self) -> SessionRow:
        if self.head is None:
            return unreadable_row(self.path, self.error)
        return row_from_head(self.path, self.head)


def index_path(directory: Path) -> Path:
    """Where the index of `directory` is kept: one per sessions directory."""
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    key = hashlib.sha256(str(directory.expanduser().absolute()).encode()).hexdigest()[:16]
    return Path(cache) / "tuibench" / "index" / f"{key}.json"


def indexed(directory: Path | None = None, newest: int | None = None) -> list[Indexed]:
    """Every session file of `directory` (or the `newest` ones alone), newest first (by
    name, as `list_sessions`), from the index where the file has not changed since it was
    read."""
    directory = directory or sessions_dir()
    if newest is None:
        recover_abandoned(directory)
    if not directory.is_dir():
        return []
    where = index_path(directory)
    known = _read_index(where)
    entries: dict[str, Any] = {}
    changed = False
    with os.scandir(directory) as found:
        files = [f for f in found if f.name.endswith(SESSION_SUFFIX) and f.is_file()]
    if newest is not None:
        files = sorted(files, key=lambda f: f.name, reverse=True)[:newest]
    for file in files:
        stat = file.stat()
        stamp = [stat.st_size, stat.st_mtime_ns]
        entry = known.get(file.name)
        if entry is None or entry.get("stamp") != stamp:
            entry = {"stamp": stamp, **_read(Path(file.path))}
            changed = True
        entries[file.name] = entry
    if newest is None and (changed or len(entries) != len(known)):
        _write_index(where, entries)
    return [
        Indexed(directory / name, entry.get("head"), entry.get("facts"), entry.get("error"))
        for name, entry in sorted(entries.items(), reverse=True)
    ]


def indexed_rows(directory: Path | None = None, newest: int | None = None) -> list[SessionRow]:
    """The rows of the sessions browser and `tuibench sessions`, through the index."""
    return [entry.row for entry in indexed(directory, newest)]


def _read(path: Path) -> dict[str, Any]:
    try:
        session = parse(path.read_bytes(), str(path))
        return {"head": session_row(session), "facts": history_facts(session)}
    except (SessionError, OSError) as exc:
        return {"error": str(exc)}
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        # A document that passes the checks but not the reading: listed as damaged.
        return {"error": f"{path}: session file is damaged ({exc.__class__.__name__})"}


def _read_index(where: Path) -> dict[str, Any]:
    try:
        data = orjson.loads(where.read_bytes())
    except (OSError, orjson.JSONDecodeError):
        return {}
    if not isinstance(data, dict) or data.get("version") != INDEX_VERSION:
        return {}
    entries = data.get("entries")
    return entries if isinstance(entries, dict) else {}


def _write_index(where: Path, entries: Mapping[str, Any]) -> None:
    try:
        where.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(where, orjson.dumps({"version": INDEX_VERSION, "entries": entries}))
    except OSError:
        # A read-only cache: the listing is right, only slower the next time.
        pass
