"""An index of the sessions directory: what listing a session needs, kept per file.

The session files stay the truth. The index is a cache in the user's cache directory
($XDG_CACHE_HOME/tuibench/index/, one SQLite file per sessions directory), keyed by file name
with the file's size and mtime: a file that changed or appeared is read again on the next
listing and one that went away is dropped; an index that is damaged or of another version is
rebuilt, and one that cannot be opened or written only costs the listing its speed. Listing
10,000 sessions then stats the files and reads one small row each, whatever their series
hold; the newest few are read alone for a first screen.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import sqlite3
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

from tui_bench.errors import SessionError
from tui_bench.storage.atomic import PRIVATE_FILE, private_dir
from tui_bench.storage.catalog import SessionRow, row_from_head, session_row, unreadable_row
from tui_bench.storage.layout import JOURNAL_SUFFIX, SESSION_SUFFIX, by_id, sessions_dir

# A run still going, as `tuibench sessions` lists it.
RUNNING = "running"
# Bump when what an entry holds changes: every index is then rebuilt.
INDEX_VERSION = 2
# `bench` is the session's --name: a history reads the entries of one benchmark alone.
_SCHEMA = (
    "CREATE TABLE entries (name TEXT PRIMARY KEY, size INTEGER, mtime_ns INTEGER,"
    " head BLOB, facts BLOB, error TEXT, bench TEXT)",
    "CREATE INDEX entries_bench ON entries (bench)",
)


@dataclass(frozen=True)
class Indexed:
    """One session file as the index knows it: its headline (`session_row`) and its
    history facts, or why it cannot be read."""

    path: Path
    head: Mapping[str, Any] | None
    error: str | None = None
    # The facts as JSON: decoded only by what reads them (a history), not by a listing.
    facts_json: bytes | None = field(default=None, repr=False)

    @property
    def facts(self) -> Mapping[str, Any] | None:
        if self.facts_json is None:
            return None
        facts: Mapping[str, Any] = orjson.loads(self.facts_json)
        return facts

    @property
    def row(self) -> SessionRow:
        if self.head is None:
            return unreadable_row(self.path, self.error)
        return row_from_head(self.path, self.head)


def index_path(directory: Path) -> Path:
    """Where the index of `directory` is kept: one per sessions directory."""
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    key = hashlib.sha256(str(directory.expanduser().absolute()).encode()).hexdigest()[:16]
    return Path(cache) / "tuibench" / "index" / f"{key}.sqlite"


def indexed(
    directory: Path | None = None, newest: int | None = None, *, named: str | None = None
) -> list[Indexed]:
    """Every session file of `directory` (or the `newest` ones alone, or those whose
    --name is `named`), newest first (by name, as `list_sessions`), from the index where the
    file has not changed since it was read."""
    directory = directory or sessions_dir()
    # Journals that could not be made sessions: listed as damaged, among the rest.
    left = _unfinished(directory) if newest is None else []
    if not directory.is_dir():
        return []
    with os.scandir(directory) as found:
        files = [f for f in found if f.name.endswith(SESSION_SUFFIX) and f.is_file()]
    files.sort(key=lambda f: f.name, reverse=True)
    if newest is not None:
        files = files[:newest]
    wanted = None if newest is None else [f.name for f in files]
    with _index(directory) as db:
        stamps = _stamps(db, wanted)
        fresh: dict[str, tuple[Any, ...]] = {}
        for file in files:
            stat = file.stat()
            if stamps.get(file.name) != (stat.st_size, stat.st_mtime_ns):
                fresh[file.name] = (stat.st_size, stat.st_mtime_ns, *_read(Path(file.path)))
        gone = set(stamps) - {f.name for f in files} if newest is None else set()
        _update(db, fresh, gone)
        if db is None:
            # No index to ask: every file is read.
            unread = [f for f in files if f.name not in fresh]
            fresh |= {f.name: (0, 0, *_read(Path(f.path))) for f in unread}
        else:
            # What was just read wins over the index, should writing it have failed.
            fresh = _entries(db, wanted, named) | fresh
    out = [Indexed(path, None, error) for path, error in left]
    for file in files:
        entry = fresh.get(file.name)
        if entry is None:
            continue  # another benchmark's
        _, _, head, facts, error, bench = entry
        # A damaged file's name is unknown: it is kept, for a history to say it skipped it.
        if named is not None and bench != named and head is not None:
            continue
        out.append(
            Indexed(directory / file.name, orjson.loads(head) if head else None, error, facts)
        )
    out.sort(key=lambda entry: by_id(entry.path), reverse=True)
    return out


def running(directory: Path | None = None) -> list[Indexed]:
    """The runs still going, newest first: journals a live run holds, listed from their
    header with the status `running` and no figures yet."""
    from tui_bench.storage.journal import is_abandoned

    directory = directory or sessions_dir()
    out = []
    for journal in directory.glob(f"*{JOURNAL_SUFFIX}"):
        if is_abandoned(journal):
            continue  # a run that died: `recover` makes it a session
        head = _running_head(journal)
        if head is not None:
            out.append(Indexed(journal, head))
    out.sort(key=lambda entry: by_id(entry.path), reverse=True)
    return out


def _running_head(journal: Path) -> dict[str, Any] | None:
    """A running run's headline (the keys of `session_row`) from its journal's header."""
    from tui_bench.storage.session import SWEEP

    try:
        with open(journal, "rb") as handle:
            header = orjson.loads(handle.readline())
        spec = header["spec"]
        sweep = header.get("kind") == SWEEP
        return {
            "id": str(header["id"]),
            "name": header.get("name"),
            "kind": SWEEP if sweep else "run",
            "status": RUNNING,
            "started_at": header.get("started_at"),
            "tool": f"{spec['tool']} {SWEEP}" if sweep else str(spec["tool"]),
            "url": " ".join(spec.get("urls") or ()),
            "c": spec.get("connections"),
            "m": spec.get("streams"),
            "rps": None,
            "p99_s": None,
            "errors": None,
            "tags": list(header.get("tags") or ()),
            "validity": None,
        }
    except (OSError, orjson.JSONDecodeError, KeyError, TypeError):
        return None  # not begun, or torn: listed once it is a session


def _unfinished(directory: Path) -> list[tuple[Path, str]]:
    # Finishing journals, like reading a changed file, needs the session document's code
    # (and numpy): a listing from the index of a store without journals loads none of it,
    # nor competes with the painting of a first screen for the interpreter.
    if not any(directory.glob(f"*{JOURNAL_SUFFIX}")):
        return []
    from tui_bench.storage.store import recover

    return recover(directory).left


def bench_names(directory: Path | None = None) -> set[str]:
    """Every --name in the store, from the index: to suggest one for a name not there."""
    return {str(e.head.get("name") or "") for e in indexed(directory) if e.head} - {""}


def indexed_rows(directory: Path | None = None, newest: int | None = None) -> list[SessionRow]:
    """The rows of the sessions browser and `tuibench sessions`, through the index."""
    return [entry.row for entry in indexed(directory, newest)]


def _read(path: Path) -> tuple[bytes | None, bytes | None, str | None, str | None]:
    """(headline, history facts) as JSON and the --name, or why the file cannot be read."""
    from tui_bench.storage.history_facts import history_facts
    from tui_bench.storage.session_file import parse

    try:
        session = parse(path.read_bytes(), str(path))
        head, facts = session_row(session), history_facts(session)
        return orjson.dumps(head), orjson.dumps(facts), None, session.name
    except (SessionError, OSError) as exc:
        return None, None, str(exc), None
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        # A document that passes the checks but not the reading: listed as damaged.
        return None, None, f"{path}: session file is damaged ({exc.__class__.__name__})", None


@contextlib.contextmanager
def _index(directory: Path) -> Iterator[sqlite3.Connection | None]:
    """The index of `directory`, made or rebuilt as needed; None when it cannot be had."""
    where = index_path(directory)
    db = None
    for _ in range(2):
        try:
            # It holds the sessions' URLs, names and tags: as private as the store.
            private_dir(where.parent)
            os.close(os.open(where, os.O_WRONLY | os.O_CREAT, PRIVATE_FILE))
            if where.stat().st_mode & 0o777 != PRIVATE_FILE:
                where.chmod(PRIVATE_FILE)
            db = sqlite3.connect(where, timeout=2)
            if db.execute("PRAGMA user_version").fetchone()[0] != INDEX_VERSION:
                db.execute("DROP TABLE IF EXISTS entries")
                for statement in _SCHEMA:
                    db.execute(statement)
                db.execute(f"PRAGMA user_version = {INDEX_VERSION}")
                db.commit()
            break
        except sqlite3.DatabaseError:
            # Not a database (damaged, or something else at that path): start it again.
            if db is not None:
                db.close()
            db = None
            with contextlib.suppress(OSError):
                where.unlink()
        except (sqlite3.Error, OSError):
            db = None
            break
    try:
        yield db
    finally:
        if db is not None:
            db.close()


def _stamps(db: sqlite3.Connection | None, names: Sequence[str] | None) -> dict[str, Any]:
    """name -> (size, mtime_ns) of the files the index knows, of `names` or all."""
    found = _select(db, "name, size, mtime_ns", names)
    return {name: (size, mtime) for name, size, mtime in found}


def _entries(
    db: sqlite3.Connection | None, names: Sequence[str] | None, bench: str | None
) -> dict[str, tuple[Any, ...]]:
    """name -> (size, mtime_ns, head, facts, error, bench) of `names`, or of benchmark
    `bench`, or all."""
    columns = "name, size, mtime_ns, head, facts, error, bench"
    found = _select(db, columns, names, bench)
    return {name: tuple(rest) for name, *rest in found}


def _select(
    db: sqlite3.Connection | None,
    columns: str,
    names: Sequence[str] | None,
    bench: str | None = None,
) -> list[Any]:
    if db is None or names == []:
        return []
    query = f"SELECT {columns} FROM entries"
    try:
        if names is not None:
            marks = ",".join("?" * len(names))
            return db.execute(f"{query} WHERE name IN ({marks})", list(names)).fetchall()
        if bench is not None:
            # The damaged files too: a history says it skipped them.
            where = "bench = ? OR head IS NULL"
            return db.execute(f"{query} WHERE {where}", (bench,)).fetchall()
        return db.execute(query).fetchall()
    except sqlite3.Error:
        return []


def _update(
    db: sqlite3.Connection | None, fresh: Mapping[str, tuple[Any, ...]], gone: set[str]
) -> None:
    """Write what was read again and drop what went away."""
    if db is None or not (fresh or gone):
        return
    try:
        with db:
            db.executemany(
                "INSERT OR REPLACE INTO entries VALUES (?, ?, ?, ?, ?, ?, ?)",
                [(name, *entry) for name, entry in fresh.items()],
            )
            db.executemany("DELETE FROM entries WHERE name = ?", [(name,) for name in gone])
    except sqlite3.Error:
        # Locked by another tuibench, or a read-only cache: the entries read are right.
        pass
