"""The capacity search against a fake server of known capacity: each step holds when its
rate is at most the capacity."""

from __future__ import annotations

import pytest

from tui_bench.analysis.capacity import MAX_STEPS, Search, Step, step_duration
from tui_bench.analysis.names import LOWEST_SHARE
from tui_bench.analysis.warnings import MIN_SAMPLES_FOR_P99


def search(peak: float, capacity: float, resolution: float = 0.05) -> list[Step]:
    """Every step the search runs against a server that holds any rate up to `capacity`."""
    steps: list[Step] = []
    the_search = Search(peak, resolution)
    while (rate := the_search.next_rate(steps)) is not None:
        steps.append(Step(rate, rate <= capacity))
    return steps


@pytest.mark.parametrize("capacity", [1_500.0, 4_321.0, 7_000.0, 9_990.0, 12_000.0])
@pytest.mark.parametrize("resolution", [0.05, 0.25])
def test_a_known_capacity_is_found_within_the_resolution(
    capacity: float, resolution: float
) -> None:
    steps = search(10_000.0, capacity, resolution)
    found = max(s.rate for s in steps if s.held)
    top = min(capacity, 10_000.0)
    assert found <= top
    # The interval left is within the resolution of its top (rates have 3 significant
    # figures: half a unit of the third more).
    assert found >= top * (1 - resolution) - 0.005 * top
    assert steps[0] == Step(10_000.0 * LOWEST_SHARE, True), "the lowest first"
    assert len(steps) <= MAX_STEPS
    assert all(s.rate < 10_000.0 for s in steps), "never past the closed-loop peak"


def test_the_search_stops_when_not_even_the_lowest_rate_holds() -> None:
    steps = search(10_000.0, capacity=500.0)
    assert steps == [Step(1_000.0, False)]
    assert Search(10_000.0).bounds(steps) == (None, 1_000.0)


def test_a_failure_below_a_held_rate_is_noise_the_knee_ignores_too() -> None:
    steps = [Step(1_000.0, True), Step(5_500.0, True), Step(3_000.0, False)]
    assert Search(10_000.0).bounds(steps) == (5_500.0, 10_000.0)
    assert Search(10_000.0).next_rate(steps) == 7_750.0


@pytest.mark.parametrize("peak", [0.0, float("nan"), float("inf")])
def test_no_peak_no_search(peak: float) -> None:
    assert Search(peak).next_rate([]) is None


def test_rates_are_rounded_to_three_figures() -> None:
    assert Search(12_548.0).lowest == 1_250.0
    assert Search(12_548.0).next_rate([Step(1_250.0, True)]) == 6_900.0


def test_a_slow_step_lasts_long_enough_for_its_p99() -> None:
    # 568 req/s for 1.2 s gives 680 requests: too few for a p99 (a held rate left untold).
    assert step_duration(1.2, 568) == 2.2
    assert step_duration(1.2, 568) * 568 >= MIN_SAMPLES_FOR_P99
    # A fast step keeps the duration asked for.
    assert step_duration(1.2, 50_000) == 1.2
