"""References to saved sessions, as every command that takes a session reads them.

A reference is one of:

- a session file, an id or a unique id prefix: `20261125-101500-123-h2load-api`;
- a point of a sweep: `ID@c=200` (its name as the sweep prints it) or `ID@2` (its number from
  1);
- a benchmark's run by its `--name`: `NAME@latest` (the newest accepted), `NAME@-2` (the one
  before the newest, `NAME@-1` being the newest), `NAME@best` (the most req/s among its
  valid sessions whose gate passed) or
  `NAME@baseline` (the one pinned with `tuibench baseline set`), each optionally followed by
  `@POINT` for a sweep: `NAME@latest@c=200`.

The runs of a name are ordered by when they started. `best` compares the headline req/s that
`tuibench sessions` lists (a run's own; a sweep's knee, else its best point that is not
invalid) and only among sessions whose verdict is valid and whose baseline gate passed: a
suspect, invalid, refused or regressed run is never picked as the best. `latest` is the
newest session that is not invalid and did not fail its baseline gate (refused, or a
regression), so that `--baseline NAME@latest` never builds on a run that was refused; `-N`
picks by position whatever the verdict, and whoever uses the session (compare, the baseline
gate) says when it is not valid.

Pins live beside the sessions in `pins/baselines.json`, written atomically: a pin records
the session (file and id) and point that the reference named when it was set, so
`NAME@baseline` keeps meaning that run after newer ones are saved.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import Any

import orjson

from tui_bench.errors import SessionError, UsageError
from tui_bench.storage.atomic import store_error, write_atomic
from tui_bench.storage.layout import instant
from tui_bench.storage.session import Session
from tui_bench.storage.session_file import parse
from tui_bench.storage.sweep_doc import (
    best_point,
    narrowed,
    point_index,
    point_refs,
)

LATEST, BEST, BASELINE = "latest", "best", "baseline"
_BACK = re.compile(r"-([1-9][0-9]*)")
PINS = Path("pins") / "baselines.json"
PINS_SCHEMA = "tuibench.baselines"


@dataclass(frozen=True)
class Located:
    """Where a reference leads: a session file, and the sweep point it names (or None)."""

    path: Path
    point: str | None = None


@dataclass(frozen=True)
class Named:
    """`NAME@WHICH[@POINT]`: `which` is latest, best, baseline or -N."""

    name: str
    which: str
    point: str | None = None


@dataclass(frozen=True)
class Selection:
    """What a reference names, loaded: a whole session, or point `point` (its plan index)
    of a sweep. `export`, `replay` and `plot` read a point through it."""

    session: Session
    point: int | None = None

    @classmethod
    def of(cls, session: Session, point: str | None) -> Selection:
        """UsageError (one line) for a point a single run or this sweep has not."""
        if point is None:
            return cls(session)
        if not session.is_sweep:
            raise UsageError(f"{session.id} is a single run: it has no point {point!r}")
        return cls(session, point_index(session, point))

    @property
    def ref(self) -> str:
        """`ID@POINT` for a point (its name, or its number from 1), else the id."""
        if self.point is None:
            return self.session.id
        return f"{self.session.id}@{point_refs(self.session)[self.point]}"

    def document(self) -> Session:
        """The whole session, or the sweep as if it held the point alone (its runs, its
        summary: sweep_doc.narrowed)."""
        if self.point is None:
            return self.session
        return replace(self.session, doc=narrowed(self.session.doc, self.point))

    def run(self) -> tuple[Session, int]:
        """The run to replay or draw, and how many runs the point has: a session itself
        (1); a point's first run. UsageError when the point has not run."""
        if self.point is None:
            return self.session, 1
        entries = self.session.point_entries(self.point)
        if not entries:
            raise UsageError(f"{self.ref}: the point has no run (the sweep stopped before it)")
        return entries[0].session, len(entries)


def is_selector(text: str) -> bool:
    return text in (LATEST, BEST, BASELINE) or _BACK.fullmatch(text) is not None


def named(ref: str) -> Named | None:
    """The reference as `NAME@WHICH[@POINT]`, or None when no part after an `@` is a
    selector. A point named like a selector (`--label latest=...`) is reached by number."""
    parts = ref.split("@")
    for i in range(1, len(parts)):
        if parts[i - 1] and is_selector(parts[i]):
            rest = "@".join(parts[i + 1 :])
            return Named("@".join(parts[:i]), parts[i], rest or None)
    return None


def split_ref(ref: str, is_file: Callable[[str], bool]) -> tuple[str, str | None]:
    """`ID@POINT` -> (ID, POINT); a plain reference has no point.

    A path may hold an `@` of its own, and a point's name may too (`url=http://u@host/`):
    a reference that names a file is whole; else it splits at the first `@` whose left part
    names a file; else at the first `@` (a session id never holds one)."""
    if "@" not in ref or is_file(ref):
        return ref, None
    at = [i for i, char in enumerate(ref) if char == "@"]
    cut = next((i for i in at if is_file(ref[:i])), at[0])
    return ref[:cut], ref[cut + 1 :]


# The runs of a name


@dataclass(frozen=True)
class Candidate:
    """One saved session of a name, with what picking among them reads."""

    path: Path
    id: str
    started: datetime | None
    rps: float | None
    verdict: str | None
    # Its baseline gate refused it or found a regression.
    baseline_failed: bool = False

    @property
    def accepted(self) -> bool:
        """Whether it may stand for its name's latest: not invalid, its gate passed."""
        return self.verdict != "invalid" and not self.baseline_failed


def candidate(path: Path, session: Session) -> Candidate:
    rps, verdict = headline(session)
    started = instant(session.doc.get("started_at"))
    return Candidate(path, session.id, started, rps, verdict, baseline_failed(session.doc))


def baseline_failed(doc: Mapping[str, Any]) -> bool:
    """Whether its baseline gate refused it or found a regression."""
    baseline = doc.get("baseline")
    if not isinstance(baseline, Mapping):
        return False
    return bool(baseline.get("failed")) or bool(baseline.get("refused"))


def headline(session: Session) -> tuple[float | None, str | None]:
    """The req/s a session is listed and ranked by, and the verdict on it: a run's own; a
    sweep's best point's (its knee, else the most req/s of the points not invalid)."""
    if session.is_sweep:
        point = best_point(session)
        if point is None:
            return None, None
        return point.rps_figure, point.verdict
    result = session.result
    validity = session.validity
    return (result.rps if result else None), (validity.verdict if validity else None)


def sessions_named(name: str, files: Iterable[Path]) -> list[Candidate]:
    """The readable sessions saved under `name`, oldest first (unknown start times first)."""
    # The name as the file holds it: a file without it cannot be one of them, and is not
    # parsed at all.
    needle = orjson.dumps(name)
    found = []
    for path in files:
        try:
            data = path.read_bytes()
            if needle not in data:
                continue
            session = parse(data, str(path))
        except (SessionError, OSError):
            continue
        if session.name == name:
            found.append(candidate(path, session))
    return sorted(found, key=_order)


def _order(c: Candidate) -> tuple[bool, datetime | str, str]:
    return (c.started is not None, c.started or "", c.id)


def did_you_mean(name: str, known: Iterable[str]) -> str:
    """`; did you mean a, b?` with up to three of `known` that `name` may stand for: those it
    begins (a name cut short), then those spelt alike; empty when none is near."""
    names = sorted(set(known) - {"", name})
    begun = [n for n in names if n.startswith(name)]
    near = list(dict.fromkeys([*begun, *difflib.get_close_matches(name, names, n=3)]))[:3]
    return f"; did you mean {', '.join(near)}?" if near else ""


def pick(ref: Named, runs: list[Candidate], known_names: Iterable[str] = ()) -> Candidate:
    """The session `ref` names among `runs` (its name's, oldest first); SessionError in one
    line when there is none."""
    text = f"{ref.name}@{ref.which}"
    if not runs:
        hint = did_you_mean(ref.name, known_names) or " (names are set with --name)"
        raise SessionError(f"{text}: no saved session is named {ref.name!r}{hint}")
    if ref.which == BEST:
        valid = [c for c in runs if c.accepted and c.verdict == "valid" and c.rps is not None]
        if not valid:
            raise SessionError(
                f"{text}: none of the {_count(len(runs))} named {ref.name!r} is valid with "
                f"its gate passed ({_verdicts(runs)}); {ref.name}@-1 names the newest "
                "whatever its verdict"
            )
        # The newest of equals: max keeps the first of a tie, so go newest first.
        return max(reversed(valid), key=lambda c: c.rps or 0.0)
    if ref.which == LATEST:
        accepted = [c for c in runs if c.accepted]
        if not accepted:
            raise SessionError(
                f"{text}: every one of the {_count(len(runs))} named {ref.name!r} is invalid "
                f"or failed its gate; {ref.name}@-1 names the newest whatever its verdict"
            )
        return accepted[-1]
    back = int(ref.which[1:])
    if back > len(runs):
        raise SessionError(
            f"{text}: {ref.name!r} has {_count(len(runs))}; -1 to -{len(runs)} name them"
        )
    return runs[-back]


def _count(n: int) -> str:
    return f"{n} session{'' if n == 1 else 's'}"


def _verdicts(runs: Iterable[Candidate]) -> str:
    counts: dict[str, int] = {}
    for c in runs:
        key = c.verdict or "not judged"
        if c.baseline_failed:
            key += " with its gate failed"
        counts[key] = counts.get(key, 0) + 1
    return ", ".join(f"{n} {verdict}" for verdict, n in sorted(counts.items()))


# Pinned baselines


@dataclass(frozen=True)
class Pin:
    """A pinned baseline: the session (its file in the store, or a path elsewhere, and its
    id) and point that `ref` named when the pin was set."""

    name: str
    session: str
    file: str
    point: str | None
    ref: str
    pinned_at: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "session": self.session,
            "file": self.file,
            "point": self.point,
            "ref": self.ref,
            "pinned_at": self.pinned_at,
        }

    @classmethod
    def from_dict(cls, name: str, data: Mapping[str, Any]) -> Pin:
        return cls(
            name,
            str(data["session"]),
            str(data["file"]),
            None if data.get("point") is None else str(data["point"]),
            str(data.get("ref") or ""),
            str(data.get("pinned_at") or ""),
        )

    @property
    def label(self) -> str:
        return f"{self.session}@{self.point}" if self.point else self.session


def read_pins(directory: Path) -> dict[str, Pin]:
    path = directory / PINS
    try:
        doc = orjson.loads(path.read_bytes())
    except FileNotFoundError:
        return {}
    except OSError as exc:
        raise SessionError(f"{path}: cannot read: {exc.strerror}") from None
    except orjson.JSONDecodeError as exc:
        raise SessionError(f"{path}: not a baselines file (corrupt JSON: {exc.msg})") from None
    try:
        if doc.get("schema") != PINS_SCHEMA:
            raise TypeError
        return {name: Pin.from_dict(name, pin) for name, pin in doc["pins"].items()}
    except (AttributeError, KeyError, TypeError):
        raise SessionError(f"{path}: not a tuibench baselines file") from None


def write_pin(directory: Path, pin: Pin) -> Path:
    """Add or replace the pin of `pin.name`, atomically (the others are kept)."""
    pins = read_pins(directory) | {pin.name: pin}
    path = directory / PINS
    doc = {
        "schema": PINS_SCHEMA,
        "version": 1,
        "pins": {name: p.to_dict() for name, p in sorted(pins.items())},
    }
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, orjson.dumps(doc, option=orjson.OPT_INDENT_2))
    except OSError as exc:
        raise store_error(directory, exc, f"the baseline of {pin.name} is not pinned") from None
    return path


def pinned(ref: Named, directory: Path) -> Pin:
    pin = read_pins(directory).get(ref.name)
    if pin is None:
        raise SessionError(
            f"{ref.name}@{BASELINE}: no baseline is pinned for {ref.name!r}; "
            f"pin one with `tuibench baseline set {ref.name} REF`"
        )
    return pin


def pin_file(directory: Path, path: Path) -> str:
    """How a pin records its file: the name alone inside the store (a moved store keeps
    its pins), the absolute path elsewhere."""
    absolute = path.expanduser().absolute()
    inside = absolute.parent.resolve() == directory.expanduser().resolve()
    return absolute.name if inside else str(absolute)
