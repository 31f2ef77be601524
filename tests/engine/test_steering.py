"""What a key asks of a run going on: the next segment's load, or why it cannot be."""

from __future__ import annotations

import pytest

from tui_bench.engine.steering import (
    FASTER,
    FEWER,
    MORE,
    PAUSE,
    SET_RATE,
    SLOWER,
    Load,
    SegmentPlan,
    steered,
)
from tui_bench.spec import RunSpec
from tui_bench.stages import parse_stages

URL = ("http://127.0.0.1:8080/",)
RATE = RunSpec(urls=URL, rate=1000, connections=10, duration_s=30)
CLOSED = RunSpec(urls=URL, connections=10, duration_s=30)


def test_the_rate_keys_move_it_a_quarter_and_back() -> None:
    load = Load.of(RATE)
    faster = steered(RATE, load, FASTER)
    assert faster == Load(1250, 10)
    assert isinstance(faster, Load)
    assert steered(RATE, faster, SLOWER) == load


def test_equals_sets_the_rate_asked() -> None:
    assert steered(RATE, Load.of(RATE), SET_RATE, 4200) == Load(4200, 10)


def test_the_connection_keys_add_and_remove_a_quarter() -> None:
    assert steered(CLOSED, Load.of(CLOSED), MORE) == Load(None, 12)
    assert steered(CLOSED, Load(None, 2), FEWER) == Load(None, 1)
    assert steered(CLOSED, Load(None, 1), FEWER) == "-t 1 needs at least 1 connections"


def test_space_pauses_and_resumes_any_h2load_run() -> None:
    paused = steered(CLOSED, Load.of(CLOSED), PAUSE)
    assert paused == Load(None, 10, paused=True)
    assert isinstance(paused, Load)
    assert steered(CLOSED, paused, PAUSE) == Load(None, 10)
    assert "space resumes it" in str(steered(CLOSED, paused, MORE))


@pytest.mark.parametrize(
    ("spec", "load", "change", "said"),
    [
        (CLOSED, Load(None, 10), FASTER, "a closed loop has no rate to change"),
        (RunSpec(urls=URL, tool="wrk", duration_s=5), Load(None, 10), MORE, "needs h2load"),
        (RunSpec(urls=URL, tool="ab", requests=100), Load(None, 10), PAUSE, "needs h2load"),
        (RATE, Load(10, 10), SLOWER, "under 1 req/s for each of 10 connections"),
        (RATE, Load(11, 10), MORE, "raise the rate first"),
        (
            RunSpec(urls=URL, rate=1000, duration_s=4, stages=parse_stages("1000:4s")),
            Load(1000, 10),
            FASTER,
            "follows its --stages",
        ),
    ],
)
def test_what_cannot_apply_is_refused_in_a_line(
    spec: RunSpec, load: Load, change: str, said: str
) -> None:
    refused = steered(spec, load, change)
    assert isinstance(refused, str)
    assert said in refused


def test_a_plan_goes_through_its_steps_each_ending_on_the_run_clock() -> None:
    stages = parse_stages("2000:4s,5000:1s,5000:4s")
    spec = RunSpec(urls=URL, rate=2000, duration_s=9, stages=stages)
    plan = SegmentPlan(spec)
    assert plan.first == Load(2000, 10)
    assert plan.step_end_s() == 4
    assert plan.next_step() == Load(3500, 10)
    assert plan.step_end_s() == 5
    assert plan.next_step() == Load(5000, 10)
    assert plan.step_end_s() == 9
    assert plan.next_step() is None


def test_a_run_without_stages_plans_one_load() -> None:
    plan = SegmentPlan(RATE)
    assert plan.first == Load(1000, 10)
    assert plan.step_end_s() is None
    assert plan.next_step() is None
