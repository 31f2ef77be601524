"""Where sessions live, and turning a journal into a session file."""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import Any

from tui_bench.errors import SessionError
from tui_bench.result import Result
from tui_bench.spec import RunSpec
from tui_bench.storage import refs
from tui_bench.storage.atomic import store_error, write_atomic
from tui_bench.storage.columns import Columns
from tui_bench.storage.journal import is_abandoned, read_records
from tui_bench.storage.layout import JOURNAL_SUFFIX
from tui_bench.storage.layout import SESSION_SUFFIX as SESSION_SUFFIX
from tui_bench.storage.layout import by_id as by_id
from tui_bench.storage.layout import sessions_dir as sessions_dir
from tui_bench.storage.recovered import recovered_end
from tui_bench.storage.refs import Located
from tui_bench.storage.segment_codec import segment_record, segments_begun
from tui_bench.storage.series_columns import window_end
from tui_bench.storage.session import SCHEMA_VERSION, SWEEP, Session
from tui_bench.storage.session_file import parse
from tui_bench.storage.session_records import SessionDraft

# Where a sweep's runs are journaled while it goes, beside the sweep's own journal.
RUNS_SUFFIX = ".runs"
# What an end record may add to the document beside the keys every session has.
# A run of several generators also ends with `generators`, and the first generator's
# `server` and `argv` (known once it ran).
OPTIONAL_END_KEYS = (
    "histogram",
    "service_histogram",
    "message",
    "thresholds",
    "validity",
    "max_errors",
    "generators",
    "server",
    "argv",
)


def new_session_id(started: datetime, tool: str, name: str) -> str:
    slug = re.sub(r"[^A-Za-z0-9._-]+", "-", name).strip("-.")[:40]
    stamp = started.strftime("%Y%m%d-%H%M%S-%f")[:-3]
    return "-".join(part for part in (stamp, tool, slug) if part)


def session_path(directory: Path, session_id: str) -> Path:
    return directory / f"{session_id}{SESSION_SUFFIX}"


def journal_path(directory: Path, session_id: str) -> Path:
    return directory / f"{session_id}{JOURNAL_SUFFIX}"


def runs_dir(journal: Path) -> Path:
    """The working directory of the runs of the sweep journaled at `journal`. Its journals
    are not in the store itself, so they are never recovered as sessions of their own."""
    return journal.with_suffix(RUNS_SUFFIX)


def document_from_journal(
    path: Path, records: Iterable[dict[str, Any]] | None = None
) -> dict[str, Any]:
    """Replay a journal (its `records`, when they are not all on disk) into a session
    document. One without an end is 'interrupted', its result rebuilt from its seconds.
    Records are read one at a time into columns: a day's journal is never held whole."""
    doc: dict[str, Any] | None = None
    series = Columns()
    samples = Columns()
    last_sample_s: float | None = None
    minutes: list[Any] = []
    warnings: list[Any] = []
    runs: list[Any] = []
    summary: Mapping[str, Any] = {}
    raw: dict[str, list[str]] = {"stdout": [], "stderr": []}
    # When each line came, by stream; None once a line has no time (an older writer's).
    raw_times: dict[str, list[float]] | None = {"stdout": [], "stderr": []}
    end: Mapping[str, Any] = {}
    # A steered run's segments as they began: what a run that died before its end keeps.
    begun: list[dict[str, Any]] = []
    for record in read_records(path) if records is None else records:
        kind = record.pop("k")
        if kind == "header":
            doc = record
        elif kind == "second":
            series.add(record)
        elif kind == "sample":
            # Those the journal kept (journal.kept_sample): every one a session keeps.
            last_sample_s = record.get("t_s", last_sample_s)
            samples.add(record)
        elif kind == "minute":
            minutes.append(record)
        elif kind == "warning":
            warnings.append(record)
        elif kind == "out":
            raw.setdefault(record["s"], []).append(record["l"])
            if raw_times is not None and "t" in record:
                raw_times.setdefault(record["s"], []).append(record["t"])
            else:
                raw_times = None
        elif kind == "run":
            runs.append(record)
        elif kind == "summary":
            # A sweep's aggregates so far; each record replaces the one before.
            summary = record
        elif kind == "segment":
            begun.append(record)
        elif kind == "end":
            end = record
    if doc is None:
        raise SessionError(f"{path}: journal has no header")
    if doc.get("kind") == SWEEP:
        doc.update(summary, runs=runs)
    if not end:
        end = recovered_end(doc, series, last_sample_s, warnings, raw_times)
    doc.update(
        # Columns, whatever the version of the release that began the journal.
        version=SCHEMA_VERSION,
        series=series.to_json(),
        samples=samples.to_json(),
        warnings=warnings,
        raw={stream: "".join(lines) for stream, lines in raw.items()},
        status=end.get("status", "interrupted"),
        exit_code=end.get("exit_code"),
        ended_at=end.get("ended_at"),
        result=end.get("result"),
        resources=end.get("resources"),
    )
    if minutes:
        doc["minutes"] = minutes
    if "segments" in end:
        doc["segments"] = end["segments"]
    elif len(begun) > 1:
        last_t = series.last("t_s")
        run_end = (
            None
            if last_t is None
            else window_end({"t_s": last_t, "window_s": series.last("window_s")})
        )
        doc["segments"] = segments_begun(begun, run_end)
    if raw_times is not None:
        doc["raw_times"] = raw_times
    doc.update({key: end[key] for key in OPTIONAL_END_KEYS if key in end})
    return doc


# What judges a finished session before it is written: the end fields it adds (verdicts).
EndJudge = Callable[[Session], Mapping[str, Any]]


def finalize(journal: Path) -> Path:
    """Write the session file for `journal` atomically, then drop the journal."""
    return finalize_judged(journal)[0]


def finalize_judged(journal: Path, judge: EndJudge | None = None) -> tuple[Path, Session]:
    """`finalize`, with what `judge` finds of the finished session written in it: the file
    is written once, whole, never amended afterwards. The session is returned as written."""
    session = finished_session(journal, judge)
    write_session(journal, session)
    return journal.with_suffix(SESSION_SUFFIX), session


def finished_session(
    journal: Path,
    judge: EndJudge | None = None,
    records: Iterable[dict[str, Any]] | None = None,
) -> Session:
    """The session `journal` makes (its `records`, when not all on disk), judged by `judge`;
    not written."""
    doc = document_from_journal(journal, records)
    if doc.get("kind") == SWEEP:
        _adopt_runs(doc, runs_dir(journal))
    else:
        _adopt_generators(doc, runs_dir(journal))
    target = journal.with_suffix(SESSION_SUFFIX)
    if judge is not None:
        doc.update(judge(Session(doc, target)))
    if doc.get("kind") != SWEEP:
        # Kept in the file as every view reads them, judged run and all.
        doc["segments"] = [segment_record(s) for s in Session(doc, target).segments]
    return Session(doc, target)


def write_session(journal: Path, session: Session) -> None:
    """Write `session` (made from `journal`) beside it, then drop the journal and its runs'
    working directory. OSError when the store cannot take it: the journal is then kept."""
    write_atomic(journal.with_suffix(SESSION_SUFFIX), session.to_json())
    journal.unlink(missing_ok=True)
    shutil.rmtree(runs_dir(journal), ignore_errors=True)


def _adopt_runs(doc: dict[str, Any], directory: Path) -> None:
    """Add to a sweep the runs its journal does not hold yet: the one going when the sweep's
    process died (journal only, recovered as interrupted) and one finished but not yet
    recorded. Runs go strictly in plan order, so each takes the next slot of the plan."""
    if not directory.is_dir():
        return
    known = {run["session"].get("id") for run in doc["runs"]}
    order = doc["sweep"]["order"]
    for run in _documents_in(directory):
        slot = len(doc["runs"])
        if run.get("id") in known or slot >= len(order):
            continue
        point, repeat = order[slot]
        doc["runs"].append({"slot": slot, "point": point, "repeat": repeat, "session": run})
        known.add(run.get("id"))


def generator_name(name: str, index: int, host: str) -> str:
    """The name of the run of generator `index` (from 0) on `host` of a run named `name`."""
    return " ".join(part for part in (name, f"g{index + 1}", host) if part)


def _adopt_generators(doc: dict[str, Any], directory: Path) -> None:
    """A run of several generators whose process died: each generator's own run, as far as
    its journal goes (its name says which generator it was)."""
    hosts = doc.get("generator_hosts")
    if not isinstance(hosts, list) or doc.get("generators") or not directory.is_dir():
        return
    runs = {str(run.get("name") or ""): run for run in _documents_in(directory)}
    doc["generators"] = [
        {"host": host, "session": runs.get(generator_name(str(doc.get("name") or ""), i, host))}
        for i, host in enumerate(hosts)
    ]


def _documents_in(directory: Path) -> Iterator[dict[str, Any]]:
    """The finished runs in `directory` and those whose journal nobody holds any more."""
    for path in sorted(directory.iterdir()):
        if path.suffix == SESSION_SUFFIX:
            try:
                yield dict(parse(path.read_bytes(), str(path)).doc)
            except (SessionError, OSError):
                continue
        elif path.suffix == JOURNAL_SUFFIX and is_abandoned(path):
            yield document_from_journal(path)


def amend(path: Path, changes: Mapping[str, Any]) -> None:
    """Add or replace top-level keys of a finished session file, atomically."""
    session = load(path)
    try:
        write_atomic(path, Session({**session.doc, **changes}).to_json())
    except OSError as exc:
        raise store_error(path.parent, exc, f"{path.name} is not changed") from None


def save_imported(
    result: Result,
    text: str,
    *,
    source: Path,
    url: str | None = None,
    connections: int | None = None,
    name: str = "",
    tags: list[str] | None = None,
    directory: Path | None = None,
) -> Path:
    """A session for output a tool printed elsewhere, of `url` over `connections` where the
    output names them: no series, host facts or other spec."""
    now = datetime.now().astimezone()
    spec = RunSpec(urls=(url,) if url else (), tool=result.tool)
    draft = SessionDraft(
        id=new_session_id(now, result.tool, name or source.stem),
        spec=spec if connections is None else replace(spec, connections=connections),
        argv=[],
        tool={"name": result.tool, "path": None, "version": result.tool_version},
        host={},
        started_at=now.isoformat(),
        name=name or source.name,
        tags=list(tags or []),
    )
    doc = {
        **draft.header(),
        "status": "imported",
        "source": str(source),
        "series": [],
        "samples": [],
        "warnings": [],
        "raw": {"stdout": text, "stderr": ""},
        "result": result.to_dict(),
    }
    target = session_path(directory or sessions_dir(), draft.id)
    try:
        write_atomic(target, Session(doc).to_json())
    except OSError as exc:
        raise store_error(target.parent, exc, "the import is not saved") from None
    return target


@dataclass(frozen=True)
class Recovery:
    """What `recover` made of the journals nobody holds: the sessions written, and the
    journals left as they are with why (damaged, or a store too full to write in)."""

    recovered: list[Path]
    left: list[tuple[Path, str]]


def recover(directory: Path) -> Recovery:
    """Finish the journals of runs that died (crash, kill -9, lost SSH session). One that
    cannot be finished is left for a later try and said, never stopping the others; an empty
    one (its run died before writing a byte) holds nothing and is removed."""
    recovered: list[Path] = []
    left: list[tuple[Path, str]] = []
    if not directory.is_dir():
        return Recovery(recovered, left)
    for journal in sorted(directory.glob(f"*{JOURNAL_SUFFIX}")):
        if not is_abandoned(journal):
            continue
        try:
            if journal.stat().st_size == 0:
                journal.unlink()
                continue
            recovered.append(finalize(journal))
        except SessionError as exc:
            left.append((journal, str(exc)))
        except OSError as exc:
            left.append((journal, str(store_error(directory, exc, "cannot recover the run"))))
    return Recovery(recovered, left)


def recover_abandoned(directory: Path) -> list[Path]:
    """The sessions `recover` wrote."""
    return recover(directory).recovered


def load(ref: str | Path, directory: Path | None = None) -> Session:
    """A session by any reference to a whole session (see `refs`)."""
    return load_path(resolve(ref, directory))


def select(ref: str | Path, directory: Path | None = None) -> refs.Selection:
    """A session, or one point of a sweep, by any reference (see `refs`)."""
    located = locate(ref, directory)
    return refs.Selection.of(load_path(located.path), located.point)


def load_path(path: Path) -> Session:
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise SessionError(f"{path}: cannot read: {exc.strerror}") from None
    return replace(parse(data, str(path)), path=path)


def resolve(ref: str | Path, directory: Path | None = None) -> Path:
    """The file of a reference to a whole session; a sweep point is refused (one line)."""
    located = locate(ref, directory)
    if located.point is not None:
        raise SessionError(
            f"{ref}: names point {located.point!r} of a sweep; this takes the whole session "
            f"({located.path.stem})"
        )
    return located.path


def locate(ref: str | Path, directory: Path | None = None) -> Located:
    """A session file and the sweep point a reference names: a path, an id or unique id
    prefix, `ID@POINT`, or `NAME@latest|best|baseline|-N[@POINT]` (see `refs`)."""
    directory = directory or sessions_dir()
    if isinstance(ref, Path) or Path(ref).expanduser().is_file():
        return Located(find(ref, directory))
    by_name = refs.named(ref)
    if by_name is not None:
        return _locate_named(by_name, directory)
    name, point = refs.split_ref(ref, lambda text: Path(text).expanduser().is_file())
    return Located(find(name, directory), point)


def _locate_named(ref: refs.Named, directory: Path) -> Located:
    if ref.which == refs.BASELINE:
        pin = refs.pinned(ref, directory)
        if ref.point is not None and pin.point is not None:
            raise SessionError(
                f"{ref.name}@{refs.BASELINE}@{ref.point}: the pin already names point {pin.point!r}"
            )
        path = Path(pin.file) if Path(pin.file).is_absolute() else directory / pin.file
        if not path.is_file():
            raise SessionError(
                f"{ref.name}@{refs.BASELINE}: the pinned session {pin.session} is gone "
                f"({path}); pin another with `tuibench baseline set {ref.name} REF`"
            )
        return Located(path, ref.point or pin.point)
    files = _session_files(directory)
    runs = refs.sessions_named(ref.name, files)
    names = () if runs else _names(files)
    return Located(refs.pick(ref, runs, names).path, ref.point)


def _session_files(directory: Path) -> list[Path]:
    return sorted(directory.glob(f"*{SESSION_SUFFIX}")) if directory.is_dir() else []


def _names(files: list[Path]) -> set[str]:
    """Every name in the store, to suggest one close to a name that is not there."""
    found = set()
    for path in files:
        try:
            found.add(parse(path.read_bytes(), str(path)).name)
        except (SessionError, OSError):
            continue
    return found - {""}


def find(ref: str | Path, directory: Path | None = None) -> Path:
    """A session file by path, or by id (or unique id prefix) in the store."""
    path = Path(ref).expanduser()
    if path.is_file():
        return path
    if path.suffix == SESSION_SUFFIX or len(path.parts) > 1:
        # A path, not an id: do not search the store for it.
        raise SessionError(f"{ref}: no such session file")
    directory = directory or sessions_dir()
    matches = sorted(directory.glob(f"{ref}*{SESSION_SUFFIX}")) if directory.is_dir() else []
    if len(matches) == 1:
        return matches[0]
    if len(matches) > 1:
        raise SessionError(f"{ref}: matches {len(matches)} sessions; give more of the id")
    raise SessionError(f"{ref}: no such session file or id in {directory}")


@dataclass(frozen=True)
class SessionEntry:
    path: Path
    session: Session | None
    error: str | None = None


def list_sessions(directory: Path | None = None) -> list[SessionEntry]:
    """Sessions in the store, newest first; unreadable files are listed with their error."""
    directory = directory or sessions_dir()
    left = dict(recover(directory).left)
    entries: list[SessionEntry] = []
    if not directory.is_dir():
        return entries
    files = sorted([*directory.glob(f"*{SESSION_SUFFIX}"), *left], key=by_id, reverse=True)
    for path in files:
        if path in left:
            entries.append(SessionEntry(path, None, left[path]))
            continue
        try:
            entries.append(SessionEntry(path, parse(path.read_bytes(), str(path))))
        except (SessionError, OSError) as exc:
            entries.append(SessionEntry(path, None, str(exc)))
    return entries


def delete(path: Path, directory: Path | None = None) -> None:
    """Remove a session file of the store; nothing outside the store is ever removed."""
    directory = directory or sessions_dir()
    # The parent is resolved, not the file: a link in the store is removed, not its target.
    target = path.expanduser().absolute()
    inside = target.parent.resolve() == directory.expanduser().resolve()
    if not inside or target.suffix != SESSION_SUFFIX:
        raise SessionError(f"{path}: not a session file in {directory}; not deleted")
    try:
        target.unlink()
    except FileNotFoundError:
        raise SessionError(f"{path}: no such session file") from None
    except OSError as exc:
        raise SessionError(f"{path}: cannot delete: {exc.strerror}") from None
