"""The requests of each second from a running count timed as it arrives."""

from __future__ import annotations

import pytest

from tui_bench.engine.count_seconds import CountSeconds


def test_a_second_ends_between_two_counts_on_the_line_through_them() -> None:
    counts = CountSeconds()
    counts.observe(0.95, 950)
    assert counts.due(1.02) == [], "no count from after the edge yet"
    counts.observe(1.05, 1150)
    # 950 + 200 × (0.05 / 0.1): not the 950 last seen before the edge.
    assert counts.due(1.06) == [(0, 1050)]


def test_counts_a_line_interval_apart_give_even_seconds_for_an_even_rate() -> None:
    counts = CountSeconds()
    rows = []
    for step in range(1, 61):
        t = step * 0.05 + 0.013  # lines come at no second's edge
        counts.observe(t, round(t * 10_000))
        rows += counts.due(t)
    assert rows == [(0, 10_000), (1, 10_000), (2, 10_000)]


def test_without_a_later_count_a_second_closes_after_the_grace_on_the_last_one() -> None:
    counts = CountSeconds(grace_s=0.5)
    counts.observe(0.4, 400)  # then nothing went out: a stall
    assert counts.due(1.4) == []
    assert counts.due(1.5) == [(0, 400)]
    assert counts.due(2.5) == [(1, 0)]


def test_the_last_second_takes_what_the_total_leaves() -> None:
    counts = CountSeconds()
    counts.observe(0.9, 900)
    counts.observe(1.1, 1100)
    counts.observe(2.2, 2200)  # issued: a few still in flight at the end
    rows = counts.finish(2.4, total=2390)
    assert rows == [(0, 1000), (1, 1000), (2, 390)]
    assert sum(n or 0 for _, n in rows) == 2390


def test_without_a_total_the_last_count_closes_the_run() -> None:
    counts = CountSeconds()
    counts.observe(0.5, 500)
    assert counts.finish(0.7, total=None) == [(0, 500)]


@pytest.mark.parametrize("total", [None, 5000])
def test_no_count_at_all_is_unknown_not_zero(total: int | None) -> None:
    """wrk without its hook tells nothing per second, even with a total at the end."""
    counts = CountSeconds()
    assert counts.due(3.0) == [(0, None), (1, None)]
    assert counts.finish(2.5, total) == [(2, None)]


def test_a_count_that_goes_back_is_ignored() -> None:
    counts = CountSeconds()
    counts.observe(0.5, 500)
    counts.observe(0.7, 400)
    assert counts.finish(1.0, total=None) == [(0, 500)]


def test_seconds_before_the_first_count_stay_unknown_and_keep_their_requests() -> None:
    """ab in -t mode counts every tenth of its -n: its first line can come seconds in."""
    counts = CountSeconds()
    assert counts.due(3.0) == [(0, None), (1, None)]
    counts.observe(4.0, 80_000)
    # Not 60,000 in second 2: the requests of seconds 0 and 1 are theirs, unknown.
    assert counts.finish(5.0, total=100_000) == [(2, 20_000), (3, 20_000), (4, 20_000)]
