"""A steered run's segments at its end: what each achieved, and each judged on its own rate."""

from __future__ import annotations

from typing import Any

from tui_bench.engine.segment_track import SEGMENT_NOT_HELD, SegmentTrack
from tui_bench.engine.steering import Load
from tui_bench.records.segment import Segment
from tui_bench.spec import RunSpec

SPEC = RunSpec(urls=("http://127.0.0.1:8080/",), rate=1000, connections=10, duration_s=10)


def _rows(*rates: int) -> list[dict[str, Any]]:
    return [
        {"t_s": t, "window_s": 1.0, "requests": r, "rps": r, "backlog": 0}
        for t, r in enumerate(rates)
    ]


def test_each_segment_keeps_its_load_cause_and_what_it_achieved() -> None:
    track = SegmentTrack(Load(1000, 10))
    started = track.begin(2.0, 2.01, Load(1250, 10), "key")
    assert (started.index, started.target_rps, started.cause) == (1, 1250, "key")
    assert started.gap_s is not None and abs(started.gap_s - 0.01) < 1e-9
    paused = track.begin(4.0, 4.0, Load(1250, 10, paused=True), "pause")
    assert paused.paused
    resumed = track.begin(5.0, 5.01, Load(1250, 12), "key")
    # After a pause, no gap: nothing was running to leave one.
    assert resumed.gap_s is None
    segments, warnings = track.segments(
        SPEC,
        _rows(1000, 1000, 1250, 1250, 0, 1250),
        6.0,
        "valid",
        [2000, 2475, 0, 1237],
        [0.0, 2.01, None, 5.01],
    )
    assert segments == (
        Segment(0.0, 2.0, 1000, 10, "start", 1000.0, "valid"),
        Segment(2.01, 4.0, 1250, 10, "key", round(2475 / 1.99, 2), "valid"),
        Segment(4.0, 5.0, 0.0, 0, "pause", 0.0, None),
        Segment(5.01, 6.0, 1250, 12, "key", round(1237 / 0.99, 2), "valid"),
    )
    assert warnings == []


def test_a_segment_past_capacity_is_invalid_and_the_run_is_told_once() -> None:
    track = SegmentTrack(Load(1000, 10))
    track.begin(3.0, 3.0, Load(4000, 10), "key")
    segments, warnings = track.segments(
        SPEC, _rows(1000, 1000, 1000, 2500, 2500, 2500), 6.0, "valid", [3000, 7500], [0.0, 3.0]
    )
    assert [s.validity for s in segments] == ["valid", "invalid"]
    assert [w.code for w in warnings] == [SEGMENT_NOT_HELD]
    assert "segment 2 (3.0–6.0 s): 2,500 req/s of 4,000 asked" in warnings[0].message


def test_a_segment_is_timed_from_its_first_request_not_its_tools_start() -> None:
    # The first tool took 0.3 s to start and connect at a busy machine's lowered priority,
    # then sent at 400 req/s until its key: held, where its span from 0 says 356 req/s.
    track = SegmentTrack(Load(400, 4))
    track.begin(2.7, 2.71, Load(500, 4), "key")
    rows = _rows(280, 400, 400, 500, 500)
    segments, warnings = track.segments(SPEC, rows, 5.0, "valid", [960, 1145], [0.3, 2.71])
    assert [s.achieved_rps for s in segments] == [400.0, 500.0]
    assert [s.validity for s in segments] == ["valid", "valid"]
    assert warnings == []
    # Not known when the first was sent: the whole span, short of the rate.
    unknown, missed = SegmentTrack(Load(400, 4)).segments(SPEC, rows, 2.7, "valid", [960], [])
    assert unknown[0].achieved_rps == round(960 / 2.7, 2) and missed


def test_a_closed_loop_segment_takes_the_runs_verdict() -> None:
    closed = RunSpec(urls=SPEC.urls, connections=10, duration_s=4)
    track = SegmentTrack(Load(None, 10))
    track.begin(2.0, 2.0, Load(None, 20), "key")
    rows = _rows(900, 900, 1400, 1400)
    segments, warnings = track.segments(closed, rows, 4.0, "suspect", [1800, 2800], [])
    assert [(s.target_rps, s.connections, s.validity) for s in segments] == [
        (None, 10, "suspect"),
        (None, 20, "suspect"),
    ]
    assert warnings == []


def test_each_segment_has_the_latency_of_the_seconds_whose_middle_it_holds() -> None:
    import numpy as np

    from tui_bench.histogram import LatencyHistogram

    def second(us: int) -> LatencyHistogram:
        histogram = LatencyHistogram()
        histogram.add(np.full(100, us, dtype=np.int64))
        return histogram

    track = SegmentTrack(Load(1000, 10))
    track.begin(2.4, 2.41, Load(4000, 10), "key")
    track.begin(4.0, 4.0, Load(4000, 10, paused=True), "pause")
    for t_s, us in ((0, 1000), (1, 1000), (2, 9000), (3, 9000), (4, 500)):
        track.add_second(t_s, second(us))
    segments, _ = track.segments(
        SPEC, _rows(1000, 1000, 1000, 4000, 0), 5.0, "valid", [2400, 6360, 0], [None, None, None]
    )
    first, steered, paused = segments
    assert first.p99_s == 0.001 and steered.p50_s == 0.009
    # Second 2 (its middle at 2.5 s) is the steered segment's, not the first's.
    assert steered.p99_s == 0.009
    # A pause has no latency of its own: what completed then was sent before it.
    assert paused.p50_s is None and paused.p99_s is None
