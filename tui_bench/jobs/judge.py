"""What a finished run or sweep is judged by, beside its validity: each threshold (a
sweep's against each point that ran) and the baseline's gate."""

from __future__ import annotations

from collections.abc import Sequence

from tui_bench.analysis.thresholds import Threshold
from tui_bench.analysis.verdicts import BaselineVerdict, Verdicts, run_thresholds, sweep_thresholds
from tui_bench.engine.recorder import Judge
from tui_bench.jobs.baseline_gate import BaselineGate
from tui_bench.storage.session import Session


def judged(thresholds: Sequence[Threshold], gate: BaselineGate | None) -> Judge:
    def judge(session: Session) -> Verdicts:
        found = (
            sweep_thresholds(thresholds, session.points)
            if session.is_sweep
            else run_thresholds(thresholds, session)
        )
        baseline = gate.judge(session) if gate else None
        return Verdicts(
            found,
            BaselineVerdict.of(baseline, sweep=session.is_sweep) if baseline else None,
        )

    return judge
