"""Merging what several generators measured: sums exact, percentiles from histograms."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from tests.factories import h2load_result
from tui_bench.engine.merge import SecondMerger, merged_result
from tui_bench.histogram import LatencyHistogram
from tui_bench.result import Distribution, Traffic


def histogram(*values_us: int) -> LatencyHistogram:
    h = LatencyHistogram()
    h.add(np.array(values_us, dtype=np.int64))
    return h


def row(t_s: int, requests: int, **more: object) -> dict[str, object]:
    return {"t_s": t_s, "window_s": 1.0, "requests": requests, "rps": requests, **more}


def test_a_second_is_merged_once_every_running_generator_closed_it() -> None:
    merger = SecondMerger(2)
    assert merger.add(0, row(0, 10), histogram(*[1000] * 10)) == []
    assert merger.add(0, row(1, 20), histogram(*[1000] * 20)) == []
    [first] = merger.add(1, row(0, 5), histogram(*[100_000] * 5))
    assert first["requests"] == 15 and first["rps"] == 15 and first["n"] == 15
    # The merged histogram's p50 and p99, not an average of the generators' own.
    assert first["p50_s"] == pytest.approx(0.001, rel=0.01)
    assert first["p99_s"] == pytest.approx(0.1, rel=0.01)
    # A generator that ended (or was lost) holds no second back.
    [second] = merger.end(1)
    assert second["t_s"] == 1 and second["requests"] == 20


def test_rows_without_histograms_have_no_percentiles() -> None:
    merger = SecondMerger(2)
    merger.add(0, row(0, 10, p99_s=0.5), None)
    [merged] = merger.add(1, row(0, 30, p99_s=0.1), None)
    assert merged["requests"] == 40 and "p99_s" not in merged


def test_results_add_up_exactly() -> None:
    a = h2load_result(
        duration_s=2.0, rps=100.0, total=200, failed=2, traffic=Traffic(1000, 100, 800)
    )
    b = h2load_result(duration_s=2.1, rps=50.0, total=105, failed=0, traffic=Traffic(500, 50, 400))
    a = a.with_(latency=Distribution(0.001, 0.01, 0.002, 0.001, {"p99_s": 0.009}))
    b = b.with_(latency=Distribution(0.002, 0.02, 0.004, 0.001, {"p99_s": 0.019}))
    merged = merged_result([a, b], None, [4, 2])
    assert merged.requests.total == 305 and merged.requests.failed == 2
    assert merged.status == {"2xx": 303, "5xx": 2}
    assert merged.traffic == Traffic(1500, 150, 1200)
    # The merged requests over the merged window, not the rates added up (150).
    assert merged.duration_s == 2.1 and merged.rps == pytest.approx(305 / 2.1)
    assert merged.bytes_per_s == pytest.approx(1500 / 2.1)
    latency = merged.latency
    assert latency is not None
    assert (latency.min_s, latency.max_s) == (0.001, 0.02)
    assert latency.mean_s == pytest.approx((0.002 * 198 + 0.004 * 105) / 303)
    assert latency.percentiles == {}, "percentiles are never averaged"
    with_histogram = merged_result([a, b], histogram(1000, 2000, 30_000), [4, 2])
    assert with_histogram.latency is not None
    assert with_histogram.latency.percentiles["p50_s"] == pytest.approx(0.002, rel=0.01)


def test_a_generator_lost_mid_run_counts_up_to_its_loss() -> None:
    whole = h2load_result(duration_s=6.0, rps=30_000.0, total=180_000, failed=0)
    whole = whole.with_(requests=replace(whole.requests, started=180_004, done=180_000))
    # Lost after 1.5 s: its own rate is over its own window, and it never said what it sent.
    lost = h2load_result(duration_s=1.5, rps=29_000.0, total=43_500, failed=0)
    lost = lost.with_(requests=replace(lost.requests, done=43_500))
    merged = merged_result([whole, lost], None, [2, 2])
    assert merged.rps == pytest.approx((180_000 + 43_500) / 6.0)
    assert merged.rps != whole.rps + (lost.rps or 0)
    assert merged.requests.started is not None and merged.requests.done is not None
    assert merged.requests.started >= merged.requests.done


def test_approximate_percentiles_are_marked() -> None:
    a = h2load_result(duration_s=1.0, rps=10.0, total=10, failed=0)
    a = a.with_(latency=Distribution(0.001, 0.01, 0.002, 0.001, resolution_s=0.001))
    merged = merged_result([a], histogram(1000, 2000), [1], approx=True)
    assert merged.latency is not None and merged.latency.approx
    assert merged.latency.resolution_s == 0.001
    assert merged.latency.to_dict()["approx"] is True
    assert Distribution.from_dict(merged.latency.to_dict()).approx


def test_exact_codes_are_summed_only_when_every_generator_told_them() -> None:
    a = h2load_result(duration_s=1.0, rps=10.0, total=10, failed=0, status_codes={"200": 10})
    b = h2load_result(duration_s=1.0, rps=10.0, total=10, failed=2)
    b_codes = b.with_(status_codes={"200": 8, "503": 2})
    assert merged_result([a, b_codes], None, [1, 1]).status_codes == {
        "200": 18,
        "503": 2,
    }
    # A generator whose codes are unknown leaves the merged codes unknown, never short.
    assert merged_result([a, b], None, [1, 1]).status_codes == {}
