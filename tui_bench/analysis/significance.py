"""Two sides compared run by run: the statistics behind `tuibench compare --json` and the
compare screen's verdicts.

A side is a single run, or one point of a sweep with its repeated runs. The run is the unit:
each run gives one value per metric, and the sides' values are compared with `stats`. One
metric is primary (req/s unless the user gates on another): the decision rests on it, so it
is tested alone at alpha and stays decidable from MIN_RUNS runs a side. The others are
secondary, tested as one family whose p-values are adjusted among themselves (Holm), so
that among them too a false "better"/"worse" stays under alpha.

`stats` imports scipy, which takes most of a second: it is imported only when a report is
computed, so resolving sides (and opening the compare screen) stays quick.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from statistics import median
from typing import TYPE_CHECKING, Any

from tui_bench.analysis.compare import (
    METRICS,
    UNSET,
    Difference,
    Metric,
    MetricDelta,
    metric_delta,
    session_title,
    setup_differences,
)
from tui_bench.analysis.names import DEFAULT_PRIMARY, TESTED
from tui_bench.analysis.run_counts import MIN_RUNS, can_reach, fewest_runs, smallest_p
from tui_bench.errors import UsageError
from tui_bench.records.sweep_point import SweepPoint
from tui_bench.records.verdict import Validity
from tui_bench.storage import sweep_doc
from tui_bench.storage.session import Session
from tui_bench.validity import of_point

if TYPE_CHECKING:
    from tui_bench.analysis.stats import Comparison

FAMILY = tuple(m for m in METRICS if m.name in TESTED)
_BY_NAME = {m.name: m for m in METRICS}


@dataclass(frozen=True)
class Side:
    """The runs that stand for one side of a comparison.

    `session` is the file: a single run or a sweep. `point` is the sweep point's name (None
    for a single run and for the one point of a plain `--repeat N`). `runs` are the
    completed runs of the side, the units of the statistics; `left_out` counts the point's
    runs that did not complete. `shown` is the run whose series and set-up stand for the
    side: the run itself, or the point's first completed run.
    """

    session: Session
    point: str | None
    runs: tuple[Session, ...]
    shown: Session
    left_out: int = 0

    @property
    def is_point(self) -> bool:
        return self.session.is_sweep

    @property
    def label(self) -> str:
        """How the command line names the side: `ID` or `ID@POINT`."""
        return f"{self.session.id}@{self.point}" if self.point else self.session.id

    @property
    def runs_label(self) -> str:
        """`1 run`, `10 runs`, `8 runs, 2 left out`."""
        text = f"{len(self.runs)} run{'' if len(self.runs) == 1 else 's'}"
        return f"{text}, {self.left_out} left out" if self.left_out else text

    def describe(self) -> dict[str, Any]:
        spec = self.shown.spec
        return {
            "session": self.session.id,
            "kind": self.session.kind,
            "name": self.session.name,
            "path": str(self.session.path) if self.session.path else None,
            "point": self.point,
            "runs": len(self.runs),
            "left_out": self.left_out,
            "tool": spec.tool,
            "urls": list(spec.urls),
            "validity": self.validity().to_dict(),
        }

    def validity(self) -> Validity:
        """The side's verdict: its run's, or for a point the worst of its runs' (those that
        did not complete make it suspect)."""
        judged = [v for v in (run.validity for run in self.runs) if v is not None]
        if not self.is_point:
            return judged[0] if judged else Validity("valid")
        return of_point(judged, len(self.runs) + self.left_out)

    @property
    def summary(self) -> SweepPoint | None:
        """A point's aggregate as the sweep keeps it; None for a single run."""
        if not self.is_point:
            return None
        names = sweep_doc.point_refs(self.session)
        index = names.index(self.point) if self.point in names else 0
        return self.session.summary.point(index)

    @property
    def duration_s(self) -> float | None:
        """How long its runs measured (the median of them)."""
        found = [r.result.duration_s for r in self.runs if r.result and r.result.duration_s]
        return median(found) if found else None


def side_of(session: Session, point: str | None = None) -> Side:
    """The side `session` stands for; for a sweep of several points, `point` (its name as
    the sweep prints it, or its number from 1) picks one. UsageError names the choices."""
    if not session.is_sweep:
        if point is not None:
            raise UsageError(f"{session.id} is a single run: it has no point {point!r}")
        return Side(session, None, (session,), session)
    points = session.plan.names()
    index = sweep_doc.point_index(session, point)
    of_point = [entry.session for entry in session.point_entries(index)]
    runs = tuple(run for run in of_point if run.status == "completed")
    # A point none of whose runs completed still has a set-up to show.
    shown = runs[0] if runs else of_point[0] if of_point else session
    return Side(session, points[index] or None, runs, shown, len(of_point) - len(runs))


def point_refs(session: Session) -> list[str]:
    """How `ID@POINT` names each point of a sweep, in the plan's order: its name, or its
    number from 1 when it has none (the one point of a plain `--repeat N`). Empty for a
    single run."""
    return sweep_doc.point_refs(session) if session.is_sweep else []


def median_deltas(a: Side, b: Side) -> list[MetricDelta]:
    """Every catalogue metric that either side knows, between the medians of the sides'
    runs (a run's own value for a single run). Quick: no test, no scipy."""
    deltas = [metric_delta(m, median_of(m, a), median_of(m, b)) for m in METRICS]
    return [d for d in deltas if d.a is not None or d.b is not None]


def median_of(metric: Metric, side: Side) -> float | None:
    """The median of the side's runs' values (a run's own value for a single run); None
    when no run reports the metric."""
    values = [v for v in _values(metric, side) if v is not None]
    return median(values) if values else None


def _values(metric: Metric, side: Side) -> list[float | None]:
    return [metric.read(run) for run in side.runs]


@dataclass(frozen=True)
class MetricVerdict:
    metric: Metric
    comparison: Comparison
    # The metric the decision rests on, tested alone; the others are adjusted together.
    primary: bool = False

    def to_dict(self) -> dict[str, Any]:
        # Imported here: analysis.stats imports scipy, which takes seconds.
        from tui_bench.analysis.stats import tier_of

        c = self.comparison
        return {
            "name": self.metric.name,
            "unit": self.metric.unit,
            "direction": self.metric.direction,
            # The medians of the runs: the centres the delta is taken between.
            "a": c.median_a,
            "b": c.median_b,
            "delta_pct": c.delta_pct,
            "ci_low_pct": c.ci_low_pct,
            "ci_high_pct": c.ci_high_pct,
            "p_value": c.p_value,
            "p_adjusted": c.p_adjusted,
            "n_a": c.n_a,
            "n_b": c.n_b,
            "verdict": c.verdict,
            "tier": tier_of(c),
            "role": "primary" if self.primary else "secondary",
        }


@dataclass(frozen=True)
class Report:
    """b relative to a. `differences` are the set-up differences of the sides' shown runs;
    `notes` what else the numbers need read with them (too few runs, the correction). The
    first metric is the primary one."""

    a: Side
    b: Side
    metrics: tuple[MetricVerdict, ...]
    differences: tuple[Difference, ...]
    notes: tuple[str, ...]

    @property
    def warnings(self) -> list[str]:
        setup = [
            f"set-up differs: {d.label}: {unknown_word(d.a)} (A) vs {unknown_word(d.b)} (B)"
            for d in self.differences
        ]
        return [*setup, *self.notes]

    def verdict_of(self, name: str) -> MetricVerdict | None:
        return next((m for m in self.metrics if m.metric.name == name), None)

    @property
    def primary(self) -> MetricVerdict:
        return self.metrics[0]

    def to_dict(self) -> dict[str, Any]:
        return {
            "a": self.a.describe(),
            "b": self.b.describe(),
            "primary": self.primary.metric.name,
            # How the p-values were corrected: the primary not at all, the rest together.
            "adjustment": {"primary": "none", "secondary": "holm"},
            "alpha": self.primary.comparison.alpha,
            "metrics": [m.to_dict() for m in self.metrics],
            "warnings": self.warnings,
        }


def unknown_word(value: str | None) -> str:
    return "unknown" if value is None else value


def compare_sides(a: Side, b: Side, *, primary: str = DEFAULT_PRIMARY) -> Report:
    """Every tested metric, b against a: `primary` (a METRICS name) first, tested alone;
    the rest of the family after it, adjusted among themselves. Each is listed even when no
    run reports it (n 0), so a script finds the same names every time."""
    from tui_bench.analysis.stats import adjust, compare_samples

    if primary not in _BY_NAME:
        raise UsageError(f"no metric {primary!r}: one of {', '.join(_BY_NAME)}")

    def compared(metric: Metric) -> Comparison:
        return compare_samples(_values(metric, a), _values(metric, b), metric.direction)

    first = _BY_NAME[primary]
    secondaries = tuple(m for m in FAMILY if m is not first)
    adjusted = adjust([compared(m) for m in secondaries])
    metrics = (
        MetricVerdict(first, compared(first), primary=True),
        *(MetricVerdict(m, c) for m, c in zip(secondaries, adjusted, strict=True)),
    )
    differences = tuple(setup_differences(a.shown, b.shown))
    return Report(a, b, metrics, differences, tuple(_notes(a, b, metrics)))


def _notes(a: Side, b: Side, metrics: Sequence[MetricVerdict]) -> list[str]:
    from tui_bench.analysis.stats import (
        LIKELY_MARGIN_ONE_RUN_PCT,
        LIKELY_MARGIN_PCT,
        correction_note,
    )

    sides = (("A", a), ("B", b))
    notes = [*_fairness(a, b)]
    notes += [
        f"{letter}: {side.left_out} of {side.left_out + len(side.runs)} runs did not complete "
        "and are left out"
        for letter, side in sides
        if side.left_out
    ]
    few = [f"{letter} has {len(side.runs)}" for letter, side in sides if len(side.runs) < MIN_RUNS]
    if few:
        notes.append(
            f"fewer than {MIN_RUNS} runs a side ({', '.join(few)}): no tested verdict; "
            "'likely better/worse' only where every run of one side is beyond every run of "
            f"the other by {LIKELY_MARGIN_PCT:g} % or more ({LIKELY_MARGIN_ONE_RUN_PCT:g} % "
            f"with one run a side), {_noise(a, b)}; repeat runs with "
            "`tuibench sweep --repeat N` for a tested one"
        )
    notes += _cost_per_request(metrics)
    first, rest = metrics[0], [m.comparison for m in metrics[1:]]
    note = correction_note(first.metric.label, first.comparison, rest)
    if note:
        notes.append(note)
    if not few:
        notes += _undecidable(len(a.runs), len(b.runs), first, rest)
    return notes


def _noise(a: Side, b: Side) -> str:
    if min(len(a.runs), len(b.runs)) == 1:
        return "run-to-run noise not measured"
    return "too few runs to test a change against their run-to-run noise"


# What a resource costs is judged at the work it did: lower with fewer req/s is no gain.
_PER_REQUEST = ("server_cpu_pct", "client_cpu_pct")


def _cost_per_request(metrics: Sequence[MetricVerdict]) -> list[str]:
    """A CPU judged better or worse while req/s moved the same way: said per 1,000 req/s,
    which is what the lower (or higher) figure does not tell."""
    by_name = {m.metric.name: m.comparison for m in metrics}
    rps = by_name.get("rps")
    if rps is None or not rps.median_a or not rps.median_b or rps.delta_pct is None:
        return []
    notes = []
    for name in _PER_REQUEST:
        c = by_name.get(name)
        if c is None or c.median_a is None or c.median_b is None or c.delta_pct is None:
            continue
        judged = c.verdict not in ("no difference", "insufficient data")
        if judged and (c.delta_pct < 0) == (rps.delta_pct < 0):
            label = _BY_NAME[name].label
            per_a = c.median_a / rps.median_a * 1000
            per_b = c.median_b / rps.median_b * 1000
            notes.append(
                f"{label} moved with req/s ({c.delta_pct:+.1f} % against {rps.delta_pct:+.1f} %): "
                f"its '{c.verdict}' is not a cost per request, which is "
                f"A {per_a:.2f} %, B {per_b:.2f} % per 1,000 req/s"
            )
    return notes


def _undecidable(n_a: int, n_b: int, first: MetricVerdict, rest: Sequence[Comparison]) -> list[str]:
    """What cannot reach a tested verdict at these counts, however large the change: said,
    so that "no difference" is not read as "no change"."""
    notes = []
    best = smallest_p(n_a, n_b)
    if not can_reach(n_a, n_b):
        notes.append(
            f"with {n_a} and {n_b} runs even {first.metric.label} cannot reach p < "
            f"{first.comparison.alpha:g} (at best {best:.3f}): repeat more runs"
        )
    tested = sum(1 for c in rest if c.p_value is not None)
    if tested and not can_reach(n_a, n_b, tested):
        notes.append(
            f"with {n_a} and {n_b} runs the {tested} secondary metrics cannot reach a tested "
            f"verdict after their adjustment (at best p {best:.3f} × {tested}); "
            f"{fewest_runs(tested)} runs a side can"
        )
    return notes


# A side that measured this many times shorter than the other is compared with care.
SHORTER = 2.0


def _fairness(a: Side, b: Side) -> list[str]:
    """What makes the comparison unfair: a side that is not valid (an interrupted run, too
    many errors, a saturated generator ...), or one much shorter than the other."""
    notes = []
    for letter, side in (("A", a), ("B", b)):
        validity = side.validity()
        if not validity.is_valid:
            why = "; ".join(r.message for r in validity.reasons)
            notes.append(f"{letter} is {validity.verdict}: {why}")
    short, long = sorted((a, b), key=lambda s: s.duration_s or 0)
    if short.duration_s and long.duration_s and long.duration_s >= SHORTER * short.duration_s:
        letter = "A" if short is a else "B"
        notes.append(
            f"{letter} measured {short.duration_s:.3g} s, the other {long.duration_s:.3g} s: "
            "a much shorter run is noisier and may not reach a steady state"
        )
    return notes


# Words for people


def fmt_ci(low: float | None, high: float | None) -> str:
    """A confidence interval of a change in %, `-20…+9.4%`: a bound of a CI over a handful
    of runs is good for two figures, and the screen has little room."""
    if low is None or high is None:
        return UNSET
    return f"{_bound(low)}…{_bound(high)}%"


def _bound(pct: float) -> str:
    text = f"{pct:+.0f}" if abs(pct) >= 10 else f"{pct:+.1f}"
    return "0" if float(text) == 0 else text


def fmt_p(p: float | None) -> str:
    if p is None:
        return UNSET
    return "<0.001" if p < 0.001 else f"{p:.3f}"


def fmt_n(c: Comparison) -> str:
    return f"{c.n_a}/{c.n_b}"


def side_title(side: Side) -> str:
    """The session's name (or id), with the sweep point: `tune@c=200`."""
    title = session_title(side.session)
    return f"{title}@{side.point}" if side.point else title
