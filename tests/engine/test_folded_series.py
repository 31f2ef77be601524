"""The whole run's chart in bounded memory: older seconds folded, nothing misstated."""

from __future__ import annotations

import pytest

from tests.engine.test_replay import make_session
from tui_bench.engine.folded_series import POINTS, ChartPoint, FoldedSeries
from tui_bench.engine.live_state import LiveState
from tui_bench.engine.replay import timeline


def test_a_short_run_keeps_each_second_as_it_was() -> None:
    series = FoldedSeries()
    for t in range(1, 11):
        series.add(ChartPoint(float(t), 100.0 * t, 0.001 * t))
    shown = series.shown()
    assert [(p.t_s, p.rps, p.p99_s) for p in shown] == [
        (float(t), 100.0 * t, 0.001 * t) for t in range(1, 11)
    ]


def test_a_day_keeps_as_many_points_as_ten_minutes_and_no_request_is_lost() -> None:
    series = FoldedSeries()
    day = 86_400
    for t in range(1, day + 1):
        # One bad second in the day: its p99 stays on the chart, however folded.
        series.add(ChartPoint(float(t), 1000.0 + (t % 7), 2.5 if t == 50_000 else 0.01))
    shown = series.shown()
    assert len(shown) <= POINTS + 1
    assert shown[-1].t_s == day
    assert sum(p.span_s for p in shown) == day
    requests = sum(p.rps * p.span_s for p in shown)
    assert requests == pytest.approx(sum(1000.0 + (t % 7) for t in range(1, day + 1)))
    assert max(p.p99_s or 0 for p in shown) == 2.5
    assert series.resolution == 256


def test_the_chart_spans_the_whole_run_or_its_last_seconds() -> None:
    session = make_session(seconds=6)
    state = LiveState(session.spec)
    for event in timeline(session).events:
        state.apply(event)
    whole = state.chart_points()
    assert [p.t_s for p in whole] == [p.t_s for p in state.chart_points(600.0)]
    last = state.chart_points(2.0)
    assert len(last) == 2 and last[-1].t_s == whole[-1].t_s
    assert [p.rps for p in last] == [p.rps for p in whole[-2:]]
