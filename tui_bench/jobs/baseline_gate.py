"""`--baseline REF` and its gate, prepared before any load and judged when the new result
ends.

Before the load: REF is found (`NAME@latest` is the newest run of NAME whose baseline gate
did not fail, see storage/refs.py); with `--fail-on-regression`, a baseline that is invalid,
whose set-up differs from what is about to run (tool, version, flags, URL, host), that never
measured the gated metric, or that cannot give the tier asked at these run counts is refused
in one line (exit 2), by the same rules the judgement applies afterwards
(analysis/regression.py). Without a tier asked, the gate takes `tested` when the counts allow
it and otherwise `likely`, and says so.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from tui_bench.analysis.compare import METRICS, setup_differences
from tui_bench.analysis.names import Tier
from tui_bench.analysis.regression import (
    Judgement,
    baseline_side,
    gate_refusals,
    judge,
    pair_sides,
    tested_needs,
)
from tui_bench.analysis.significance import median_of
from tui_bench.errors import TuibenchError, UsageError
from tui_bench.request.judging import Judging
from tui_bench.runners.invocation import build
from tui_bench.runners.tools import Tool
from tui_bench.sampling.host import host_facts
from tui_bench.spec import RunSpec
from tui_bench.storage import store
from tui_bench.storage.refs import Located
from tui_bench.storage.session import Session


@dataclass(frozen=True)
class Planned:
    """A run about to be made, as the gate compares it with the baseline: the point it
    stands for (its name or number; None for a single run), the spec of its first
    generator (the one its session's argv will be), its tool and how many runs it gets."""

    point: str | None
    spec: RunSpec
    tool: Tool
    runs: int = 1


@dataclass(frozen=True)
class BaselineGate:
    ref: str
    located: Located
    session: Session
    tolerance_pct: float | None
    tier: Tier
    allow_setup_change: bool
    gate_metric: str
    # What the preparation chose for the user, one line each (the tier taken).
    notes: tuple[str, ...] = ()

    def judge(self, new: Session) -> Judgement:
        """The new result against the baseline."""
        try:
            pairs = pair_sides(self.session, self.located.point, new)
        except TuibenchError as exc:
            return Judgement(
                self.ref, (), (), (str(exc),), self.tolerance_pct, self.tier, self.gate_metric
            )
        return judge(
            self.ref,
            pairs,
            tolerance_pct=self.tolerance_pct,
            tier=self.tier,
            allow_setup_change=self.allow_setup_change,
            primary=self.gate_metric,
        )


def chosen_tier(asked: Tier | None, counts: Sequence[tuple[int, int]]) -> tuple[Tier, str | None]:
    """The tier a gate decides at, and why when it is not the one asked: without one
    asked, `tested` when every pair of run counts (baseline, new) allows it, else `likely`.
    UsageError when `tested` is asked where it cannot decide."""
    needs = [n for a, b in counts if (n := tested_needs(a, b))]
    if asked == "tested" and needs:
        raise UsageError(needs[0])
    if asked is not None:
        return asked, None
    return ("likely", f"gating on the likely tier: {needs[0]}") if needs else ("tested", None)


def prepare_gate(judging: Judging, planned: Sequence[Planned]) -> BaselineGate | None:
    """The baseline of a run (one planned) or a sweep (one per point), found and checked
    before any load; UsageError or SessionError (one line, exit 2) for what it refuses."""
    if judging.baseline is None:
        return None
    ref = judging.baseline
    located = store.locate(ref)
    session = store.load_path(located.path)
    try:
        sides = [baseline_side(session, located.point, p.point) for p in planned]
    except UsageError as exc:
        raise UsageError(f"--baseline {ref}: {exc}") from None
    tier, note = judging.tier or "tested", None
    if judging.fail_on_regression is not None:
        gated = next(m for m in METRICS if m.name == judging.gate_metric)
        for side, plan in zip(sides, planned, strict=True):
            where = f"point {plan.point}: " if plan.point else ""
            differences = setup_differences(side.shown, planned_session(plan))
            refused = gate_refusals(side, differences, where, judging.allow_setup_change)
            if not refused and median_of(gated, side) is None:
                refused = [f"{where}the baseline has no {gated.label}: nothing to gate on"]
            if refused:
                raise UsageError(f"--baseline {ref}: {refused[0]}")
        counts = [(len(side.runs), plan.runs) for side, plan in zip(sides, planned, strict=True)]
        try:
            tier, note = chosen_tier(judging.tier, counts)
        except UsageError as exc:
            raise UsageError(f"--baseline {ref}: {exc}") from None
    return BaselineGate(
        ref,
        located,
        session,
        judging.fail_on_regression,
        tier,
        judging.allow_setup_change,
        judging.gate_metric,
        (note,) if note else (),
    )


def planned_session(plan: Planned) -> Session:
    """What the session of `plan` will say of its set-up, before it runs."""
    invocation = build(plan.spec, plan.tool.path, plan.tool.version, Path("run"))
    doc = {
        "id": "planned",
        "status": "planned",
        "spec": plan.spec.to_dict(),
        "argv": list(invocation.argv),
        "tool": {"name": plan.tool.name, "version": plan.tool.version},
        "host": {"hostname": host_facts().get("hostname")},
        "series": [],
    }
    return Session(doc)
