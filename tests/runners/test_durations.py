"""The stretch of a timed run a moment falls in: warm-up apart from the measured window."""

from __future__ import annotations

import pytest

from tui_bench.engine.tool_progress import ToolProgress
from tui_bench.parsers.live import LiveLine
from tui_bench.runners.durations import Stretch, measured_at, stretch_at, whole_at
from tui_bench.spec import RunSpec

URL = ("http://127.0.0.1:9/",)
WARMED = RunSpec(urls=URL, duration_s=4, warm_up_s=1).validate()


@pytest.mark.parametrize(
    ("t_s", "expected"),
    [
        (0.0, Stretch(True, 0.0)),
        (0.5, Stretch(True, 0.5)),
        (1.0, Stretch(True, 1.0)),
        (2.0, Stretch(False, 0.25)),
        (5.0, Stretch(False, 1.0)),
        (7.0, Stretch(False, 1.0)),
    ],
)
def test_a_warm_up_is_a_stretch_of_its_own(t_s: float, expected: Stretch) -> None:
    assert stretch_at(WARMED, t_s) == expected


def test_without_warm_up_the_run_is_measured_from_its_start() -> None:
    spec = RunSpec(urls=URL, duration_s=4).validate()
    assert stretch_at(spec, 0.0) == Stretch(False, 0.0)
    assert stretch_at(spec, 1.0) == Stretch(False, 0.25)


@pytest.mark.parametrize(
    ("t_s", "measured", "whole"),
    [(0.5, 0.0, 0.1), (1.0, 0.0, 0.2), (3.0, 2.0, 0.6), (5.0, 4.0, 1.0), (7.0, 4.0, 1.0)],
)
def test_the_measured_window_follows_the_warm_up_up_to_d(
    t_s: float, measured: float, whole: float
) -> None:
    assert measured_at(WARMED, t_s) == measured
    assert whole_at(WARMED, t_s) == whole


def test_without_warm_up_every_second_is_measured_and_a_count_has_no_whole() -> None:
    # h2load's `finished in` past -d is kept as it said.
    assert measured_at(RunSpec(urls=URL, duration_s=4).validate(), 4.2) == 4.2
    assert whole_at(RunSpec(urls=URL, requests=100).validate(), 1.0) is None


def test_a_count_run_has_no_stretch() -> None:
    assert stretch_at(RunSpec(urls=URL, requests=100).validate(), 1.0) is None


def test_the_live_progress_says_the_warm_up_then_fills_the_measured_window() -> None:
    progress = ToolProgress(WARMED)
    assert progress.at(0.5) == (0.5, "warm-up")
    # Half the measured window, not 3 s of the 5 planned.
    assert progress.at(3.0) == (0.5, None)


def test_the_time_is_over_once_every_thread_said_so() -> None:
    progress = ToolProgress(RunSpec(urls=URL, duration_s=2, threads=2, connections=4))
    progress.seen(LiveLine(phase="done", thread=0))
    assert not progress.time_over
    progress.seen(LiveLine(phase="done", thread=0))
    assert not progress.time_over
    progress.seen(LiveLine(phase="done", thread=1))
    assert progress.time_over
    # h2load runs no more threads than connections.
    one = ToolProgress(RunSpec(urls=URL, duration_s=2, threads=4, connections=1))
    one.seen(LiveLine(phase="done", thread=0))
    assert one.time_over
