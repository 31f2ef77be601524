"""What a sweep view shows, folded from the sweep's events. Pure: no Textual, no clock, no I/O.

`apply` also sees every event of the going run (thousands of output lines a second): those
only go to that run's LiveState. The points' aggregates come with each ended run (the runner
computes them once, off the event loop, for its journal); when the sweep ends, its document's
own aggregates replace them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tui_bench.analysis.sweep_points import meets_slo
from tui_bench.analysis.thresholds import Threshold, parse_slo
from tui_bench.analysis.verdicts import Verdicts
from tui_bench.engine.events import Event
from tui_bench.engine.live_state import LiveState
from tui_bench.engine.sweep import (
    CoolingDown,
    SweepEvent,
    SweepExtended,
    SweepFinished,
    SweepRunFinished,
    SweepRunStarted,
    SweepStarted,
)
from tui_bench.errors import UsageError
from tui_bench.records.plan import Plan, PlannedPoint
from tui_bench.records.sweep_point import SweepPoint, SweepSummary
from tui_bench.runners.tools import tool_label
from tui_bench.storage.session import Session

StateEvent = Event | SweepEvent


@dataclass(frozen=True)
class SweepTitle:
    """What the sweep is about: its name, the tools and the URL every point runs on."""

    name: str
    tool_label: str
    target: str

    @classmethod
    def of_plan(cls, plan: Plan, name: str, tool_label: str) -> SweepTitle:
        return cls(name, tool_label, plan.target())

    @classmethod
    def of_session(cls, session: Session) -> SweepTitle:
        tools = [run.part("tool") for run in session.runs] or [session.part("tool")]
        labels = (tool_label(tool.get("name"), tool.get("version")) for tool in tools)
        label = ", ".join(dict.fromkeys(label for label in labels if label))
        return cls.of_plan(session.plan, session.name or session.id, label)


@dataclass(frozen=True)
class PointRow:
    """One point of the plan as the table and the charts show it. The figures are those of
    the point's completed runs (`n` of them); None until one has completed."""

    index: int
    name: str
    label: str | None
    values: Mapping[str, Any]
    done: int  # runs ended, whatever their status
    planned: int
    going: bool
    n: int
    rps: float | None
    rps_sd: float | None
    p50_s: float | None
    p99_s: float | None
    max_s: float | None
    error_rate: float | None
    server_cpu_pct: float | None
    meets_slo: bool | None  # None: no SLO, or nothing measured yet
    knee: bool
    verdict: str | None = None  # valid, suspect or invalid; None before a run ended


class SweepState:
    def __init__(
        self,
        plan: Plan,
        *,
        slo: Sequence[Threshold] = (),
        slo_text: str | None = None,
    ) -> None:
        self.plan = plan
        self.points: tuple[PlannedPoint, ...] = plan.points
        self.rounds = plan.repeat
        self.total = len(plan.order) or len(self.points) * self.rounds
        # A search (capacity) grows its plan as it goes: how many runs it makes is unknown.
        self.open_ended = plan.search is not None
        self.slo = tuple(slo)
        self.slo_text = slo_text
        self.version = 0
        # Bumped only by what the table shows (runs starting and ending, aggregates), and
        # by the aggregates alone: the charts are redrawn only then.
        self.points_version = 0
        self.summary_version = 0
        self.session_id: str | None = None
        self.going: SweepRunStarted | None = None
        # The run going, or the last one until the next starts.
        self.live: LiveState | None = None
        self.cooling_s: float | None = None
        self.eta_s: float | None = None
        self.last: SweepRunFinished | None = None
        self.done_by_point = [0] * len(self.points)
        self.summary: SweepSummary | None = None
        self.finished: SweepFinished | None = None

    @classmethod
    def of_session(cls, session: Session, path: Path) -> SweepState:
        """A saved sweep, as it ended."""
        text = session.plan.slo
        try:
            slo = parse_slo(text) if text else []
        except UsageError:
            slo = []  # not what this version reads: the table goes without SLO marks
        state = cls(session.plan, slo=slo, slo_text=text)
        verdicts = Verdicts.of_session(session)
        status = session.status or "interrupted"
        state.apply(SweepFinished(status, session.message, path, session, verdicts))
        return state

    def apply(self, event: StateEvent) -> None:
        if isinstance(event, SweepRunStarted):
            self.going = event
            self.open_ended = self.open_ended or event.total is None
            self.live = LiveState(event.point.spec)
            self.cooling_s = None
            self.eta_s = event.eta_s
            self.points_version += 1
        elif isinstance(event, SweepRunFinished):
            self._run_ended(event)
        elif isinstance(event, CoolingDown):
            self.cooling_s = event.seconds
        elif isinstance(event, SweepStarted):
            self.session_id = event.session_id
        elif isinstance(event, SweepExtended):
            self.open_ended = True
            self._extended(event.plan.record())
        elif isinstance(event, SweepFinished):
            self._ended(event)
        elif self.live is not None:
            self.live.apply(event)
        self.version += 1

    def _extended(self, plan: Plan) -> None:
        """A search's next step: its plan so far, the runs done kept."""
        self.plan = plan
        self.points = plan.points
        self.total = len(plan.order)
        self.done_by_point += [0] * (len(self.points) - len(self.done_by_point))
        self.points_version += 1

    def _run_ended(self, event: SweepRunFinished) -> None:
        self.going = None
        self.last = event
        self.eta_s = event.eta_s
        self.done_by_point[event.point.index] += 1
        self.summary = event.summary
        self.points_version += 1
        self.summary_version += 1

    def _ended(self, event: SweepFinished) -> None:
        self.finished = event
        self.going = None
        self.cooling_s = None
        self.eta_s = 0.0
        self.done_by_point = [0] * len(self.points)
        for entry in event.session.entries:
            self.done_by_point[entry.point] += 1
        self.summary = event.session.summary
        self.points_version += 1
        self.summary_version += 1

    # What a painter derives, at paint rate

    @property
    def running(self) -> bool:
        return self.finished is None

    @property
    def done(self) -> int:
        return sum(self.done_by_point)

    @property
    def status(self) -> str:
        if self.finished is not None:
            return self.finished.status
        if self.cooling_s is not None:
            return "cooling down"
        if self.going is not None:
            return "running"
        return "starting"

    @property
    def fraction(self) -> float:
        """Of the whole sweep: the runs ended, and the part of the going run done."""
        if self.finished is not None and self.finished.status == "completed":
            return 1.0
        going = self.live.whole_fraction if self.going and self.live else None
        return min(1.0, (self.done + (going or 0.0)) / max(self.total, 1))

    @property
    def eta_now(self) -> float | None:
        """Until the end of the sweep: as the runner foresaw at the start of the going run,
        less the time that run has gone since."""
        if self.eta_s is None or self.going is None or self.live is None:
            return self.eta_s
        return max(0.0, self.eta_s - self.live.elapsed_s)

    @property
    def knee(self) -> int | None:
        knee = self.summary.knee if self.summary else None
        return knee.point if knee else None

    def rows(self) -> list[PointRow]:
        aggregated = {p.index: p for p in self.summary.points} if self.summary else {}
        going = self.going.point.index if self.going else None
        knee = self.knee
        return [self._row(point, aggregated.get(point.index), going, knee) for point in self.points]

    def _row(
        self,
        point: PlannedPoint,
        summary: SweepPoint | None,
        going: int | None,
        knee: int | None,
    ) -> PointRow:
        index = point.index
        measured = summary is not None and summary.n > 0
        values = summary.figures() if summary is not None and measured else {}
        return PointRow(
            index=index,
            name=point.name or "",
            label=point.label,
            values=point.values,
            done=self.done_by_point[index],
            planned=self.rounds,
            going=index == going,
            n=summary.n if summary else 0,
            rps=values.get("rps"),
            rps_sd=summary.rps.sd if summary and measured else None,
            p50_s=values.get("p50_s"),
            p99_s=values.get("p99_s"),
            max_s=values.get("max_s"),
            error_rate=values.get("error_rate"),
            server_cpu_pct=summary.server_cpu_pct.mean if summary and measured else None,
            meets_slo=meets_slo(summary, self.slo) if summary and measured else None,
            knee=index == knee,
            verdict=summary.verdict if summary else None,
        )
