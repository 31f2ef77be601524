"""A steered run's segments in every view: the export's table and CSV, the result's row, the
headless line as each begins, compare's like with like, and replay's events."""

from __future__ import annotations

import csv
import io
from typing import Any

import orjson

from tests.engine.test_replay import session_doc
from tui_bench.analysis.like_segments import like_segments
from tui_bench.cli.progress import segment_line
from tui_bench.engine.events import SegmentStarted
from tui_bench.engine.live_state import LiveState
from tui_bench.engine.replay import timeline
from tui_bench.records.segment import Segment
from tui_bench.report.export import export
from tui_bench.report.segments_text import segments_text
from tui_bench.spec import RunSpec
from tui_bench.storage.segment_codec import segment_record
from tui_bench.storage.session import Session

SEGMENTS = (
    Segment(0.0, 2.0, 1000.0, 10, "start", 996.0, "valid"),
    Segment(2.006, 4.0, 4000.0, 10, "key", 2500.0, "invalid"),
    Segment(4.0, 5.0, 0.0, 0, "pause", 0.0, None),
    Segment(5.007, 6.0, 1250.0, 12, "key", 1244.0, "valid"),
)


def steered_doc() -> dict[str, Any]:
    doc = session_doc(6)
    doc["spec"] = RunSpec(
        urls=("http://127.0.0.1:8080/",), rate=1000, connections=10, duration_s=6
    ).to_dict()
    doc["segments"] = [segment_record(s) for s in SEGMENTS]
    return doc


def test_the_segments_export_is_a_row_per_segment() -> None:
    rows = list(csv.DictReader(io.StringIO(export(Session(steered_doc()), "segments"))))
    assert [r["cause"] for r in rows] == ["start", "key", "pause", "key"]
    assert rows[1]["target_rps"] == "4000.0" and rows[1]["validity"] == "invalid"
    assert rows[2]["validity"] == ""
    # A run never steered is one segment, its whole.
    (whole,) = csv.DictReader(io.StringIO(export(Session(session_doc(6)), "segments")))
    assert whole["cause"] == "start" and whole["end_s"] == "6.0"


def test_the_markdown_has_a_segments_table_only_when_steered() -> None:
    steered = export(Session(steered_doc()), "md")
    assert "## Segments (4)" in steered
    assert "| 2.006–4.000 s | key | 4,000 | 10 | 2,500 | invalid |" in steered
    assert "## Segments" not in export(Session(session_doc(6)), "md")


def test_the_result_row_says_each_load_in_turn() -> None:
    assert segments_text(SEGMENTS) == (
        "1,000 c10 → 4,000 (not held: 2,500) → paused 1.0 s → 1,250 c12 req/s, gaps up to 6.00 ms"
    )
    assert segments_text(SEGMENTS[:1]) is None
    ramp = tuple(
        Segment(float(t), t + 1.0, 100.0 * (t + 1), 4, "stage", 100.0 * (t + 1), "valid")
        for t in range(10)
    )
    assert segments_text(ramp) == "10: 100 c4 … 1,000 req/s, gaps up to <1 ms"


def test_the_headless_line_as_a_segment_begins() -> None:
    begun = SegmentStarted(2, 12.34, 1250.0, 10, "key", gap_s=0.0062)
    assert (
        segment_line(begun) == "[  12.3s] segment 3: 1,250 req/s c10 (key), after a gap of 6.20 ms"
    )
    paused = SegmentStarted(3, 14.0, 1250.0, 10, "pause", paused=True)
    assert segment_line(paused) == "[  14.0s] segment 4: load paused (pause)"


def test_compare_pairs_like_loads_in_order() -> None:
    other = (
        Segment(0.0, 2.0, 1000.0, 10, "start", 990.0, "valid"),
        Segment(2.005, 6.0, 4000.0, 10, "key", 3900.0, "valid"),
    )
    pairs = like_segments(SEGMENTS, other)
    assert [(p.target_rps, p.connections) for p in pairs] == [(1000, 10), (4000, 10), (1250, 12)]
    assert pairs[1].delta_pct == (3900 - 2500) / 2500 * 100
    assert pairs[2].b is None and pairs[2].delta_pct is None
    assert like_segments(SEGMENTS[:1], other[:1]) == []
    assert orjson.loads(orjson.dumps(pairs[0].to_dict()))["a"]["achieved_rps"] == 996.0


def test_replay_plays_each_segment_as_it_began() -> None:
    played = timeline(Session(steered_doc()))
    state: LiveState = played.state_at(4.5)
    assert state.segment is not None and state.segment.paused
    assert state.target_rps == 0.0
    state = played.state_at(3.0)
    assert state.target_rps == 4000.0
    assert state.segment is not None and state.segment.gap_s == 0.006
    state = played.state_at(5.5)
    assert (state.target_rps, state.load_spec.connections) == (1250.0, 12)
    # After a pause, no gap is said: nothing ran to leave one.
    assert state.segment is not None and state.segment.gap_s is None


def test_a_steered_run_plots_a_point_per_segment_on_its_curve() -> None:
    from tui_bench.analysis.sweep_charts import charts, curve_of, metrics_of, segments_chart

    measured = (
        Segment(0.0, 2.0, 1000.0, 10, "start", 996.0, "valid", 0.0004, 0.002),
        Segment(2.006, 4.0, 4000.0, 10, "key", 2500.0, "invalid", 0.05, 0.2),
        Segment(4.0, 5.0, 0.0, 0, "pause", 0.0, None),
    )
    chart = segments_chart(measured)
    p50, p99 = chart.lines
    assert (p50.x, p99.y) == ((996.0, 2500.0), (2.0, 200.0))
    assert [(m.kind, m.x) for m in chart.marks] == [("invalid", 2500.0), ("invalid", 2500.0)]
    doc = steered_doc()
    doc["segments"] = [segment_record(s) for s in measured]
    session = Session(doc)
    assert curve_of(None, session)
    drawn = charts(session, metrics_of(None, sweep=False), curve=True)
    assert drawn[-1].title == "latency vs achieved req/s, a point per segment"
    assert not curve_of(None, Session(session_doc(6)))
