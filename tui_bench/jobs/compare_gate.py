"""`tuibench compare A B --fail-on-regression`: B gated against A as a run's baseline gate
gates a new result, at the tier that gate would take for these run counts."""

from __future__ import annotations

from dataclasses import dataclass

from tui_bench.analysis.names import Tier
from tui_bench.analysis.regression import Judgement, judge
from tui_bench.analysis.significance import Side
from tui_bench.analysis.verdicts import BaselineVerdict, Verdicts
from tui_bench.jobs.baseline_gate import chosen_tier


@dataclass(frozen=True)
class CompareGate:
    judgement: Judgement
    # Why this tier was taken, when it was not the one asked for.
    note: str | None

    @property
    def verdicts(self) -> Verdicts:
        return Verdicts(baseline=BaselineVerdict.of(self.judgement, sweep=False))


def gate_compare(
    ref_a: str,
    a: Side,
    b: Side,
    *,
    tolerance_pct: float,
    asked: Tier | None,
    allow_setup_change: bool,
    primary: str,
) -> CompareGate:
    tier, note = chosen_tier(asked, [(len(a.runs), len(b.runs))])
    judgement = judge(
        ref_a,
        [(a, b)],
        tolerance_pct=tolerance_pct,
        tier=tier,
        allow_setup_change=allow_setup_change,
        primary=primary,
    )
    return CompareGate(judgement, note)
