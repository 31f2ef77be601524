"""`--baseline REF` and its gate, prepared before any load and judged when the new result
ends.

Before the load: REF is found (`NAME@latest` is the newest run of NAME the gate did not
fail, see storage/refs.py); with `--fail-on-regression`, a baseline that is invalid, whose
set-up differs from what is about to run (tool, version, flags, URL, host), or that cannot
give the tier asked at these run counts is refused in one line (exit 2). Without a tier
asked, the gate takes `tested` when the counts allow it and otherwise `likely`, and says so.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from tui_bench.analysis.compare import Difference, setup
from tui_bench.analysis.regression import (
    GATED_SETUP,
    Judgement,
    Tier,
    judge,
    pair_sides,
    setup_refusal,
    tested_needs,
)
from tui_bench.analysis.significance import Side, point_refs, side_of
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
    stands for (None for a single run), its spec, its tool and how many runs it gets."""

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


def prepare_gate(
    judging: Judging, planned: Sequence[Planned], directory: Path | None = None
) -> BaselineGate | None:
    """The baseline of a run (one planned) or a sweep (one per point), found and checked
    before any load; UsageError or SessionError (one line, exit 2) for what it refuses."""
    if judging.baseline is None:
        return None
    ref = judging.baseline
    located = store.locate(ref, directory)
    session = store.load_path(located.path)
    sides = [_paired(ref, session, located.point, p) for p in planned]
    gating = judging.fail_on_regression is not None
    tier = judging.tier
    notes: list[str] = []
    for side, plan in zip(sides, planned, strict=True) if gating else ():
        _refuse_invalid(ref, side)
        if not judging.allow_setup_change:
            _refuse_other_setup(ref, side, plan)
    if gating:
        needs = [
            n
            for s, p in zip(sides, planned, strict=True)
            if (n := tested_needs(len(s.runs), p.runs))
        ]
        if tier == "tested" and needs:
            raise UsageError(f"--baseline {ref}: {needs[0]}")
        if tier is None:
            tier = "likely" if needs else "tested"
            if needs:
                notes.append(f"gating on the likely tier: {needs[0]}")
    return BaselineGate(
        ref,
        located,
        session,
        judging.fail_on_regression,
        tier or "tested",
        judging.allow_setup_change,
        judging.gate_metric,
        tuple(notes),
    )


def _paired(ref: str, base: Session, base_point: str | None, plan: Planned) -> Side:
    """The baseline's side that `plan` is judged against (as `pair_sides` pairs them when
    the result is in); UsageError when there is none."""
    many = base.is_sweep and base_point is None and len(point_refs(base)) > 1
    if not many:
        return side_of(base, base_point)
    theirs = point_refs(base)
    if plan.point is None:
        raise UsageError(
            f"--baseline {ref}: {base.id} is a sweep of {len(theirs)} points and this is one "
            "run: name its point, REF@POINT"
        )
    if plan.point not in theirs:
        raise UsageError(
            f"--baseline {ref}: point {plan.point} of this sweep is not in the baseline sweep "
            f"{base.id} (its points: {', '.join(theirs)})"
        )
    return side_of(base, plan.point)


def _refuse_invalid(ref: str, side: Side) -> None:
    validity = side.validity()
    if validity.is_invalid:
        why = "; ".join(r.message for r in validity.reasons)
        raise UsageError(
            f"--baseline {ref}: {side.label} is invalid ({why}); "
            "a baseline must be a run whose figures can be trusted"
        )


def _refuse_other_setup(ref: str, side: Side, plan: Planned) -> None:
    theirs = setup(side.shown)
    mine = setup(planned_session(plan))
    where = f"--baseline {ref}: " + (f"point {plan.point}: " if plan.point else "")
    for key in GATED_SETUP:
        if theirs[key] is not None and mine[key] is not None and theirs[key] != mine[key]:
            raise UsageError(setup_refusal(where, Difference(key, theirs[key], mine[key])))


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
