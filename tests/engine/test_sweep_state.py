"""The sweep view's state folded from scripted sweep events: no engine, no clock.

The script helpers here also drive the sweep screen's tests (tests/ui/test_sweep_screen.py).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tui_bench.analysis.sweep_points import aggregate, point_verdicts, run_values
from tui_bench.analysis.thresholds import parse_slo, parse_threshold
from tui_bench.engine.events import Event, Progress, RunFinished, RunStarted, SecondClosed
from tui_bench.engine.sweep import (
    CoolingDown,
    SweepFinished,
    SweepRunFinished,
    SweepRunStarted,
    SweepStarted,
)
from tui_bench.engine.sweep_state import StateEvent, SweepState, SweepTitle
from tui_bench.histogram import LatencyHistogram
from tui_bench.records.sweep_point import SweepSummary
from tui_bench.request.run import RunRequest
from tui_bench.request.sweep_plan import SweepPlan, Variant, build_plan, parse_vary
from tui_bench.result import Requests, Result
from tui_bench.spec import RunSpec
from tui_bench.storage.session import Session
from tui_bench.storage.session_records import SessionDraft
from tui_bench.storage.sweep_codec import summary_record
from tui_bench.storage.threshold_codec import threshold_record

URL = "http://127.0.0.1:8080/"
# p99 is 2 ms per connection: c=2, 4 and 8 meet it, c=16 does not; req/s grow with c.
SLO = "p99<30ms,errors<1%"
THRESHOLD = "p99<20ms"
SESSION = Path("/tmp/tuibench-sessions/20260101-120000-000-sweep-ramp.json")
RUN_S = 7.0
COOL_DOWN_S = 2.0


def plan_of(values: str = "2,4,8,16", repeat: int = 2) -> SweepPlan:
    base = Variant(None, RunRequest(RunSpec(urls=(URL,), duration_s=5.0, streams=10)), {})
    return build_plan([base], [parse_vary(f"c={values}")], repeat)


def state_of(plan: SweepPlan) -> SweepState:
    return SweepState(plan.record(), slo=parse_slo(SLO), slo_text=SLO)


def run_document(plan: SweepPlan, index: int, status: str = "completed") -> dict[str, Any]:
    """The session document of the `index`-th run (in run order): per connection, 80
    requests at 0.2 ms, 19 at 2 ms and one at 5 ms."""
    slot = plan.order[index]
    c = plan.points[slot.point].spec.connections
    hist = LatencyHistogram()
    hist.add(np.array([200 * c] * 80 + [2000 * c] * 19 + [5000 * c], dtype=np.int64))
    result = Result(
        tool="h2load",
        tool_version="1.52.0",
        protocol="h2c",
        duration_s=5.0,
        rps=10_000.0 + 1_000 * c + 100 * slot.repeat,
        requests=Requests(total=100, succeeded=100, failed=0),
        latency=hist.distribution(),
    )
    draft = SessionDraft(
        id=f"run-{index}",
        spec=plan.points[slot.point].spec,
        argv=[],
        tool={"name": "h2load", "version": "1.52.0"},
        host={},
        started_at="2026-01-01T12:00:00+00:00",
        name=plan.points[slot.point].name,
    )
    return {
        **draft.header(),
        "series": [],
        "status": status,
        "result": result.to_dict(),
        "histogram": hist.to_dict(),
        "resources": {"server_cpu_mean_pct": 20.0 + 5 * c, "client_cpu_mean_pct": 50.0},
    }


def run_start(plan: SweepPlan, index: int) -> list[StateEvent]:
    """A run starting and going for three seconds."""
    slot = plan.order[index]
    total = len(plan.order)
    point = plan.points[slot.point]
    events: list[StateEvent] = [
        SweepRunStarted(index, total, point, slot.repeat, plan.repeat, eta_s=eta(plan, index)),
        RunStarted(f"run-{index}", ("h2load", "-c", str(point.spec.connections), URL), 4000),
    ]
    for t in range(3):
        rps = 10_000.0 + 1_000 * point.spec.connections + 10 * t
        row = {"t_s": t, "rps": rps, "good_rps": rps, "errors": 0, "2xx": int(rps), "n": 100}
        row |= {"p50_s": 0.0002, "p90_s": 0.0004, "p99_s": 0.002 * point.spec.connections}
        events += [SecondClosed(row), Progress(t + 1.0, (t + 1) / 5, None, None)]
    return events


def run_end(plan: SweepPlan, index: int, status: str = "completed") -> list[StateEvent]:
    """The `index`-th run ending with `status`, every run before it completed."""
    slot = plan.order[index]
    doc = run_document(plan, index, status)
    result = Result.from_dict(doc["result"])
    finished = RunFinished(status, 0, result, Path(f"/tmp/run-{index}.json"), None)
    left = None if status != "completed" else eta(plan, index + 1)
    return [
        finished,
        SweepRunFinished(
            index,
            len(plan.order),
            plan.points[slot.point],
            slot.repeat,
            plan.repeat,
            finished,
            run_values(Session(doc)),
            left,
            summary_of(plan, entries(plan, index + 1, status)),
        ),
    ]


def eta(plan: SweepPlan, index: int) -> float:
    """The runner's foresight: RUN_S a run and a cool-down between runs."""
    left = len(plan.order) - index
    return left * RUN_S + max(left - 1, 0) * COOL_DOWN_S


def entries(plan: SweepPlan, count: int, last_status: str = "completed") -> list[dict[str, Any]]:
    """The sweep's run entries of its first `count` runs."""
    return [
        {
            "slot": i,
            "point": plan.order[i].point,
            "repeat": plan.order[i].repeat,
            "session": run_document(plan, i, last_status if i == count - 1 else "completed"),
        }
        for i in range(count)
    ]


def summary_of(plan: SweepPlan, runs: list[dict[str, Any]]) -> SweepSummary:
    """The points' aggregates over `runs`, as SweepRunner computes them."""
    return aggregate(
        [p.planned() for p in plan.points],
        [(run["point"], Session(run["session"])) for run in runs],
        parse_slo(SLO),
        SLO,
        [parse_threshold(THRESHOLD)],
    )


def sweep_document(
    plan: SweepPlan, runs: list[dict[str, Any]], status: str, message: str | None = None
) -> dict[str, Any]:
    """The saved sweep, as SweepRunner writes it."""
    summary = summary_of(plan, runs)
    return {
        "schema": "tuibench.session",
        "version": 1,
        "id": SESSION.stem,
        "name": "ramp",
        "kind": "sweep",
        "spec": plan.points[0].spec.to_dict(),
        "tool": {"name": "h2load", "version": "1.52.0"},
        "series": [],
        "sweep": {**plan.to_dict(), "cool_down_s": COOL_DOWN_S, "slo": SLO},
        "runs": runs,
        **summary_record(summary),
        "status": status,
        "message": message,
        "thresholds": [
            threshold_record(v)
            for v in point_verdicts(summary.points, [parse_threshold(THRESHOLD)])
        ],
        "warnings": [{"code": "same-machine", "message": "load generator and target share"}],
    }


def whole_sweep(plan: SweepPlan) -> list[StateEvent]:
    events: list[StateEvent] = [SweepStarted("sweep-1", plan)]
    for index in range(len(plan.order)):
        if index:
            events.append(CoolingDown(COOL_DOWN_S))
        events += run_start(plan, index) + run_end(plan, index)
    runs = entries(plan, len(plan.order))
    document = sweep_document(plan, runs, "completed")
    events.append(SweepFinished("completed", None, SESSION, Session(document)))
    return events


def fold(state: SweepState, events: list[StateEvent]) -> SweepState:
    for event in events:
        state.apply(event)
    return state


def test_a_run_going_shows_its_live_numbers_and_the_time_left() -> None:
    plan = plan_of()
    state = fold(state_of(plan), [SweepStarted("sweep-1", plan), *run_start(plan, 0)])
    assert state.session_id == "sweep-1"
    assert state.status == "running" and state.running
    assert state.going is not None and state.going.point.name == "c=2"
    assert state.live is not None and state.live.rps_now == 12_020.0
    assert state.eta_now == eta(plan, 0) - 3.0, "less the three seconds gone"
    assert state.fraction == pytest.approx(0.6 / 8)
    rows = state.rows()
    assert [r.going for r in rows] == [True, False, False, False]
    assert all(r.rps is None and r.done == 0 and r.planned == 2 for r in rows)


def test_every_run_event_goes_to_the_going_run_only() -> None:
    plan = plan_of()
    state = fold(state_of(plan), run_start(plan, 0))
    first = state.live
    fold(state, [*run_end(plan, 0), CoolingDown(COOL_DOWN_S), *run_start(plan, 1)])
    assert state.live is not first and first is not None
    assert first.finished is not None and first.finished.status == "completed"
    assert state.live is not None and state.live.finished is None
    assert len(state.live.rows) == 3


def test_an_ended_run_counts_and_brings_the_aggregates() -> None:
    plan = plan_of()
    state = fold(state_of(plan), run_start(plan, 0))
    # While the first run goes, no point has figures yet.
    assert state.summary is None and state.rows()[0].rps is None
    fold(state, run_end(plan, 0))
    assert state.going is None and state.done == 1
    assert state.last is not None and state.last.point.name == "c=2"
    assert state.eta_s == eta(plan, 1) and state.eta_now == eta(plan, 1)
    assert state.fraction == 1 / 8
    assert [r.done for r in state.rows()] == [1, 0, 0, 0]
    assert [r.rps for r in state.rows()] == [12_000.0, None, None, None]
    assert state.rows()[0].n == 1 and state.rows()[1].n == 0
    state.apply(CoolingDown(COOL_DOWN_S))
    assert state.status == "cooling down" and state.cooling_s == COOL_DOWN_S


def test_aggregates_fill_the_rows_and_find_the_knee() -> None:
    plan = plan_of()
    state = state_of(plan)
    for index in range(4):
        fold(state, [*run_start(plan, index), *run_end(plan, index)])
    rows = state.rows()
    assert [r.rps for r in rows] == [12_000.0, 14_000.0, 18_000.0, 26_000.0]
    assert rows[0].p99_s == pytest.approx(0.004, rel=0.01)
    assert rows[3].p99_s == pytest.approx(0.032, rel=0.01)
    assert rows[0].server_cpu_pct == 30.0 and rows[0].error_rate == 0.0
    assert [r.meets_slo for r in rows] == [True, True, True, False]
    assert state.knee == 2 and [r.knee for r in rows] == [False, False, True, False]


def test_only_an_ended_run_changes_the_aggregates() -> None:
    # The charts are redrawn when summary_version moves: not at every event of a run.
    plan = plan_of()
    state = fold(state_of(plan), run_start(plan, 0))
    assert state.summary_version == 0 and state.points_version == 1, "the run started"
    [finished, ended] = run_end(plan, 0)
    assert isinstance(ended, SweepRunFinished)
    fold(state, [finished])
    assert state.summary_version == 0
    fold(state, [ended])
    assert state.summary is ended.summary
    assert (state.summary_version, state.points_version) == (1, 2)


def test_the_end_takes_the_documents_aggregates() -> None:
    plan = plan_of()
    state = fold(state_of(plan), whole_sweep(plan))
    assert state.status == "completed" and not state.running
    assert state.fraction == 1.0 and state.eta_now == 0.0 and state.going is None
    assert state.done == 8
    assert state.finished is not None and state.finished.session_path == SESSION
    document = state.finished.session.doc
    assert state.summary is not None
    assert summary_record(state.summary) == {
        "points": document["points"],
        "knee": document["knee"],
    }
    rows = state.rows()
    assert [r.done for r in rows] == [2, 2, 2, 2]
    assert rows[0].rps == 12_050.0 and rows[0].rps_sd is not None
    assert state.knee == 2


def test_a_stopped_sweep_keeps_the_interrupted_run() -> None:
    plan = plan_of()
    events: list[StateEvent] = [*run_start(plan, 0), *run_end(plan, 0), *run_start(plan, 1)]
    events += run_end(plan, 1, "interrupted")
    runs = entries(plan, 2, "interrupted")
    message = "stopped after 2 of 8 runs; what ran is kept"
    document = sweep_document(plan, runs, "interrupted", message)
    events.append(SweepFinished("interrupted", message, SESSION, Session(document)))
    state = fold(state_of(plan), events)
    assert state.status == "interrupted"
    assert state.fraction == 2 / 8
    rows = state.rows()
    assert [r.done for r in rows] == [1, 1, 0, 0]
    assert rows[1].n == 0 and rows[1].rps is None, "only completed runs count"
    assert rows[0].meets_slo is True and rows[1].meets_slo is None


def test_a_saved_sweep_reads_as_it_ended() -> None:
    plan = plan_of()
    document = sweep_document(plan, entries(plan, 8), "completed")
    state = SweepState.of_session(Session(document), SESSION)
    assert state.status == "completed" and state.slo_text == SLO and len(state.slo) == 2
    assert [r.done for r in state.rows()] == [2, 2, 2, 2] and state.knee == 2
    title = SweepTitle.of_session(Session(document))
    assert title == SweepTitle("ramp", "h2load 1.52.0", URL)


def test_a_saved_sweep_with_an_unreadable_slo_shows_no_marks() -> None:
    plan = plan_of()
    document = sweep_document(plan, entries(plan, 8), "completed")
    document["sweep"]["slo"] = "p99<<3"
    state = SweepState.of_session(Session(document), SESSION)
    assert state.slo == () and all(r.meets_slo is None for r in state.rows())


def test_the_title_names_one_url_or_counts_them() -> None:
    plan = plan_of()
    assert SweepTitle.of_plan(plan.record(), "n", "h2load").target == URL
    base = Variant(None, RunRequest(RunSpec(urls=(URL,), requests=10)), {})
    urls = build_plan([base], [parse_vary("url=http://127.0.0.1:1/,http://127.0.0.1:2/")])
    assert SweepTitle.of_plan(urls.record(), "", "h2load").target == "2 URLs"


def test_run_events_before_any_run_are_ignored() -> None:
    plan = plan_of()
    state = state_of(plan)
    event: Event = Progress(1.0, 0.5, None, None)
    state.apply(event)
    assert state.live is None and state.status == "starting" and state.version == 1
