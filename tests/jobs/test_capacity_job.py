"""The capacity job over scripted runs: the peak first, then a step at a time, every step
a point of one sweep session, the knee the capacity; and what it refuses before any load."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.engine.test_sweep import TOOL, URL, Script, ScriptedRun
from tui_bench.analysis.thresholds import parse_slo
from tui_bench.engine.events import Listener
from tui_bench.engine.sweep import SweepExtended, SweepOptions, SweepRunner, Target
from tui_bench.errors import UsageError
from tui_bench.jobs.capacity_job import CapacityJob, peak_plan
from tui_bench.jobs.settings import JobSettings
from tui_bench.jobs.sweep_job import SweepJob
from tui_bench.report.capacity_report import capacity_exit_code, capacity_lines, capacity_payload
from tui_bench.request.run import RunRequest
from tui_bench.request.sweep_plan import Point
from tui_bench.spec import RunSpec
from tui_bench.storage import store

SLO = "p99<20ms"


def search(tmp_path: Path, script: Script, repeat: int = 1) -> tuple[SweepRunner, list[Any]]:
    request = RunRequest(RunSpec(urls=(URL,), connections=10))
    plan = peak_plan(request, JobSettings(), 1.0, repeat)
    options = SweepOptions(
        cool_down_s=0.0, slo=tuple(parse_slo(SLO)), slo_text=SLO, search={"kind": "capacity"}
    )
    job = CapacityJob(SweepJob(plan, (Target(TOOL, None),), options, None), options.slo, 0.05)

    def make(point: Point, target: Target, work: Path, listener: Listener) -> ScriptedRun:
        return ScriptedRun(point, work, listener, script)

    events: list[Any] = []
    runner = SweepRunner(
        plan,
        job.sweep.targets,
        options,
        store_dir=tmp_path,
        listener=events.append,
        controller=make,
        extend=job.extend,
    )
    return runner, events


async def test_the_capacity_is_found_below_the_peak_and_every_step_is_kept(
    tmp_path: Path,
) -> None:
    # The closed loop does 10,000 req/s (c=10); above 6,000 req/s the answers take 30 ms.
    def latencies(point: Point, nth: int) -> list[int]:
        return [30_000 if (point.spec.rate or 0) > 6000 else 1000] * 100

    runner, events = search(tmp_path, Script(latencies=latencies), repeat=2)
    finished = await runner.run()
    payload = capacity_payload(finished)
    assert payload["found"] and payload["peak_rps"] == pytest.approx(10_000.5)
    assert 6000 * 0.95 <= payload["capacity_rps"] <= 6000
    assert payload["lowest_rate"] == 1000.0 and payload["repeat"] == 2
    assert payload["achieved_rps"]["n"] == 2
    rates = [s["rate"] for s in payload["steps"]]
    assert rates[:2] == [1000.0, 5500.0], "the lowest, then the middle up to the peak"
    assert [s["held"] for s in payload["steps"]] == [r <= 6000 for r in rates]
    assert sum(isinstance(e, SweepExtended) for e in events) == len(rates)
    session = store.load(finished.session_path)
    plan = session.doc["sweep"]
    assert [p["name"] for p in plan["points"]] == [
        "rate=closed",
        *(f"rate={r:g}" for r in rates),
    ]
    assert plan["vary"] == [{"name": "rate", "values": rates}] and plan["search"]
    # Each step's repeats before the next step: the search chooses from them.
    assert [(r["point"], r["repeat"]) for r in session.doc["runs"]][:4] == [
        (0, 0),
        (0, 1),
        (1, 0),
        (1, 1),
    ]
    assert len(session.doc["runs"]) == 2 * (1 + len(rates))
    assert capacity_exit_code(finished) == 0
    assert capacity_lines(finished)[1].startswith(f"capacity  {payload['capacity_rps']:,.0f}")


async def test_not_even_the_lowest_rate_holding_exits_1(tmp_path: Path) -> None:
    runner, _ = search(tmp_path, Script(capacity=500.0))
    finished = await runner.run()
    payload = capacity_payload(finished)
    assert not payload["found"] and payload["capacity_rps"] is None
    assert [s["rate"] for s in payload["steps"]] == [1000.0]
    assert capacity_exit_code(finished) == 1
    assert "the lowest rate, 1,000 req/s, did not hold" in capacity_lines(finished)[1]


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        (RunSpec(urls=(URL,), rate=100.0), "drop --rate"),
        (RunSpec(urls=(URL,), requests=1000), "drop -n"),
        (RunSpec(urls=(URL,), tool="wrk"), "capacity: --rate needs h2load"),
    ],
)
def test_what_cannot_be_searched_is_refused_before_any_load(spec: RunSpec, message: str) -> None:
    with pytest.raises(UsageError, match=message):
        peak_plan(RunRequest(spec), JobSettings(), 1.0, 1)
