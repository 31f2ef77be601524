"""Saved sessions as rows of a listing: one record per file, sort keys and a filter. Pure.

The CLI's `sessions` command and the TUI's session tables read the same rows.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tui_bench.storage.layout import instant

# A listing from the index reads no session document: their code (and numpy) stay unloaded,
# and so does what makes a headline from one (the verdicts, the sweep's points).
if TYPE_CHECKING:
    from tui_bench.spec import RunSpec
    from tui_bench.storage.session import Session
    from tui_bench.storage.store import SessionEntry

UNREADABLE = "unreadable"


def session_row(session: Session) -> dict[str, Any]:
    """The headline of a session: `tuibench sessions --json` prints one per session."""

    spec = session.spec
    result = session.result
    latency = result.latency if result else None
    row = {
        "id": session.id,
        "name": session.name,
        "kind": session.kind,
        "status": session.status,
        "started_at": session.doc.get("started_at"),
        "tool": spec.tool,
        "url": " ".join(spec.urls),
        "c": spec.connections,
        "m": spec.streams,
        "rps": result.rps if result else None,
        "p99_s": latency.percentiles.get("p99_s") if latency else None,
        "errors": result.error_count if result else None,
        "tags": list(session.doc.get("tags") or []),
        "validity": validity.verdict if (validity := session.validity) else None,
    }
    return row | _sweep_headline(session) if session.is_sweep else row


def _sweep_headline(session: Session) -> dict[str, Any]:
    """A sweep has no result of its own: its tool is marked as a sweep's, and the URL, c, m
    and figures are those of its best point (none while no run of it has completed)."""
    from tui_bench.storage.session import SWEEP
    from tui_bench.storage.sweep_doc import best_point

    head: dict[str, Any] = {"tool": f"{session.spec.tool} {SWEEP}"}
    head |= {"rps": None, "p99_s": None, "errors": None, "validity": None}
    try:
        point = best_point(session)
        if point is None:
            return head
        spec = _point_spec(session, point.index)
        rate = point.error_rate
        return head | {
            "url": " ".join(spec.urls),
            "c": spec.connections,
            "m": spec.streams,
            "rps": point.rps_figure,
            "p99_s": point.latency_figure("p99_s"),
            "errors": None if rate is None else round(rate * point.requests),
            # The verdict on the point whose figures the row shows.
            "validity": point.verdict,
        }
    except (KeyError, TypeError, ValueError, AttributeError):
        # A damaged summary is listed without figures; opening the sweep says what is wrong.
        return head


def _point_spec(session: Session, index: int) -> RunSpec:
    from tui_bench.spec import RunSpec

    (point,) = (p for p in session.doc["sweep"]["points"] if p["index"] == index)
    return RunSpec.from_dict(dict(point["request"]["spec"]))


@dataclass(frozen=True)
class SessionRow:
    """One file of the store: a session's headline, or why the file could not be read."""

    path: Path
    id: str
    status: str
    kind: str = "run"  # or "sweep"
    name: str = ""
    started: datetime | None = None
    tool: str = ""
    url: str = ""
    c: int | None = None
    m: int | None = None
    rps: float | None = None
    p99_s: float | None = None
    errors: int | None = None
    tags: tuple[str, ...] = ()
    validity: str | None = None
    error: str | None = None

    @property
    def readable(self) -> bool:
        return self.error is None

    def matches(self, query: str) -> bool:
        """Every word of `query` is in the name, tool, URL, a tag, the id or the status."""
        haystack = " ".join((self.name, self.tool, self.url, *self.tags, self.id, self.status))
        haystack = haystack.casefold()
        return all(word in haystack for word in query.casefold().split())


def row_of(entry: SessionEntry) -> SessionRow:
    if entry.session is None:
        return unreadable_row(entry.path, entry.error)
    return row_from_head(entry.path, session_row(entry.session))


def unreadable_row(path: Path, error: str | None) -> SessionRow:
    # Store errors start with the file's path, which the row already carries.
    reason = (error or "cannot be read").removeprefix(f"{path}: ")
    return SessionRow(path, path.stem, UNREADABLE, error=reason)


def row_from_head(path: Path, head: Mapping[str, Any]) -> SessionRow:
    """A row from a session's headline (`session_row`), as read or as the index keeps it."""
    return SessionRow(
        path=path,
        id=head["id"],
        status=head["status"],
        kind=head["kind"],
        name=head["name"],
        started=instant(head["started_at"]),
        tool=head["tool"],
        url=head["url"],
        c=head["c"],
        m=head["m"],
        rps=head["rps"],
        p99_s=head["p99_s"],
        errors=head["errors"],
        tags=tuple(str(tag) for tag in head["tags"]),
        validity=head["validity"],
    )


def rows_of(entries: Iterable[SessionEntry]) -> list[SessionRow]:
    return [row_of(entry) for entry in entries]


SORT_KEYS: dict[str, Callable[[SessionRow], Any]] = {
    "date": lambda r: r.started,
    "name": lambda r: (r.name or r.id).casefold(),
    "tool": lambda r: r.tool,
    "url": lambda r: r.url,
    "c": lambda r: r.c,
    "m": lambda r: r.m,
    "rps": lambda r: r.rps,
    "p99": lambda r: r.p99_s,
    "errors": lambda r: r.errors,
    "tags": lambda r: ",".join(r.tags).casefold(),
    "validity": lambda r: r.validity,
    "status": lambda r: r.status,
}


def sort_rows(rows: Sequence[SessionRow], column: str, *, descending: bool) -> list[SessionRow]:
    """Rows ordered by `column`; rows without a value come last either way."""
    key = SORT_KEYS[column]
    present = [r for r in rows if key(r) not in (None, "")]
    missing = [r for r in rows if key(r) in (None, "")]
    return sorted(present, key=key, reverse=descending) + missing


def filter_rows(rows: Iterable[SessionRow], query: str) -> list[SessionRow]:
    return [r for r in rows if r.matches(query)]


def recent(rows: Sequence[SessionRow], limit: int) -> list[SessionRow]:
    return sort_rows(rows, "date", descending=True)[:limit]


def unfit_reason(row: SessionRow) -> str | None:
    """Why a run cannot stand as the one to compare with (`interrupted`, `failed`,
    `invalid`), or None when it can."""
    if row.status != "completed":
        return row.status
    return "invalid" if row.validity == "invalid" else None


@dataclass(frozen=True)
class Previous:
    """The run to compare a finished one with, and the newer earlier runs passed over on
    the way to it (interrupted, failed or invalid), newest first."""

    path: Path | None
    skipped: tuple[SessionRow, ...] = ()


def previous_run(rows: Iterable[SessionRow], current: Path) -> Previous:
    """The session to compare a finished run with: the newest earlier run of the same tool
    on the same URLs that completed and is not invalid."""
    rows = list(rows)
    this = next((r for r in rows if r.path == current and r.readable), None)
    if this is None or this.started is None:
        return Previous(None)
    started = this.started
    earlier = sorted(
        (
            r
            for r in rows
            if r.readable
            and r.path != current
            and (r.tool, r.url) == (this.tool, this.url)
            and r.started is not None
            and r.started <= started
        ),
        key=lambda r: (r.started, r.path),
        reverse=True,
    )
    skipped: list[SessionRow] = []
    for row in earlier:
        if unfit_reason(row) is None:
            return Previous(row.path, tuple(skipped))
        skipped.append(row)
    return Previous(None, tuple(skipped))
