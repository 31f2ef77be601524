from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest
from scipy.stats import mannwhitneyu

from tui_bench.analysis.stats import (
    Comparison,
    adjust,
    compare_samples,
    correction_note,
    finite_values,
    merged_percentiles,
    per_run_spread,
    summaries,
    summarize,
    tier_of,
)
from tui_bench.histogram import LatencyHistogram

# Any warning (scipy's included) is a failure: degenerate inputs must be handled, not leak.
pytestmark = pytest.mark.filterwarnings("error")

# Student t quantile for 97.5 % with 4 degrees of freedom, from tables.
T_975_4 = 2.7764451051977987


def hist_of(values_us: list[int]) -> LatencyHistogram:
    hist = LatencyHistogram()
    hist.add(np.asarray(values_us, dtype=np.int64))
    return hist


# --- summarize ---------------------------------------------------------------------------


def test_summary_of_one_to_five() -> None:
    s = summarize([1, 2, 3, 4, 5])
    half = T_975_4 * math.sqrt(2.5) / math.sqrt(5)
    assert s.n == 5
    assert s.mean == 3.0
    assert s.sd == pytest.approx(math.sqrt(2.5))
    assert s.median == 3.0
    assert (s.min, s.max) == (1.0, 5.0)
    assert s.ci_low == pytest.approx(3 - half)
    assert s.ci_high == pytest.approx(3 + half)
    assert s.ci_low == pytest.approx(1.0367568, abs=1e-6)
    assert s.cv == pytest.approx(math.sqrt(2.5) / 3)


def test_a_bound_below_zero_is_zero_as_no_rate_or_time_is_less() -> None:
    """Two runs far apart: mean - t·sd/√2 is -24,670 req/s, which no server achieves."""
    s = summarize([24783, 33232])
    assert s.ci_low == 0.0
    assert s.ci_high == pytest.approx(82684.862, abs=1e-3)
    assert s.mean == 29007.5 and s.sd == pytest.approx(5974.345, abs=1e-3)


def test_summary_drops_missing_values() -> None:
    s = summarize([None, float("nan"), 4.0, float("inf"), 2.0])
    assert s.n == 2
    assert s.mean == 3.0
    assert s.median == 3.0


def test_summary_of_nothing_and_of_one() -> None:
    empty = summarize([])
    assert empty.n == 0
    assert empty.mean is None and empty.median is None and empty.ci_low is None
    one = summarize([7.0])
    assert (one.n, one.mean, one.median, one.min, one.max) == (1, 7.0, 7.0, 7.0, 7.0)
    assert one.sd is None and one.ci_low is None and one.ci_high is None and one.cv is None


def test_summary_of_identical_values_has_a_zero_width_ci() -> None:
    s = summarize([2.0, 2.0, 2.0])
    assert s.sd == 0.0
    assert (s.ci_low, s.ci_high) == (2.0, 2.0)
    assert s.cv == 0.0


def test_cv_is_none_when_the_mean_is_zero() -> None:
    s = summarize([-1.0, 1.0])
    assert s.mean == 0.0
    assert s.cv is None


def test_summaries_by_key_count_absent_keys_as_missing() -> None:
    runs: list[dict[str, float | None]] = [
        {"rps": 100.0, "p99_s": 0.01},
        {"rps": 110.0},
        {"rps": 90.0, "p99_s": None},
    ]
    out = summaries(runs, ["rps", "p99_s"])
    assert out["rps"].n == 3 and out["rps"].mean == 100.0
    assert out["p99_s"].n == 1 and out["p99_s"].mean == 0.01


def test_finite_values() -> None:
    assert finite_values([1, None, float("-inf"), 2.5]).tolist() == [1.0, 2.5]


# --- compare_samples ---------------------------------------------------------------------


def test_complete_separation_of_five_runs() -> None:
    c = compare_samples([1, 2, 3, 4, 5], [6, 7, 8, 9, 10], "higher")
    # Exact two-sided Mann–Whitney: 2 of the C(10, 5) = 252 arrangements are as extreme.
    assert c.p_value == pytest.approx(2 / 252)
    assert c.p_adjusted == c.p_value
    assert c.prob_b_higher == 1.0
    assert (c.median_a, c.median_b) == (3.0, 8.0)
    assert c.delta_pct == pytest.approx(500 / 3)
    assert c.ci_low_pct is not None and c.ci_high_pct is not None and c.delta_pct is not None
    assert c.ci_low_pct <= c.delta_pct <= c.ci_high_pct
    assert (c.n_a, c.n_b) == (5, 5)
    assert c.verdict == "better"
    assert compare_samples([1, 2, 3, 4, 5], [6, 7, 8, 9, 10], "lower").verdict == "worse"


def test_scipy_documentation_example() -> None:
    # scipy.stats.mannwhitneyu's example: U = 17 for the males, exact p = 0.1111.
    females = [20, 11, 17, 12]
    males = [19, 22, 16, 29, 24]
    c = compare_samples(females, males, "higher")
    assert c.p_value == pytest.approx(0.11111, abs=1e-5)
    assert c.prob_b_higher == pytest.approx(17 / 20)
    assert c.verdict == "no difference"


def test_constant_runs_shifted_by_ten_percent() -> None:
    c = compare_samples([100.0] * 4, [110.0] * 4, "higher")
    assert c.delta_pct == pytest.approx(10.0)
    assert c.ci_low_pct == pytest.approx(10.0)
    assert c.ci_high_pct == pytest.approx(10.0)
    # Tied values: the permutation test enumerates all C(8, 4) = 70 splits, 2 as extreme.
    assert c.p_value == pytest.approx(2 / 70)
    assert c.verdict == "better"


def test_delta_is_of_medians_so_one_wild_run_does_not_move_it() -> None:
    a = [100.0, 101.0, 99.0, 100.0, 100.0]
    b = [100.0, 101.0, 99.0, 100.0, 1000.0]
    assert compare_samples(a, b, "higher").delta_pct == 0.0


def test_the_comparison_is_deterministic_and_seeded() -> None:
    a = [10.1, 9.8, 10.4, 10.0, 9.7, 10.2]
    b = [10.9, 11.2, 10.6, 11.0, 10.8, 11.5]
    first = compare_samples(a, b, "higher")
    assert compare_samples(a, b, "higher") == first
    other = compare_samples(a, b, "higher", seed=1)
    assert other.p_value == first.p_value
    assert other.ci_low_pct != first.ci_low_pct or other.ci_high_pct != first.ci_high_pct


def test_many_runs_use_the_normal_approximation() -> None:
    rng = np.random.default_rng(7)
    a = rng.normal(100, 5, 60)
    b = np.round(rng.normal(104, 5, 60))  # ties too
    c = compare_samples(a, b, "higher")
    assert c.p_value == pytest.approx(mannwhitneyu(b, a, method="asymptotic").pvalue)
    assert c.verdict == "better"


def test_under_four_runs_a_side_is_likely_at_most_and_shows_the_delta() -> None:
    c = compare_samples([100, 101, 99], [150, 151, 149, 150], "higher")
    assert c.verdict == "likely better" and tier_of(c) == "likely"
    assert c.delta_pct == pytest.approx(50.0)
    assert c.p_value is not None and c.ci_low_pct is not None
    overlapping = compare_samples([100, 110, 90], [120, 105, 125], "higher")
    assert overlapping.verdict == "insufficient data" and tier_of(overlapping) is None
    close = compare_samples([100, 101, 99], [108, 109, 110], "higher")
    assert close.verdict == "insufficient data", "apart, but within the margin"


def test_one_run_a_side_gives_a_delta_and_likely_only_beyond_the_margin() -> None:
    c = compare_samples([200.0], [180.0], "lower")
    assert c.delta_pct == pytest.approx(-10.0)
    assert c.ci_low_pct is None and c.ci_high_pct is None
    assert c.p_value is None and c.p_adjusted is None and c.prob_b_higher is None
    assert c.verdict == "insufficient data"
    assert compare_samples([200.0], [140.0], "lower").verdict == "likely better"


def test_missing_values_are_dropped_before_counting() -> None:
    c = compare_samples([1, None, 2, float("nan"), 3, 4], [5, 6, 7, 8, None], "higher")
    assert (c.n_a, c.n_b) == (4, 4)
    assert c.verdict == "better"


def test_no_runs_on_a_side() -> None:
    c = compare_samples([], [1.0, 2.0], "higher")
    assert c.n_a == 0
    assert c.median_a is None and c.delta_pct is None and c.p_value is None
    assert c.verdict == "insufficient data"


def test_all_zero_both_sides_is_no_difference() -> None:
    c = compare_samples([0.0] * 5, [0.0] * 5, "lower")
    assert c.delta_pct == 0.0
    assert (c.ci_low_pct, c.ci_high_pct) == (0.0, 0.0)
    assert c.p_value == 1.0
    assert c.prob_b_higher == 0.5
    assert c.verdict == "no difference"


def test_identical_samples_are_no_difference() -> None:
    runs = [9.5, 10.0, 10.5, 11.0]
    c = compare_samples(runs, runs, "higher")
    assert c.delta_pct == 0.0
    assert c.p_value == pytest.approx(1.0)
    assert c.verdict == "no difference"


def test_errors_appearing_from_none_is_worse_without_a_percentage() -> None:
    c = compare_samples([0.0] * 6, [0.01, 0.02, 0.03, 0.02, 0.01, 0.02], "lower")
    assert c.median_a == 0.0
    assert c.delta_pct is None
    assert c.ci_low_pct is None and c.ci_high_pct is None
    # Exact over the C(12, 6) = 924 splits: only the two complete separations.
    assert c.p_value == pytest.approx(2 / 924)
    assert c.verdict == "worse"


def test_a_ratio_that_can_be_unbounded_has_no_ci() -> None:
    # Half of a's runs are 0: many resamples of a have median 0.
    c = compare_samples([0.0, 0.0, 1.0, 2.0], [1.0, 2.0, 2.0, 3.0], "lower")
    assert c.delta_pct == pytest.approx(300.0)
    assert (c.ci_low_pct, c.ci_high_pct) == (None, None)


# --- adjust (Holm–Bonferroni) ------------------------------------------------------------


def with_p(p: float | None) -> Comparison:
    c = compare_samples(range(10), range(100, 110), "higher")
    return replace(c, p_value=p, p_adjusted=p)


def test_holm_on_a_known_set() -> None:
    # Sorted 0.005, 0.01, 0.03, 0.04 times 4, 3, 2, 1 -> 0.02, 0.03, 0.06, 0.04 -> made
    # non-decreasing: 0.02, 0.03, 0.06, 0.06.
    raw = [0.01, 0.04, 0.03, 0.005]
    out = adjust([with_p(p) for p in raw])
    assert [c.p_adjusted for c in out] == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert [c.p_value for c in out] == raw
    assert [c.verdict for c in out] == ["better", "no difference", "no difference", "better"]
    note = correction_note("req/s", with_p(0.04), out)
    assert note is not None
    assert note.startswith("req/s is the primary metric: tested alone, its verdict at p < 0.05")
    assert "the 4 secondary metrics are adjusted among themselves by Holm" in note
    assert note.endswith("2 significant before adjustment, not after")


def test_holm_caps_at_one_and_skips_untested_metrics() -> None:
    # A family of three: 0.02 * 3, then 0.6 * 2 capped at 1, then 0.7 * 1 raised to 1.
    out = adjust([with_p(0.6), with_p(None), with_p(0.02), with_p(0.7)])
    assert [c.p_adjusted for c in out] == pytest.approx([1.0, None, 0.06, 1.0])
    assert out[1].verdict == "better"  # untouched: it had no p to correct
    assert out[2].verdict == "no difference"


def test_adjusting_one_metric_changes_nothing() -> None:
    only = with_p(0.03)
    assert adjust([only]) == [only]
    assert correction_note("p99", only, adjust([only])) == (
        "p99 is the primary metric: tested alone, its verdict at p < 0.05; the secondary "
        "metrics need no adjustment"
    )
    untested = with_p(None)
    assert correction_note("p99", untested, [untested]) is None


def test_adjusting_real_comparisons_keeps_the_likely_tier_apart() -> None:
    few = compare_samples([1, 2, 3], [7, 8, 9], "higher")
    many = compare_samples([1, 2, 3, 4, 5, 6], [7, 8, 9, 10, 11, 12], "lower")
    out = adjust([few, many])
    assert out[0].verdict == "likely better" and tier_of(out[0]) == "likely"
    assert out[1].p_adjusted == pytest.approx(min(1.0, 2 * (many.p_value or 0)))
    assert out[1].verdict == "worse"
    assert correction_note("req/s", few, out) == (
        "req/s is the primary metric: tested alone, its verdict at p < 0.05; the 2 secondary "
        "metrics are adjusted among themselves by Holm–Bonferroni (p adjusted), their "
        "verdicts at the adjusted p"
    )


# --- percentiles of a point --------------------------------------------------------------


KEYS = ["p50_s", "p99_s", "p99_9_s", "min_s", "max_s", "mean_s"]


def test_merged_percentiles_are_those_of_all_requests_not_averages() -> None:
    # Run 1: 900 fast requests and 100 slow ones; run 2: 1000 steady ones.
    run1 = [1000] * 900 + [100_000] * 100
    run2 = [2000] * 1000
    merged = merged_percentiles([hist_of(run1), hist_of(run2)], KEYS)
    whole = hist_of(run1 + run2)
    assert merged["p50_s"] == whole.percentile_s(50)
    assert merged["p99_s"] == whole.percentile_s(99)
    assert merged["p99_9_s"] == whole.percentile_s(99.9)
    assert merged["min_s"] == 0.001
    assert merged["max_s"] == 0.1
    assert merged["mean_s"] == pytest.approx((900 * 0.001 + 100 * 0.1 + 1000 * 0.002) / 2000)
    # The slow tail is 5 % of all requests: p99 is slow, unlike an average of the runs' p99.
    assert merged["p99_s"] == pytest.approx(0.1, rel=0.01)
    spread = per_run_spread([hist_of(run1), hist_of(run2)], KEYS)
    assert spread["p99_s"].n == 2
    assert spread["p99_s"].mean == pytest.approx((0.1 + 0.002) / 2, rel=0.01)
    assert spread["p99_s"].min == pytest.approx(0.002, rel=0.01)
    assert spread["p99_s"].max == pytest.approx(0.1, rel=0.01)
    assert spread["max_s"].median == pytest.approx((0.1 + 0.002) / 2)


def test_merging_leaves_the_runs_histograms_alone() -> None:
    run = hist_of([1000, 2000])
    before = run.copy()
    merged_percentiles([run, hist_of([5000])], ["p50_s"])
    assert run == before


def test_no_samples_give_no_values() -> None:
    assert merged_percentiles([], KEYS) == dict.fromkeys(KEYS)
    assert merged_percentiles([LatencyHistogram()], ["p99_s"]) == {"p99_s": None}
    spread = per_run_spread([LatencyHistogram(), hist_of([1000])], ["p99_s"])
    assert spread["p99_s"].n == 1


@pytest.mark.parametrize("key", ["rps", "p99", "p150_s", "p099_s", "pxx_s", "sd_s"])
def test_a_key_that_is_no_latency_key_is_a_programming_error(key: str) -> None:
    with pytest.raises(ValueError, match="not a latency key"):
        merged_percentiles([hist_of([1000])], [key])
