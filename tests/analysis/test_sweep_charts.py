"""The charts of `tuibench plot` as data: from the recorded sweeps (golden), and from small
documents for the shapes a recording here cannot give (categories, a logarithmic axis)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import asdict
from pathlib import Path
from typing import Any

import orjson
import pytest

from tests.factories import rate_sweep_doc
from tui_bench.analysis.names import CURVE
from tui_bench.analysis.sweep_charts import (
    METRICS,
    charts,
    curve_of,
    latency_rps_chart,
    metrics_of,
    run_charts,
    sweep_charts,
)
from tui_bench.errors import UsageError
from tui_bench.records.plan import Plan
from tui_bench.records.sweep_point import SweepSummary
from tui_bench.storage import store
from tui_bench.storage.session import Session

FIXTURES = Path(__file__).parents[1] / "fixtures"
EXAMPLE_RUN = Path(__file__).parents[2] / "sessions" / "20261121-112049-153-h2load-h2c-m10.json"


def drawn(doc: Mapping[str, Any]) -> tuple[Plan, SweepSummary]:
    session = Session(doc)
    return session.plan, session.summary


def test_the_charts_of_a_sweep_match_the_golden_file() -> None:
    # After a deliberate change, write the golden file again from this same expression.
    session = store.load(FIXTURES / "sweep-c-repeat2.json")
    drawn = orjson.loads(
        orjson.dumps([asdict(c) for c in charts(session, metrics_of(None, sweep=True))])
    )
    golden = orjson.loads((FIXTURES / "sweep-c-repeat2.charts.json").read_bytes())
    assert drawn == golden
    assert [c["title"].split(" vs ")[0] for c in drawn] == ["req/s", "latency", "server CPU"]


def test_a_second_parameter_gives_a_line_per_value() -> None:
    session = store.load(FIXTURES / "sweep-grid-interrupted.json")
    rps, p50 = sweep_charts(*drawn(session.doc), [METRICS["rps"], METRICS["p50"]])
    assert rps.x.label == "c" and rps.x.labels == ("2", "16")
    assert [line.name for line in rps.lines] == ["m=1", "m=8"]
    # Only c=2 completed: c=16 m=1 was interrupted, c=16 m=8 never ran.
    assert [line.x for line in rps.lines] == [(2.0,), (2.0,)]
    # With several lines the latencies get a chart each, and the knee is on its own line.
    assert p50.title == "p50 vs c"
    assert [(m.x, m.label) for m in p50.marks] == [(2.0, "knee (p99<5ms)")]
    assert p50.marks[0].y == p50.lines[0].y[0]


def point(index: int, values: dict[str, Any], rps: float, label: str | None = None) -> Any:
    return {"index": index, "name": "", "label": label, "values": values}, {
        "index": index,
        "rps": {"median": rps, "min": rps - 1, "max": rps + 1},
        "latency_spread": {"p99_s": {"median": 0.001 * (index + 1)}},
        "server_cpu_pct": {"mean": None},
        "error_rate": 0.0,
    }


def sweep_doc(vary: list[dict[str, Any]], labels: list[str], points: list[Any]) -> dict[str, Any]:
    return {
        "sweep": {"vary": vary, "labels": labels, "points": [p for p, _ in points]},
        "points": [a for _, a in points],
        "knee": None,
    }


def test_categories_are_evenly_spaced_and_named() -> None:
    doc = sweep_doc(
        [{"name": "tool", "values": ["h2load", "wrk", "ab"]}],
        [],
        [point(i, {"tool": t}, 1000.0 * (i + 1)) for i, t in enumerate(["h2load", "wrk", "ab"])],
    )
    (chart,) = sweep_charts(*drawn(doc), [METRICS["rps"]])
    assert chart.x.ticks == (1.0, 2.0, 3.0) and chart.x.labels == ("h2load", "wrk", "ab")
    assert chart.lines[0].x == (1.0, 2.0, 3.0) and chart.marks == ()


def test_labels_alone_are_the_x_axis_and_otherwise_name_the_lines() -> None:
    alone = sweep_doc([], ["old", "new"], [point(0, {}, 10.0, "old"), point(1, {}, 20.0, "new")])
    (chart,) = sweep_charts(*drawn(alone), [METRICS["rps"]])
    assert chart.x.label == "label" and chart.x.labels == ("old", "new")
    both = sweep_doc(
        [{"name": "c", "values": [1, 2]}],
        ["old", "new"],
        [
            point(i, {"c": c}, 10.0, label)
            for i, (label, c) in enumerate([("old", 1), ("old", 2), ("new", 1), ("new", 2)])
        ],
    )
    (chart,) = sweep_charts(*drawn(both), [METRICS["rps"]])
    assert chart.x.label == "c" and [line.name for line in chart.lines] == ["old", "new"]


def test_values_spanning_a_factor_of_ten_are_spaced_by_their_logarithm() -> None:
    values = [1, 4, 16, 64]
    doc = sweep_doc(
        [{"name": "c", "values": values}],
        [],
        [point(i, {"c": c}, 100.0) for i, c in enumerate(values)],
    )
    (chart,) = sweep_charts(*drawn(doc), [METRICS["p99"]])
    assert chart.x.label == "c (log scale)"
    assert chart.x.ticks == tuple(math.log10(v) for v in values)
    assert chart.x.labels == ("1", "4", "16", "64")
    assert chart.lines[0].y == pytest.approx((1.0, 2.0, 3.0, 4.0))  # in ms


def test_a_single_run_is_drawn_over_time() -> None:
    session = store.load(EXAMPLE_RUN)
    rps, latency = charts(session, metrics_of("rps,p50,p99", sweep=False))
    assert rps.title == "req/s over the run" and rps.x.label == "time (s)"
    # Each second where it ends, from the first: 1 s, 2 s ...
    assert rps.lines[0].x == tuple(float(r["t_s"]) + 1 for r in session.series)
    assert latency.title == "latency over the run"
    assert [line.name for line in latency.lines] == ["p50", "p99"]
    assert latency.lines[1].y[0] == session.series[0]["p99_s"] * 1e3


def test_metrics_by_name() -> None:
    assert [m.name for m in metrics_of(None, sweep=True)] == ["rps", "p50", "p99", "max", "cpu"]
    assert [m.name for m in metrics_of(None, sweep=False)] == ["rps", "p99"]
    assert [m.name for m in metrics_of("p99, rps,p99", sweep=True)] == ["p99", "rps"]
    with pytest.raises(UsageError, match="'p42': not one of rps"):
        metrics_of("p42", sweep=True)
    with pytest.raises(UsageError, match="per-second series has only"):
        metrics_of("errors", sweep=False)


def test_nothing_to_plot_is_a_usage_error() -> None:
    session = store.load(FIXTURES / "sweep-grid-interrupted.json")
    doc = dict(session.doc)
    doc["points"] = [p | {"n": 0, "rps": {"median": None}} for p in doc["points"]]
    unmeasured = {"latency": {}, "latency_spread": {}, "server_cpu_pct": {"mean": None}}
    doc["points"] = [p | unmeasured for p in doc["points"]]
    with pytest.raises(UsageError, match="nothing to plot: no run of the sweep completed"):
        charts(Session(doc), metrics_of(None, sweep=True))
    assert run_charts([], [METRICS["rps"]])[0].empty


def test_an_invalid_point_is_marked_on_every_chart() -> None:
    session = store.load(FIXTURES / "sweep-c-repeat2.json")
    doc = dict(session.doc)
    invalid = {"verdict": "invalid", "reasons": [{"code": "errors", "message": "x"}]}
    doc["points"] = [{**p, "validity": invalid} if p["index"] == 1 else p for p in doc["points"]]
    for chart in charts(Session(doc), metrics_of(None, sweep=True)):
        marked = [(m.x, m.label) for m in chart.marks if m.kind == "invalid"]
        assert marked and {x for x, _ in marked} == {32.0} and marked[0][1] == "invalid"


def test_a_rate_sweep_draws_its_latencies_against_the_req_s_achieved() -> None:
    doc = rate_sweep_doc(store.load(FIXTURES / "sweep-c-repeat2.json").doc)
    chart = latency_rps_chart(*drawn(doc))
    assert chart.log_y and chart.unit == "ms" and chart.x.label == "achieved req/s"
    assert [line.name for line in chart.lines] == ["p50", "p99", "p99.9"]
    # By rate asked (not the search's order), at the req/s achieved; the closed-loop peak,
    # timed from the send, is not on it.
    for line in chart.lines:
        assert line.x == (2_000.0, 10_000.0, 17_800.0)
    p50, p99, p99_9 = chart.lines
    assert p50.y == pytest.approx((1.0, 1.5, 10.0))
    assert p99.y == pytest.approx((2.0, 4.0, 150.0))
    assert p99_9.y == pytest.approx((3.0, 6.0, 400.0))
    knees = [(m.x, m.y) for m in chart.marks if m.kind == "knee"]
    assert knees == pytest.approx([(10_000.0, 1.5), (10_000.0, 4.0), (10_000.0, 6.0)])
    assert {m.x for m in chart.marks if m.kind == "invalid"} == {17_800.0}


def test_the_latency_throughput_chart_comes_by_default_only_where_rate_varies() -> None:
    rated = Session(rate_sweep_doc(store.load(FIXTURES / "sweep-c-repeat2.json").doc))
    by_c = store.load(FIXTURES / "sweep-c-repeat2.json")
    assert curve_of(None, rated) and not curve_of(None, by_c)
    assert curve_of(f"rps,{CURVE}", rated) and not curve_of("rps", rated)
    with pytest.raises(UsageError, match="only for a sweep that varies rate"):
        curve_of(CURVE, by_c)
    # The curve is a chart of its own: a run (a steered one) takes it too.
    assert metrics_of(CURVE, sweep=True) == metrics_of(CURVE, sweep=False) == ()
    with pytest.raises(UsageError, match="not one of"):
        metrics_of("p42", sweep=False)
    drawn = charts(rated, metrics_of(None, sweep=True), curve=True)
    assert drawn[0].x.label == "rate" and drawn[-1].log_y
