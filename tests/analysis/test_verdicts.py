"""A run's verdicts as its session keeps them, read back the same by a replay."""

from __future__ import annotations

from tests.analysis.test_significance import run
from tests.engine.test_sweep_state import SESSION, plan_of, sweep_document
from tui_bench.analysis.verdicts import BaselineVerdict, Verdicts
from tui_bench.engine.events import RunFinished
from tui_bench.engine.replay import timeline
from tui_bench.engine.sweep_state import SweepState
from tui_bench.report.text import verdict_lines
from tui_bench.storage.session import Session
from tui_bench.storage.threshold_codec import threshold_of

THRESHOLD = {
    "text": "p99<50ms",
    "metric": "p99_s",
    "op": "<",
    "limit": 0.05,
    "actual": 0.01,
    "passed": True,
    "reason": None,
}
GATE = {"ref": "api@latest", "failed": True, "refused": [], "lines": ["regression: req/s -40%"]}


def test_a_saved_runs_verdicts_read_as_they_were_made() -> None:
    made = Verdicts((threshold_of(THRESHOLD),), BaselineVerdict(GATE))
    doc = {**run(0, 1000), **made.end_fields()}
    read = Verdicts.of_session(Session(doc))
    assert read == made and read.failed
    assert verdict_lines(read) == [
        "threshold p99<50ms: pass (p99 10.00 ms)",
        "baseline: regression: req/s -40%",
    ]
    ended = [e for e in timeline(Session(doc)).events if isinstance(e, RunFinished)]
    assert [e.verdicts for e in ended] == [made]


def test_a_saved_sweep_shows_its_verdicts_again() -> None:
    doc = sweep_document(plan_of(), [], "completed")
    state = SweepState.of_session(Session({**doc, "baseline": GATE}), SESSION)
    assert state.finished is not None
    kept = tuple(map(threshold_of, doc["thresholds"]))
    assert state.finished.verdicts == Verdicts(kept, BaselineVerdict(GATE))
