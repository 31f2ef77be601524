"""The history of one benchmark: every saved session of that name over time, the set-up
changes between them and the runs where the level of req/s or p99 changed. Pure, over what
the store's index keeps (`storage.index`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from tui_bench.analysis.change_points import ALPHA, PENALTY_PER_LOG_N, find_change_points
from tui_bench.errors import UsageError
from tui_bench.records.verdict import VERDICTS
from tui_bench.storage.index import Indexed
from tui_bench.storage.refs import did_you_mean

# The metrics of a history, by their key in a point's figures, and how they are written.
METRICS: Mapping[str, str] = {"rps": "req/s", "p99_s": "p99"}
METHOD = {
    "name": "PELT",
    "library": "ruptures",
    "on": "log of each value",
    "penalty": f"{PENALTY_PER_LOG_N:g} × σ² × log n",
    "test": f"Welch's t-test between the levels, p ≤ {ALPHA:g}",
}
# The set-up a history compares between consecutive runs, by the name it is shown under.
SETUP_KEYS: Mapping[str, str] = {
    "tool": "tool",
    "version": "version",
    "urls": "url",
    "connections": "c",
    "streams": "m",
    "threads": "t",
    "requests": "n",
    "duration_s": "d",
    "warm_up_s": "warm-up",
    "h1": "h1",
    "keepalive": "keepalive",
    "headers": "headers",
    "compress": "compress",
    "vary": "vary",
    "repeat": "repeat",
}


@dataclass(frozen=True)
class PointFigures:
    """One point's figures in one run: the run itself, or a sweep point (the median of its
    runs, with their range)."""

    name: str
    rps: float | None
    rps_min: float | None
    rps_max: float | None
    p99_s: float | None
    p99_s_min: float | None
    p99_s_max: float | None
    verdict: str | None

    @property
    def counts(self) -> bool:
        """Whether the trend and the change points use it: measured, and not invalid."""
        return self.verdict != "invalid"

    def value(self, metric: str) -> float | None:
        value: float | None = getattr(self, metric)
        return value

    def spread(self, metric: str) -> tuple[float | None, float | None]:
        """The range of the point's runs (None for a single run)."""
        return self.value(f"{metric}_min"), self.value(f"{metric}_max")

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> PointFigures:
        def number(key: str) -> float | None:
            value = data.get(key)
            return None if value is None else float(value)

        verdict = data.get("verdict")
        return cls(
            name=str(data.get("name") or ""),
            rps=number("rps"),
            rps_min=number("rps_min"),
            rps_max=number("rps_max"),
            p99_s=number("p99_s"),
            p99_s_min=number("p99_s_min"),
            p99_s_max=number("p99_s_max"),
            verdict=None if verdict is None else str(verdict),
        )


@dataclass(frozen=True)
class HistoryRun:
    """One saved session of the benchmark."""

    id: str
    path: Path
    started: datetime | None
    kind: str
    status: str
    points: tuple[PointFigures, ...]
    # What differs from the run before, as `c 10→32`; empty for the first run.
    changes: tuple[str, ...]

    @property
    def verdict(self) -> str | None:
        """The worst verdict of its points; None when none was judged."""
        judged = [p.verdict for p in self.points if p.verdict in VERDICTS]
        return max(judged, key=VERDICTS.index) if judged else None

    @property
    def invalid(self) -> bool:
        """Every point of it is invalid (a sweep with one good point still counts)."""
        return bool(self.points) and not any(p.counts for p in self.points)

    def point(self, name: str) -> PointFigures | None:
        return next((p for p in self.points if p.name == name), None)


@dataclass(frozen=True)
class Step:
    """The level of `metric` at `point` changed between two runs of the history."""

    metric: str
    point: str
    # Positions in History.runs of the last run of the old level and the first of the new.
    before_run: int
    after_run: int
    before: float
    after: float
    runs_before: int
    runs_after: int
    step_pct: float
    p_value: float


@dataclass(frozen=True)
class History:
    name: str
    runs: tuple[HistoryRun, ...]  # oldest first
    steps: tuple[Step, ...]

    @property
    def point_names(self) -> list[str]:
        """Every point name in the order it first appears ("" for plain runs)."""
        return list(dict.fromkeys(p.name for run in self.runs for p in run.points))

    def series(self, point: str, metric: str) -> list[tuple[int, float]]:
        """(position in `runs`, value) of the runs whose `point` counts and has a value."""
        out = []
        for i, run in enumerate(self.runs):
            figures = run.point(point)
            value = figures.value(metric) if figures and figures.counts else None
            if value is not None:
                out.append((i, value))
        return out

    def to_dict(self) -> dict[str, Any]:
        """What `tuibench history NAME --json` prints."""
        return {
            "name": self.name,
            "method": METHOD,
            "runs": [
                {
                    "id": run.id,
                    "path": str(run.path),
                    "started_at": run.started.isoformat() if run.started else None,
                    "kind": run.kind,
                    "status": run.status,
                    "validity": run.verdict,
                    "setup_changes": list(run.changes),
                    "points": [vars(p) for p in run.points],
                }
                for run in self.runs
            ],
            "change_points": [
                {
                    "metric": step.metric,
                    "point": step.point,
                    "before_id": self.runs[step.before_run].id,
                    "after_id": self.runs[step.after_run].id,
                    "before": step.before,
                    "after": step.after,
                    "step_pct": step.step_pct,
                    "runs_before": step.runs_before,
                    "runs_after": step.runs_after,
                    "p_value": step.p_value,
                }
                for step in self.steps
            ],
        }


def history_of(
    name: str, entries: Iterable[Indexed], known_names: Callable[[], Iterable[str]] | None = None
) -> History:
    """The history of benchmark `name` from the store's entries; UsageError when no
    session has that name, with the names it may stand for among `known_names()` (asked
    only then; by default the entries')."""
    entries = list(entries)
    mine = [e for e in entries if e.head is not None and e.head.get("name") == name]
    if not mine:
        known = known_names() if known_names else [e.row.name for e in entries]
        hint = did_you_mean(name, known) or " (tuibench sessions lists them)"
        raise UsageError(f"no saved session is named {name!r}{hint}")
    rows = sorted(
        ((entry.row, entry) for entry in mine),
        key=lambda pair: (pair[0].started is None, pair[0].started, pair[0].id),
    )
    runs: list[HistoryRun] = []
    previous: Mapping[str, Any] | None = None
    for row, entry in rows:
        facts = entry.facts or {}
        setup = facts.get("setup") or {}
        runs.append(
            HistoryRun(
                id=row.id,
                path=row.path,
                started=row.started,
                kind=row.kind,
                status=row.status,
                points=tuple(PointFigures.from_dict(p) for p in facts.get("points") or ()),
                changes=tuple(setup_changes(previous, setup)) if previous is not None else (),
            )
        )
        previous = setup
    history = History(name, tuple(runs), ())
    return History(name, history.runs, tuple(_steps(history)))


def setup_changes(before: Mapping[str, Any], after: Mapping[str, Any]) -> list[str]:
    """What differs between two set-ups, as `c 10→32`."""
    return [
        f"{label} {_shown(before.get(key))}→{_shown(after.get(key))}"
        for key, label in SETUP_KEYS.items()
        if before.get(key) != after.get(key)
    ]


def _shown(value: Any) -> str:
    if value is None:
        return "–"
    if isinstance(value, list | tuple):
        return ",".join(str(v) for v in value) or "–"
    return f"{value:g}" if isinstance(value, float) else str(value)


def _steps(history: History) -> list[Step]:
    steps: list[Step] = []
    for point in history.point_names:
        for metric in METRICS:
            series: Sequence[tuple[int, float]] = history.series(point, metric)
            for change in find_change_points([value for _, value in series]):
                steps.append(
                    Step(
                        metric=metric,
                        point=point,
                        before_run=series[change.index - 1][0],
                        after_run=series[change.index][0],
                        before=change.before,
                        after=change.after,
                        runs_before=change.runs_before,
                        runs_after=change.runs_after,
                        step_pct=change.step_pct,
                        p_value=change.p_value,
                    )
                )
    steps.sort(key=lambda s: (s.after_run, s.point, s.metric))
    return steps
