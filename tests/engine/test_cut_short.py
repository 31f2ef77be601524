"""When the engine ends a run on the server's account, on a clock of the test's own."""

from __future__ import annotations

from tui_bench.engine.cut_short import END_GRACE_S, OVER_GRACE_S, CutShort
from tui_bench.records.warning import Warning
from tui_bench.spec import RunSpec

URL = ("http://127.0.0.1:8080/",)


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def guard(spec: RunSpec) -> tuple[CutShort, Clock, list[Warning]]:
    clock = Clock()
    said: list[Warning] = []
    return CutShort(spec, 2.0, clock, said.append), clock, said


def test_a_count_that_moves_is_never_cut_one_that_stands_still_is() -> None:
    cut, clock, said = guard(RunSpec(urls=URL, requests=100))
    for step in range(1, 40):
        clock.now = step * 0.1
        assert not cut.due(step, counted=True)
    clock.now = 5.8
    assert not cut.due(39, counted=True)
    clock.now = 5.92
    assert cut.due(39, counted=True)
    assert [w.code for w in said] == ["stall-timeout"]
    assert "nothing answered for 2.0 s" in said[0].message
    assert "stopped 5.9 s into the run with 39 of 100 requests done" in said[0].message


def test_a_count_the_engine_cannot_follow_is_left_to_the_tool() -> None:
    cut, clock, said = guard(RunSpec(urls=URL, tool="ab", requests=100))
    clock.now = 60.0
    assert not cut.due(None, counted=False)
    assert cut.reason("apr_pollset_poll: The timeout specified has expired (70007)", None)
    assert not said


def test_ab_is_stopped_on_time_and_any_tool_well_past_it() -> None:
    ab, clock, _ = guard(RunSpec(urls=URL, tool="ab", duration_s=3))
    clock.now = 3 + END_GRACE_S - 0.05
    assert not ab.due(0, counted=False)
    clock.now = 3 + END_GRACE_S + 0.05
    assert ab.due(0, counted=False) and ab.ended_on_time and not ab.overran
    h2load, clock, said = guard(RunSpec(urls=URL, duration_s=3))
    clock.now = 3 + END_GRACE_S + 0.05
    assert not h2load.due(0, counted=True), "h2load keeps its own time"
    clock.now = 13.5
    assert h2load.due(0, counted=True) and h2load.overran and not said


def test_a_tool_that_said_its_time_is_over_and_hangs_ended_on_time() -> None:
    h2load, clock, said = guard(RunSpec(urls=URL, duration_s=3))
    clock.now = 3.02
    h2load.said_over(3.02)
    h2load.said_over(4.0)  # the first time it said so is kept
    clock.now = 3.02 + OVER_GRACE_S - 0.05
    assert not h2load.due(0, counted=True), "answers still coming from a slow server"
    clock.now = 3.02 + OVER_GRACE_S + 0.05
    assert h2load.due(0, counted=True) and h2load.ended_on_time and not h2load.overran
    assert h2load.over_s == 3.02 and not said


def test_the_first_reason_is_the_one_kept_and_said_once() -> None:
    cut, clock, said = guard(RunSpec(urls=URL, duration_s=10))
    clock.now = 2.04
    cut.lost("pid 7 exited")
    clock.now = 2.5
    cut.lost("pid 7 exited")
    assert len(said) == 1 and cut.warning == said[0]
    assert said[0].message.startswith("the server was lost 2.0 s into the run (pid 7 exited)")
    assert cut.due(0, counted=True)
