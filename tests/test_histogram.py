from __future__ import annotations

import math
import statistics
from fractions import Fraction

import numpy as np
import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tui_bench.histogram import (
    DEFAULT_QUANTILES,
    MAX_US,
    N_BUCKETS,
    RELATIVE_ERROR,
    SUB_COUNT,
    LatencyHistogram,
    bucket_bounds,
    bucket_indexes,
    bucket_of,
)
from tui_bench.result import Distribution, percentile_key

QS = (0.0, 0.1, 1.0, 25.0, 50.0, 90.0, 99.0, 99.9, 100.0)


def hist_of(values: list[int] | np.ndarray) -> LatencyHistogram:
    hist = LatencyHistogram()
    hist.add(np.asarray(values, dtype=np.int64))
    return hist


def order_statistic(sorted_values: list[int], q: float) -> int:
    """The sample at rank ceil(q/100 * n): what `percentile_s` approximates."""
    rank = max(1, math.ceil(Fraction(str(q)) * len(sorted_values) / 100))
    return sorted_values[rank - 1]


def assert_close_to_sample(reported_s: float | None, sample_us: int) -> None:
    assert reported_s is not None
    assert abs(reported_s * 1e6 - sample_us) <= sample_us * RELATIVE_ERROR + 1e-6


def test_buckets_tile_the_range_with_bounded_width() -> None:
    previous_high = 0
    for bucket in range(N_BUCKETS):
        low, high = bucket_bounds(bucket)
        assert low == previous_high
        assert bucket_of(low) == bucket == bucket_of(high - 1)
        assert high - low == 1 or (high - low) / low <= 1 / SUB_COUNT
        previous_high = high
    assert previous_high == MAX_US + 1
    assert MAX_US >= 3600 * 1_000_000


def test_vectorized_indexes_match_scalar_ones_at_every_power_of_two() -> None:
    edges = [v for k in range(38) for v in (2**k - 1, 2**k, 2**k + 1) if 0 <= v <= MAX_US]
    values = np.array([*edges, *range(1000)], dtype=np.int64)
    assert bucket_indexes(values).tolist() == [bucket_of(int(v)) for v in values]


def test_small_values_are_exact() -> None:
    hist = hist_of(list(range(SUB_COUNT)))
    for q in (1.0, 50.0, 99.0):
        assert hist.percentile_s(q) == order_statistic(list(range(SUB_COUNT)), q) / 1e6


def test_percentiles_match_numpy_on_lognormal_data() -> None:
    rng = np.random.default_rng(2024)
    # A prime count: q * n / 100 is never a whole rank, so rounding cannot pick neighbours.
    values = rng.lognormal(np.log(3_000), 1.0, 100_003).astype(np.int64)
    hist = hist_of(values)
    qs = list(DEFAULT_QUANTILES)
    wanted = np.percentile(values, qs, method="inverted_cdf")
    for got, want in zip(hist.percentiles_s(qs), wanted, strict=True):
        assert_close_to_sample(got, int(want))
    # The default (linear) method interpolates between samples: within 1 % in the body.
    for q in (50.0, 75.0, 90.0, 95.0, 99.0):
        got = hist.percentile_s(q)
        assert got is not None
        assert got * 1e6 == pytest.approx(np.percentile(values, q), rel=0.01)


def test_merge_equals_adding_the_concatenation() -> None:
    rng = np.random.default_rng(5)
    a = rng.lognormal(7, 1.5, 5_000).astype(np.int64)
    b = rng.lognormal(12, 0.5, 3_000).astype(np.int64)
    merged = hist_of(a)
    merged.merge(hist_of(b))
    assert merged == hist_of(np.concatenate([a, b]))
    assert merged.count == 8_000


def test_dict_round_trip_survives_json() -> None:
    values = np.array([0, 5, 127, 128, 129, 10_000, 123_456, MAX_US, MAX_US], dtype=np.int64)
    hist = hist_of(values)
    data = orjson.loads(orjson.dumps(hist.to_dict()))
    assert LatencyHistogram.from_dict(data) == hist
    assert data["n"] == 9
    assert data["buckets"][0] == [0, 1]
    assert data["buckets"][-1] == [N_BUCKETS - 1, 2]


def test_sparse_form_lists_only_non_empty_buckets() -> None:
    values = [3, 3, 200, 5_000_000]
    hist = hist_of(values)
    assert hist.to_sparse() == [[3, 2], [bucket_of(200), 1], [bucket_of(5_000_000), 1]]
    rebuilt = LatencyHistogram.from_sparse(
        hist.to_sparse(),
        min_us=3,
        max_us=5_000_000,
        sum_us=sum(values),
        sumsq_us2=sum(v * v for v in values),
    )
    assert rebuilt == hist


def test_empty_histogram() -> None:
    hist = LatencyHistogram()
    hist.add(np.array([], dtype=np.int64))
    assert hist.count == 0
    assert (hist.min_us, hist.max_us, hist.mean_s, hist.sd_s) == (None, None, None, None)
    assert hist.percentile_s(99) is None
    assert hist.distribution() == Distribution()
    assert hist.to_sparse() == []
    assert LatencyHistogram.from_dict(hist.to_dict()) == hist
    other = hist_of([10])
    other.merge(hist)
    assert other == hist_of([10])
    hist.merge(other)
    assert hist == other


def test_min_max_mean_and_sd_are_exact() -> None:
    # Large values take the split sum-of-squares path; the tiny spread tests cancellation.
    values = [MAX_US - 3, MAX_US - 1, MAX_US, 1_000_000, 1_000_001, 7]
    hist = hist_of(values)
    assert (hist.min_us, hist.max_us) == (7, MAX_US)
    assert hist.mean_s == pytest.approx(statistics.fmean(values) / 1e6, rel=1e-15)
    assert hist.sd_s == pytest.approx(statistics.pstdev(values) / 1e6, rel=1e-12)
    narrow = hist_of([10**9 + d for d in (0, 1, 1, 2)])
    assert narrow.sd_s == pytest.approx(statistics.pstdev([0, 1, 1, 2]) / 1e6, rel=1e-12)


def test_percentile_extremes_are_the_exact_min_and_max() -> None:
    hist = hist_of([1_234_567, 2_345_678, 9_999_999])
    assert hist.percentile_s(0) == 1.234567
    assert hist.percentile_s(100) == 9.999999


def test_distribution_uses_result_keys() -> None:
    dist = hist_of([1_000, 2_000, 3_000]).distribution((50, 99.9))
    assert set(dist.percentiles) == {percentile_key(50), percentile_key(99.9)}
    assert dist.min_s == 0.001
    assert dist.max_s == 0.003
    assert dist.mean_s == pytest.approx(0.002)


@pytest.mark.parametrize(
    "values",
    [np.array([-1], dtype=np.int64), np.array([MAX_US + 1], dtype=np.int64)],
)
def test_out_of_range_values_are_rejected(values: np.ndarray) -> None:
    with pytest.raises(ValueError):
        LatencyHistogram().add(values)


def test_float_values_are_rejected() -> None:
    with pytest.raises(TypeError):
        LatencyHistogram().add(np.array([1.5]))


@pytest.mark.parametrize("q", [-0.1, 100.1])
def test_percentile_outside_0_100_is_rejected(q: float) -> None:
    with pytest.raises(ValueError):
        hist_of([1]).percentile_s(q)
    with pytest.raises(ValueError):
        LatencyHistogram().percentile_s(q)


def test_inconsistent_serialized_forms_are_rejected() -> None:
    good = hist_of([100, 5_000]).to_dict()
    with pytest.raises(ValueError):
        LatencyHistogram.from_dict({**good, "sub_bits": 6})
    with pytest.raises(ValueError):
        LatencyHistogram.from_dict({**good, "n": 3})
    with pytest.raises(ValueError):
        LatencyHistogram.from_dict({**good, "min_us": 5_000})
    with pytest.raises(ValueError):
        LatencyHistogram.from_dict({**good, "buckets": good["buckets"][::-1]})
    with pytest.raises(ValueError):
        LatencyHistogram.from_sparse([], min_us=1, max_us=1, sum_us=1, sumsq_us2=1)


values_us = st.lists(
    st.one_of(st.integers(0, 20_000), st.integers(0, MAX_US)), min_size=1, max_size=300
)


@settings(max_examples=200, deadline=None)
@given(values=values_us, cut=st.integers(0, 300))
def test_properties_against_the_raw_samples(values: list[int], cut: int) -> None:
    hist = hist_of(values)
    ordered = sorted(values)
    assert hist.count == len(values)
    assert (hist.min_us, hist.max_us) == (ordered[0], ordered[-1])
    assert hist.mean_s == pytest.approx(statistics.fmean(values) / 1e6, rel=1e-12)
    assert hist.sd_s == pytest.approx(statistics.pstdev(values) / 1e6, rel=1e-9, abs=1e-12)
    for q, got in zip(QS, hist.percentiles_s(QS), strict=True):
        assert_close_to_sample(got, order_statistic(ordered, q))
    left = hist_of(values[:cut])
    left.merge(hist_of(values[cut:]))
    assert left == hist
    assert LatencyHistogram.from_dict(orjson.loads(orjson.dumps(hist.to_dict()))) == hist


def test_from_quantiles_spreads_a_table_over_its_requests() -> None:
    rng = np.random.default_rng(7)
    values = np.rint(rng.lognormal(7, 0.6, 20_000)).astype(np.int64)
    qs = [*range(1, 100), 99.9, 99.99]
    table = Distribution(
        min_s=int(values.min()) / 1e6,
        max_s=int(values.max()) / 1e6,
        mean_s=float(values.mean()) / 1e6,
        sd_s=float(values.std()) / 1e6,
        percentiles={percentile_key(q): float(np.percentile(values, q)) / 1e6 for q in qs},
    )
    hist = LatencyHistogram.from_quantiles(20_000, table)
    assert hist is not None and hist.count == 20_000
    assert (hist.min_us, hist.max_us) == (int(values.min()), int(values.max()))
    # Its percentiles are the table's, to a bucket and the spacing of the table.
    for q in (50, 90, 99, 99.9):
        assert hist.percentile_s(q) == pytest.approx(np.percentile(values, q) / 1e6, rel=0.02)
    assert hist.mean_s == pytest.approx(table.mean_s)
    assert hist.sd_s == pytest.approx(table.sd_s, rel=1e-6)
    assert LatencyHistogram.from_dict(orjson.loads(orjson.dumps(hist.to_dict()))) == hist


def test_from_quantiles_holds_millions_of_requests_exactly_counted() -> None:
    table = Distribution(min_s=0.0001, max_s=0.1, percentiles={"p50_s": 0.001, "p99_s": 0.01})
    hist = LatencyHistogram.from_quantiles(12_345_679, table)
    assert hist is not None and hist.count == 12_345_679
    assert hist.percentile_s(50) == pytest.approx(0.001, rel=0.01)
    assert hist.percentile_s(99) == pytest.approx(0.01, rel=0.01)


def test_from_quantiles_needs_requests_and_a_range() -> None:
    assert LatencyHistogram.from_quantiles(0, Distribution(min_s=0.001, max_s=0.002)) is None
    assert LatencyHistogram.from_quantiles(10, Distribution(percentiles={"p50_s": 0.001})) is None
    # A table of one value (ab's whole milliseconds): every request there.
    flat = Distribution(min_s=0.0, max_s=0.0, percentiles={"p50_s": 0.0, "p99_s": 0.0})
    hist = LatencyHistogram.from_quantiles(5, flat)
    assert hist is not None and hist.count == 5 and hist.percentile_s(99) == 0.0
