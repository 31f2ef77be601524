"""The metrics a second is told as: classes that add up to the second's requests, unknown
left out (never 0), counters that add up to the run's, the load of the segment a second
falls in, stamps at the end of each window."""

from __future__ import annotations

from typing import Any

import numpy as np

from tui_bench.histogram import LatencyHistogram
from tui_bench.metrics.catalogue import (
    FAMILIES,
    SERIES,
    Load,
    RunLabels,
    SeriesTotals,
    generator_label,
    histogram_points,
    load_at,
    started_s,
)

LABELS = RunLabels("s1", "", "h2load", "h2c", "local", started_s("2026-11-28T12:00:00+00:00"))


def _values(rows: list[dict[str, Any]]) -> dict[Any, Any]:
    totals = SeriesTotals()
    seen: dict[Any, Any] = {}
    for row in rows:
        for series in SERIES:
            value = totals.value(series, row, None)
            if value is not None:
                seen[(series.family.sample_name, series.labels)] = value
    return seen


def _row(t_s: int, **figures: Any) -> dict[str, Any]:
    return {"t_s": t_s, "window_s": 1.0, **figures}


def test_the_classes_add_up_to_the_requests_and_the_counter_to_the_run() -> None:
    rows = [
        _row(0, requests=100, **{"2xx": 90, "3xx": 2, "4xx": 3, "5xx": 1}, rps=100.0),
        _row(1, requests=50, **{"2xx": 50, "3xx": 0, "4xx": 0, "5xx": 0}, rps=50.0),
    ]
    seen = _values(rows)
    counts = {
        labels[0][1]: v for (name, labels), v in seen.items() if name == "tuibench_requests_total"
    }
    assert counts == {"2xx": 140, "3xx": 2, "4xx": 3, "5xx": 1, "none": 4}
    assert sum(counts.values()) == 150
    assert seen[("tuibench_requests_per_second", ())] == 50.0


def test_a_tool_without_classes_counts_as_unknown_and_unknown_figures_are_left_out() -> None:
    seen = _values([_row(0, requests=70, rps=70.0, p99_s=None)])
    counts = {labels: v for (name, labels), v in seen.items() if name == "tuibench_requests_total"}
    assert counts == {(("status_class", "unknown"),): 70}
    assert not any(name == "tuibench_latency_seconds" for name, _ in seen)
    assert not any(name == "tuibench_target_requests_per_second" for name, _ in seen)


def test_the_load_is_the_segment_the_seconds_middle_falls_in() -> None:
    loads = [(0.0, Load(1000.0, 4)), (2.4, Load(2000.0, 8)), (3.6, Load(None, 0))]
    targets = [load_at(loads, _row(t)) for t in range(5)]
    paused = Load(None, 0)
    assert targets == [Load(1000.0, 4), Load(1000.0, 4), Load(2000.0, 8), Load(2000.0, 8), paused]
    assert load_at([], _row(0)) is None


def test_figures_are_pushed_as_the_session_keeps_them() -> None:
    seen = _values([_row(0, requests=3, rps=2.123456, p50_s=0.000123456789)])
    assert seen[("tuibench_requests_per_second", ())] == 2.12
    assert seen[("tuibench_latency_seconds", (("quantile", "0.5"),))] == 0.0001235


def test_a_second_is_stamped_at_the_end_of_its_window() -> None:
    start = LABELS.started_s * 1000
    assert LABELS.stamp_ms(_row(4)) == start + 5000
    assert LABELS.stamp_ms({"t_s": 9, "window_s": 0.25}) == start + 9250


def test_labels_name_the_run_and_leave_out_what_it_has_not() -> None:
    assert LABELS.labels() == (
        ("session", "s1"),
        ("tool", "h2load"),
        ("protocol", "h2c"),
        ("generator", "local"),
    )
    assert generator_label([]) == "local"
    assert generator_label(["a@h1", "h2"]) == "a@h1+h2"


def test_every_family_is_named_as_prometheus_wants_it() -> None:
    names = [f.name for f in FAMILIES]
    assert len(names) == len(set(names))
    for family in FAMILIES:
        assert family.name.startswith("tuibench_")
        assert not family.name.endswith("_total")
        assert not family.unit or family.name.endswith(f"_{family.unit}")


def test_the_histogram_is_cumulative_with_inf_count_and_sum() -> None:
    # Below 128 µs a bucket is one microsecond: counted exactly.
    values = np.arange(10, 128, dtype=np.int64)
    histogram = LatencyHistogram()
    histogram.add(values)
    points = {(name, labels): value for name, labels, value in histogram_points(histogram)}
    bucket = "tuibench_latency_histogram_seconds_bucket"
    assert points[(bucket, (("le", "0.0001"),))] == np.count_nonzero(values <= 100)
    assert points[(bucket, (("le", "0.00025"),))] == values.size
    assert points[(bucket, (("le", "+Inf"),))] == values.size
    assert points[("tuibench_latency_histogram_seconds_count", ())] == values.size
    assert points[("tuibench_latency_histogram_seconds_sum", ())] == values.sum() / 1e6
    les = [float(labels[0][1]) for name, labels, _ in histogram_points(histogram) if labels]
    assert les == sorted(les) and les[-1] == float("inf")
