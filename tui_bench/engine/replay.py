"""A saved session as the stream of events its run produced, to be played back. Pure: no
Textual, no clock; the replay screen owns the clock and asks for the state at a position.

The session keeps when each second closed, when each resource sample was taken and (since
`raw_times`) when each line of the tool's output came; it keeps no times for most warnings.
What has no time is placed where it is known to be complete: the output of an older session
and setup facts at the start, the run's verdicts at the end.
"""

from __future__ import annotations

import dataclasses
import gc
import re
from bisect import bisect_right
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from tui_bench.analysis.verdicts import Verdicts
from tui_bench.analysis.warnings import SAME_MACHINE
from tui_bench.engine.events import (
    Event,
    OutputLine,
    Progress,
    ResourcesSampled,
    RunFinished,
    RunStarted,
    SecondClosed,
    SegmentStarted,
)
from tui_bench.engine.generators import saved_views
from tui_bench.engine.live_state import LiveState
from tui_bench.errors import SessionError
from tui_bench.records.segment import Segment, gap_before
from tui_bench.records.warning import Warning
from tui_bench.sampling.samples import ResourceSample
from tui_bench.spec import RunSpec
from tui_bench.storage.session import Session
from tui_bench.storage.store import SESSION_SUFFIX

# Known before the tool starts, so a live run shows them at once: so does the replay.
SETUP_WARNINGS = frozenset({SAME_MACHINE.code})
SAMPLE_FIELDS = tuple(f.name for f in dataclasses.fields(ResourceSample))


@dataclass(frozen=True)
class Timeline:
    """The events of one run in time order; `times[i]` is when `events[i]` happened."""

    spec: RunSpec
    times: tuple[float, ...]
    events: tuple[Event, ...]
    length_s: float
    # Whether output lines are at the time they came (else all at the start).
    lines_timed: bool = False

    @property
    def playable(self) -> bool:
        return self.length_s > 0

    def clamp(self, t: float) -> float:
        return min(max(t, 0.0), self.length_s)

    def count_until(self, t: float) -> int:
        """How many events happened at or before `t`."""
        return bisect_right(self.times, t)

    def tick(self, t: float) -> Progress:
        """Where the playback is: the elapsed time and the progress bar follow the position."""
        return Progress(t, t / self.length_s if self.length_s else 1.0, None, None)

    def state_at(self, t: float) -> LiveState:
        """A fresh state with every event up to `t` folded in."""
        state = LiveState(self.spec)
        t = self.clamp(t)
        self.fold(state, 0, self.count_until(t))
        state.apply(self.tick(t))
        return state

    def fold(self, state: LiveState, start: int, end: int) -> None:
        for event in self.events[start:end]:
            state.apply(event)


class Player:
    """A position in a timeline and the state there. Moving forward folds only the events in
    between; moving back before an event already folded rebuilds from the start."""

    def __init__(self, timeline: Timeline) -> None:
        self.timeline = timeline
        self.position = 0.0
        self.state = timeline.state_at(0.0)
        self._folded = timeline.count_until(0.0)

    @property
    def at_end(self) -> bool:
        return self.position >= self.timeline.length_s

    def seek(self, t: float) -> None:
        timeline = self.timeline
        t = timeline.clamp(t)
        if t == self.position:
            return
        end = timeline.count_until(t)
        if end < self._folded:
            self.state = LiveState(timeline.spec)
            self._folded = 0
        timeline.fold(self.state, self._folded, end)
        self._folded = end
        self.state.apply(timeline.tick(t))
        self.position = t


def timeline(session: Session, path: Path | None = None) -> Timeline:
    """The session's run as events; SessionError (one line) when a part of it is unreadable.

    `path` is where the session was read from, shown in the summary; without it, its file name.
    """
    # A day's session makes some 100,000 rows and events at once, none of them garbage: the
    # collector's passes over them were a third of the time it took to open.
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _timeline(session, path)
    finally:
        if collecting:
            gc.enable()


def _timeline(session: Session, path: Path | None) -> Timeline:
    try:
        spec = session.spec
    except (TypeError, ValueError):
        raise _damaged(session, "spec") from None
    rows = session.series
    kept = session.samples
    if kept is None:
        raise _damaged(session, "samples")
    samples = [_sample(session, s) for s in kept]
    warnings = [_warning(session, w) for w in _items(session, "warnings")]
    row_times = [_row_time(session, row) for row in rows]
    output, lines_timed = _output(session, spec.tool)
    recorded = _seconds_between(session.started_at, session.ended_at)
    length = max([recorded or 0.0, *(s.t_s for s in samples), *(t for t, _ in output)])
    if rows:
        length = max(length, min(max(row_times) + 1, recorded or float("inf")))

    argv = session.argv
    # The tool's pid is not kept: it meant something only while the run went.
    server = session.part("server") or None
    timed: list[tuple[float, Event]] = [(0.0, RunStarted(session.id, argv, 0, server))]
    timed += output
    timed += [(0.0, w) for w in warnings if w.code in SETUP_WARNINGS]
    generators = saved_views(session)
    if generators is not None:
        timed.append((0.0, generators))
    # A second closes at its end; the last, partial one when the run ended.
    timed += [
        (t + 1.0 if t + 1.0 < length else length, SecondClosed(row))
        for t, row in zip(row_times, rows, strict=True)
    ]
    timed += [(max(s.t_s, 0.0), ResourcesSampled(s)) for s in samples]
    timed += _segments(session.segments)
    timed += [(length, w) for w in warnings if w.code not in SETUP_WARNINGS]
    finished = RunFinished(
        session.status or "interrupted",
        session.exit_code,
        session.result,
        path or session.path or Path(session.id + SESSION_SUFFIX),
        session.message or None,
        session.validity,
        session.resources,
        Verdicts.of_session(session),
        session.generators,
        warnings=tuple(warnings),
        session=session,
    )
    timed.append((length, finished))
    # Stable: events of the same moment keep the order they were listed in above.
    timed.sort(key=lambda pair: pair[0])
    return Timeline(
        spec,
        tuple(t for t, _ in timed),
        tuple(event for _, event in timed),
        length,
        lines_timed=lines_timed,
    )


def _segments(segments: Sequence[Segment]) -> list[tuple[float, Event]]:
    """Each segment as it began, its gap after the one before (none after a pause)."""
    return [
        (
            segment.start_s,
            SegmentStarted(
                index=index,
                start_s=segment.start_s,
                target_rps=segment.target_rps,
                connections=segment.connections,
                cause=segment.cause,
                paused=segment.paused,
                gap_s=gap_before(before, segment),
            ),
        )
        for index, (before, segment) in enumerate(zip([None, *segments], segments, strict=False))
    ]


def _output(session: Session, tool: str) -> tuple[list[tuple[float, OutputLine]], bool]:
    """The tool's lines, stdout's then stderr's, each at the time it came when the session
    knows it (then True), else at the start."""
    raw = session.part("raw")
    streams = {s: _lines(raw[s]) for s in ("stdout", "stderr") if isinstance(raw.get(s), str)}
    times = _line_times(session.part("raw_times"), streams)
    timed = [
        (t, OutputLine.read(tool, stream, line))
        for stream, lines in streams.items()
        for t, line in zip(
            times[stream] if times is not None else [0.0] * len(lines), lines, strict=True
        )
    ]
    return timed, times is not None


def _lines(text: str) -> list[str]:
    """The lines as the run read them: cut at newlines only, each keeping its own."""
    return re.findall(r"[^\n]*\n|[^\n]+\Z", text)


def _line_times(kept: Any, streams: Mapping[str, list[str]]) -> dict[str, list[float]] | None:
    """When each line of each stream came, or None when the session does not say: it is older
    than `raw_times`, or they do not match its lines (then none is trusted)."""
    if not isinstance(kept, Mapping):
        return None
    times: dict[str, list[float]] = {}
    for stream, lines in streams.items():
        ts = kept.get(stream)
        if not isinstance(ts, list) or len(ts) != len(lines):
            return None
        if not all(isinstance(t, int | float) for t in ts) or ts != sorted(ts):
            return None
        times[stream] = [max(float(t), 0.0) for t in ts]
    return times


def _items(session: Session, key: str) -> Sequence[Any]:
    items = session.listed(key)
    if items is None:
        raise _damaged(session, key)
    return items


def _damaged(session: Session, key: str) -> SessionError:
    return SessionError(f"session {session.id} is damaged (bad {key!r})")


def _row_time(session: Session, row: Mapping[str, Any]) -> float:
    t = row.get("t_s") if isinstance(row, Mapping) else None
    if not isinstance(t, int | float):
        raise _damaged(session, "series")
    return float(t)


def _sample(session: Session, data: Any) -> ResourceSample:
    try:
        # Only the fields this version knows (a newer writer may add some); one a session
        # keeps as columns is absent where it was unknown.
        known = {name: data.get(name) for name in SAMPLE_FIELDS}
        known["system_cpu_pct"] = tuple(float(v) for v in known.get("system_cpu_pct") or ())
        sample = ResourceSample(**known)
    except (TypeError, ValueError, KeyError):
        raise _damaged(session, "samples") from None
    if not isinstance(sample.t_s, int | float):
        raise _damaged(session, "samples")
    return sample


def _warning(session: Session, data: Any) -> Warning:
    if not isinstance(data, Mapping) or not isinstance(data.get("message"), str):
        raise _damaged(session, "warnings")
    return Warning(str(data.get("code") or ""), data["message"])


def _seconds_between(start: Any, end: Any) -> float | None:
    try:
        seconds = (datetime.fromisoformat(end) - datetime.fromisoformat(start)).total_seconds()
    except (TypeError, ValueError):
        return None
    return max(seconds, 0.0)


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None
