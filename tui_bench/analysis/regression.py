"""A new result against a baseline: the sides paired, compared as `tuibench compare` does,
and the regression gate of `--fail-on-regression`. Pure.

The gate looks at one metric, the primary one of the comparison (req/s unless the user
names another with --gate-metric). It regressed when it is worse than the baseline at the
verdict tier asked for (`tested`: the verdict `worse`; `likely`: `worse` or `likely worse`)
and its median moved the wrong way by more than the tolerance. The secondary metrics are
reported beside it but do not gate: a gate on them as well would add their family's false
alarms to the primary's (about twice alpha in all), and after their own adjustment they
cannot decide at 4 runs a side anyway. A baseline is refused, never gated on, when it is
invalid, when the gated metric was not measured on a side, or when a set-up field that
changes what is measured differs (tool, version, flags, URL, host); the last can be allowed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from tui_bench.analysis.compare import METRICS, Difference, fmt_delta_pct, fmt_value
from tui_bench.analysis.names import DEFAULT_PRIMARY, Tier
from tui_bench.analysis.run_counts import MIN_RUNS, can_reach
from tui_bench.analysis.significance import (
    Report,
    Side,
    compare_sides,
    point_refs,
    side_of,
)
from tui_bench.errors import UsageError
from tui_bench.storage.session import Session

if TYPE_CHECKING:
    from tui_bench.analysis.stats import Comparison

# The set-up fields that, when they differ, make the baseline measure something else.
GATED_SETUP = ("tool", "tool_version", "flags", "urls", "hostname")
_WORSE: Mapping[Tier, frozenset[str]] = {
    "tested": frozenset({"worse"}),
    "likely": frozenset({"worse", "likely worse"}),
}
_LABELS = {m.name: m.label for m in METRICS}


def baseline_side(base: Session, base_point: str | None, ref: str | None) -> Side:
    """The baseline's side that the new result's side `ref` (a point's name or number;
    None: a single run) is judged against: the baseline sweep's point of the same name, or
    the baseline's one side when it has one (a run, a named point, a one-point sweep).
    UsageError when there is none."""
    theirs = point_refs(base)
    if not (base.is_sweep and base_point is None and len(theirs) > 1):
        return side_of(base, base_point)
    if ref is None:
        raise UsageError(
            f"the baseline {base.id} is a sweep of {len(theirs)} points and this is one run: "
            "name its point, REF@POINT"
        )
    if ref not in theirs:
        raise UsageError(
            f"point {ref} of this sweep is not in the baseline sweep {base.id} "
            f"(its points: {', '.join(theirs)})"
        )
    return side_of(base, ref)


def pair_sides(base: Session, base_point: str | None, new: Session) -> list[tuple[Side, Side]]:
    """(baseline, new) for each side of the new result (`baseline_side`)."""
    if not new.is_sweep:
        return [(baseline_side(base, base_point, None), side_of(new))]
    return [(baseline_side(base, base_point, ref), side_of(new, ref)) for ref in point_refs(new)]


@dataclass(frozen=True)
class Regression:
    """The gated metric worse than the baseline by more than the tolerance."""

    point: str | None
    metric: str
    unit: str
    a: float | None
    b: float | None
    delta_pct: float | None
    verdict: str
    tier: str

    def line(self, tolerance_pct: float) -> str:
        where = f" at {self.point}" if self.point else ""
        change = "from none" if self.delta_pct is None else fmt_delta_pct(self.delta_pct)
        return (
            f"regression{where}: {_LABELS.get(self.metric, self.metric)} {change} "
            f"({fmt_value(self.unit, self.a)} -> {fmt_value(self.unit, self.b)}), "
            f"{self.verdict} ({self.tier}), beyond {tolerance_pct:g} %"
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "point": self.point,
            "metric": self.metric,
            "a": self.a,
            "b": self.b,
            "delta_pct": self.delta_pct,
            "verdict": self.verdict,
            "tier": self.tier,
        }


def regressions(report: Report, tolerance_pct: float, tier: Tier) -> list[Regression]:
    """The primary metric of `report` (b against the baseline a), when it regressed."""
    verdict = report.primary
    c = verdict.comparison
    if not regressed(c, tolerance_pct, tier):
        return []
    data = verdict.to_dict()
    return [
        Regression(
            report.b.point,
            data["name"],
            data["unit"],
            c.median_a,
            c.median_b,
            c.delta_pct,
            c.verdict,
            str(data["tier"]),
        )
    ]


def regressed(c: Comparison, tolerance_pct: float, tier: Tier) -> bool:
    """The gate's rule for one comparison (b against the baseline a): worse at `tier` and
    beyond the tolerance."""
    return c.verdict in _WORSE[tier] and _beyond(c.direction, c.delta_pct, tolerance_pct)


def _beyond(direction: str, delta_pct: float | None, tolerance_pct: float) -> bool:
    """Worse by more than the tolerance; from a baseline of 0 any worsening is (no % of 0)."""
    if delta_pct is None:
        return True
    return -delta_pct > tolerance_pct if direction == "higher" else delta_pct > tolerance_pct


def refusals(report: Report, *, allow_setup_change: bool) -> list[str]:
    """Why `report`'s baseline cannot be gated on, one line each."""
    where = f"point {report.b.point}: " if report.b.point else ""
    return gate_refusals(report.a, report.differences, where, allow_setup_change)


def gate_refusals(
    base: Side, differences: Sequence[Difference], where: str, allow_setup_change: bool
) -> list[str]:
    """Why the baseline side `base` cannot be gated on, one line each: it is invalid, or
    (unless allowed) a set-up field that changes what is measured differs, unknown on one
    side included. The same rule before the load and after it."""
    lines = []
    validity = base.validity()
    if validity.is_invalid:
        why = "; ".join(r.message for r in validity.reasons)
        lines.append(f"{where}the baseline {base.label} is invalid: {why}")
    if not allow_setup_change:
        lines += [setup_refusal(where, d) for d in differences if d.field in GATED_SETUP]
    return lines


def setup_refusal(where: str, d: Difference) -> str:
    return (
        f"{where}the baseline's set-up differs: {d.label} {_shown(d.a)} (baseline) vs "
        f"{_shown(d.b)} (this run); --allow-setup-change compares anyway"
    )


def tested_needs(n_a: int, n_b: int) -> str | None:
    """Why `--verdict tested` cannot decide with n_a baseline runs and n_b new ones (one
    line), or None when it can. Needs no scipy: it can be asked before any load runs."""
    if min(n_a, n_b) >= MIN_RUNS and can_reach(n_a, n_b):
        return None
    return (
        f"--verdict tested needs {MIN_RUNS} runs a side or more (the baseline has {n_a}, "
        f"this has {n_b}): use `tuibench sweep --repeat N` with N of {MIN_RUNS} or more, "
        "or --verdict likely"
    )


def _unmeasured(report: Report) -> str | None:
    """Why the gated metric cannot be judged: a side has no run that reports it."""
    c = report.primary.comparison
    if c.n_a and c.n_b:
        return None
    where = f"point {report.b.point}: " if report.b.point else ""
    side = "the baseline" if not c.n_a else "this result"
    return f"{where}{side} has no {report.primary.metric.label}: nothing to gate on"


def _summary(report: Report) -> str:
    where = f"{report.b.point}: " if report.b.point else ""
    changes = [
        f"{_LABELS[m.metric.name]} {fmt_delta_pct(m.comparison.delta_pct)} {m.comparison.verdict}"
        for m in report.metrics
        if m.comparison.n_a and m.comparison.n_b
    ]
    return f"{where}against {report.a.label}: {', '.join(changes)}"


def _shown(value: str | None) -> str:
    return "unknown" if value is None else value


@dataclass(frozen=True)
class Judgement:
    """The new result against its baseline: a report per pair, what regressed and why the
    baseline is refused (nothing is gated on a refused one)."""

    ref: str
    reports: tuple[Report, ...]
    regressed: tuple[Regression, ...]
    refused: tuple[str, ...]
    tolerance_pct: float | None
    tier: Tier
    primary: str = DEFAULT_PRIMARY

    @property
    def failed(self) -> bool:
        return self.tolerance_pct is not None and not self.refused and bool(self.regressed)

    def lines(self) -> list[str]:
        """What stderr says: each refusal, else each regression, one line each; without a
        gate, a line per side compared with each tested metric's change and verdict."""
        if self.refused:
            return list(self.refused)
        if self.tolerance_pct is not None:
            label = _LABELS.get(self.primary, self.primary)
            passed = f"{label} not worse than the baseline by more than {self.tolerance_pct:g} %"
            return [r.line(self.tolerance_pct) for r in self.regressed] or [passed]
        return [_summary(report) for report in self.reports]

    def to_dict(self, *, sweep: bool) -> dict[str, Any]:
        """A run's: the comparison as `tuibench compare --format json` gives it; a sweep's:
        one per point under `points`. Either way with the reference, the gate and what it
        found."""
        gate = {
            "ref": self.ref,
            "tolerance_pct": self.tolerance_pct,
            "verdict_tier": self.tier,
            "gate_metric": self.primary,
            "refused": list(self.refused),
            "regressions": [r.to_dict() for r in self.regressed],
            "failed": self.failed,
        }
        compared = [r.to_dict() | {"point": r.b.point} for r in self.reports]
        if sweep:
            return {"points": compared} | gate
        # Nothing compared when the sides could not be paired: the refusal says why.
        return (compared[0] if compared else {}) | gate


def judge(
    ref: str,
    pairs: Sequence[tuple[Side, Side]],
    *,
    tolerance_pct: float | None,
    tier: Tier,
    allow_setup_change: bool,
    primary: str = DEFAULT_PRIMARY,
) -> Judgement:
    """Compare each pair with `primary` (a METRICS name) as the primary metric; with a
    tolerance, gate on it: refuse the baseline or find where it regressed. Without one
    nothing is refused: the comparison's warnings say what differs."""
    reports = tuple(compare_sides(a, b, primary=primary) for a, b in pairs)
    if tolerance_pct is None:
        return Judgement(ref, reports, (), (), None, tier, primary)
    refused = [line for r in reports for line in refusals(r, allow_setup_change=allow_setup_change)]
    refused += filter(None, map(_unmeasured, reports))
    if tier == "tested":
        needs = (tested_needs(len(r.a.runs), len(r.b.runs)) for r in reports)
        refused += dict.fromkeys(filter(None, needs))
    found = [g for r in reports for g in regressions(r, tolerance_pct, tier)]
    return Judgement(ref, reports, tuple(found), tuple(refused), tolerance_pct, tier, primary)
