"""Statistics over repeated runs: the run is the unit, never the request. Pure.

A point (one configuration run several times) is summarized per metric by `summarize`; its
latency percentiles come from the merged histograms of its runs (`merged_percentiles`), with
the per-run spread of each percentile shown apart (`per_run_spread`). Two sets of runs are
compared with `compare_samples`; the secondary metrics of a comparison are corrected for
being tested together with `adjust` (the primary one is not: `correction_note`).
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Literal

import numpy as np
import numpy.typing as npt
from scipy import stats as sps

from tui_bench.analysis.names import Tier
from tui_bench.analysis.run_counts import ALPHA, MIN_RUNS
from tui_bench.histogram import LatencyHistogram
from tui_bench.records.spread import Spread
from tui_bench.result import percentile_key, percentile_of_key

Direction = Literal["higher", "lower"]
Verdict = Literal[
    "better", "worse", "likely better", "likely worse", "no difference", "insufficient data"
]
CONFIDENCE = 0.95
# The "likely" tier's margins, in % between the medians: with one run a side nothing says
# how much runs differ by themselves (runs 3-8 % apart in CV differ by up to ~25 %); with
# two or three, the sides must not overlap either. Chosen so that the tier's false alarms
# on A/A pairs stay under 5 % (tests/analysis/test_stats_simulation.py).
LIKELY_MARGIN_ONE_RUN_PCT = 25.0
LIKELY_MARGIN_PCT = 15.0
BOOTSTRAP_RESAMPLES = 2000
PERMUTATION_RESAMPLES = 9999
# Up to this many runs a side the p-value is exact (or a permutation test when values tie);
# beyond it the normal approximation is within about 0.001 of the exact p, while the exact
# distribution costs seconds at 100 runs a side and overflows at a few hundred.
EXACT_MAX_RUNS = 20
# Any fixed value: the same input must give the same CI and p on every call.
DEFAULT_SEED = 20240601

FloatArray = npt.NDArray[np.float64]


def finite_values(values: Iterable[float | None]) -> FloatArray:
    """The usable values: None (a run that did not report the metric), NaN and ±inf dropped."""
    array = np.array([v for v in values if v is not None], dtype=np.float64)
    return array[np.isfinite(array)]


def summarize(values: Iterable[float | None], *, confidence: float = CONFIDENCE) -> Spread:
    """Mean, sd (ddof=1), median, range and the Student-t confidence interval of the mean.
    What is summarized is never below 0 (req/s, times, CPU): nor is the interval, which for
    few runs far apart would otherwise reach below it."""
    x = finite_values(values)
    n = int(x.size)
    if n == 0:
        return Spread(n=0)
    mean = float(np.mean(x))
    base = Spread(
        n=n, mean=mean, median=float(np.median(x)), min=float(x.min()), max=float(x.max())
    )
    if n < 2:
        return base
    sd = float(np.std(x, ddof=1))
    # Computed by hand rather than with t.interval, which gives NaN for sd = 0.
    half = float(sps.t.ppf((1 + confidence) / 2, n - 1)) * sd / math.sqrt(n)
    return replace(
        base,
        sd=sd,
        ci_low=max(0.0, mean - half),
        ci_high=mean + half,
        cv=sd / abs(mean) if mean else None,
    )


@dataclass(frozen=True)
class Comparison:
    """b relative to a, for one metric.

    `median_a`/`median_b` are the centres the delta is taken between; `delta_pct` and its CI
    are None when a's median is 0 and b's is not (no percentage of nothing). `prob_b_higher`
    is the Mann–Whitney U of b over n_a·n_b: the chance that a run of b beats a run of a
    (ties count half); above 0.5 b tends higher. `p_adjusted` equals `p_value` until `adjust`
    corrects it for the other metrics of its family; the verdict always uses `p_adjusted`.
    """

    direction: Direction
    n_a: int
    n_b: int
    # Every run of one side above every run of the other.
    separated: bool
    median_a: float | None
    median_b: float | None
    delta_pct: float | None
    ci_low_pct: float | None
    ci_high_pct: float | None
    p_value: float | None
    p_adjusted: float | None
    prob_b_higher: float | None
    verdict: Verdict
    alpha: float = ALPHA


def compare_samples(
    a: Iterable[float | None],
    b: Iterable[float | None],
    direction: Direction,
    *,
    alpha: float = ALPHA,
    seed: int = DEFAULT_SEED,
) -> Comparison:
    """Compare the per-run values of b with those of a (one value per run).

    The delta is between medians, not means: one disturbed run (a noisy neighbour, a GC
    storm) moves the mean of ten runs by a tenth of its own excess but leaves the median
    where the other nine put it, and the median describes the same "where the runs lie"
    that the rank test judges (benchstat reports the same). Its 95 % CI is a percentile
    bootstrap resampling a and b independently; the percentile method rather than BCa
    because BCa's jackknife of a median over a handful of runs is erratic. The p-value is
    a two-sided Mann–Whitney U: up to EXACT_MAX_RUNS a side exact without ties and a
    permutation test with them (exact when the arrangements are few, else seeded Monte
    Carlo); beyond that the tie-corrected normal approximation. Everything is
    deterministic for a given input and seed.

    Runs without a value (None, NaN) are dropped and not counted in n. One run a side
    still gives the delta; the CI and p need two a side; a verdict other than
    "insufficient data" needs MIN_RUNS a side.
    """
    xa = finite_values(a)
    xb = finite_values(b)
    n_a, n_b = int(xa.size), int(xb.size)
    median_a = float(np.median(xa)) if n_a else None
    median_b = float(np.median(xb)) if n_b else None
    delta = None
    if median_a is not None and median_b is not None:
        delta = _finite_or_none(float(_delta_pct(np.float64(median_a), np.float64(median_b))))
    ci_low = ci_high = p_value = prob_b_higher = None
    if n_a >= 2 and n_b >= 2:
        ci_low, ci_high = _bootstrap_ci(xa, xb, seed)
        p_value, prob_b_higher = _mann_whitney(xa, xb, seed)
    separated = bool(n_a and n_b and (xb.min() > xa.max() or xb.max() < xa.min()))
    comparison = Comparison(
        direction=direction,
        n_a=n_a,
        n_b=n_b,
        separated=separated,
        median_a=median_a,
        median_b=median_b,
        delta_pct=delta,
        ci_low_pct=ci_low,
        ci_high_pct=ci_high,
        p_value=p_value,
        p_adjusted=p_value,
        prob_b_higher=prob_b_higher,
        verdict="insufficient data",
        alpha=alpha,
    )
    return replace(comparison, verdict=_verdict(comparison))


def _finite_or_none(value: float) -> float | None:
    return value if math.isfinite(value) else None


def _delta_pct(median_a: FloatArray | np.float64, median_b: FloatArray | np.float64) -> FloatArray:
    """(b - a) / |a| in %, element-wise: 0 where both are 0, NaN where only a is 0."""
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = (median_b - median_a) / np.abs(median_a) * 100
    zero_a = median_a == 0
    out: FloatArray = np.where(zero_a, np.where(median_b == 0, 0.0, np.nan), ratio)
    return out


def _median_delta_pct(a: FloatArray, b: FloatArray, axis: int = -1) -> FloatArray:
    return _delta_pct(np.median(a, axis=axis), np.median(b, axis=axis))


def _bootstrap_ci(a: FloatArray, b: FloatArray, seed: int) -> tuple[float | None, float | None]:
    with warnings.catch_warnings():
        # A resample whose a-median is 0 has an unbounded ratio (NaN): scipy warns that the
        # interval is degenerate, and we report no interval instead.
        warnings.simplefilter("ignore", sps.DegenerateDataWarning)
        result = sps.bootstrap(
            (a, b),
            _median_delta_pct,
            n_resamples=BOOTSTRAP_RESAMPLES,
            confidence_level=CONFIDENCE,
            method="percentile",
            vectorized=True,
            paired=False,
            rng=np.random.default_rng(seed),
        )
    low = _finite_or_none(float(result.confidence_interval.low))
    high = _finite_or_none(float(result.confidence_interval.high))
    if low is None or high is None:
        return None, None
    return low, high


def _mann_whitney(a: FloatArray, b: FloatArray, seed: int) -> tuple[float, float]:
    """(two-sided p, P(run of b > run of a) with ties counted half)."""
    pairs = a.size * b.size
    pooled = np.concatenate((a, b))
    if np.all(pooled == pooled[0]):
        # Every run gave the same value: nothing to rank (scipy would divide by zero).
        return 1.0, 0.5
    method: str | sps.PermutationMethod = "asymptotic"
    if max(a.size, b.size) <= EXACT_MAX_RUNS:
        ties = np.unique(pooled).size < pooled.size
        method = (
            sps.PermutationMethod(
                n_resamples=PERMUTATION_RESAMPLES, rng=np.random.default_rng(seed)
            )
            if ties
            else "exact"
        )
    result = sps.mannwhitneyu(b, a, alternative="two-sided", method=method)
    return min(float(result.pvalue), 1.0), float(result.statistic) / pairs


def _verdict(c: Comparison) -> Verdict:
    if c.n_a < MIN_RUNS or c.n_b < MIN_RUNS:
        return _likely(c)
    if c.p_adjusted is None or c.prob_b_higher is None:
        return "no difference"
    if c.p_adjusted >= c.alpha or c.prob_b_higher == 0.5:
        return "no difference"
    b_higher = c.prob_b_higher > 0.5
    return "better" if b_higher == (c.direction == "higher") else "worse"


def _likely(c: Comparison) -> Verdict:
    """Under MIN_RUNS a side: "likely better/worse" when the sides do not overlap and the
    medians are further apart than the margin; else there is too little to tell."""
    if not c.separated or c.delta_pct is None:
        return "insufficient data"
    margin = LIKELY_MARGIN_ONE_RUN_PCT if min(c.n_a, c.n_b) == 1 else LIKELY_MARGIN_PCT
    if abs(c.delta_pct) < margin:
        return "insufficient data"
    b_higher = c.delta_pct > 0
    return "likely better" if b_higher == (c.direction == "higher") else "likely worse"


def tier_of(c: Comparison) -> Tier | None:
    """What the verdict rests on; None when there is no verdict."""
    if c.verdict == "insufficient data":
        return None
    return "likely" if c.verdict.startswith("likely") else "tested"


def adjust(comparisons: Sequence[Comparison]) -> list[Comparison]:
    """Holm–Bonferroni over the comparisons that have a p-value, as one family: each gets
    `p_adjusted` and the verdict that follows from it; `p_value` is kept as it was.

    Holm controls the chance of any false "better"/"worse" among the family at alpha, like
    Bonferroni, but rejects more: the k-th smallest p is multiplied by (m - k + 1), and the
    adjusted p-values are made non-decreasing in that order.
    """
    tested = sorted(
        (i for i, c in enumerate(comparisons) if c.p_value is not None),
        key=lambda i: comparisons[i].p_value or 0.0,
    )
    m = len(tested)
    out = list(comparisons)
    running = 0.0
    for rank, i in enumerate(tested):
        raw = comparisons[i].p_value or 0.0
        running = max(running, min(1.0, (m - rank) * raw))
        adjusted = replace(comparisons[i], p_adjusted=running)
        out[i] = replace(adjusted, verdict=_verdict(adjusted))
    return out


def correction_note(
    label: str, primary: Comparison, secondaries: Sequence[Comparison]
) -> str | None:
    """One line for the notes of a report: the primary metric (`label`) is tested alone at
    alpha, the secondaries went through `adjust` among themselves. None when nothing was
    tested (no p-value anywhere: nothing to correct)."""
    tested = [c for c in secondaries if c.p_value is not None]
    if primary.p_value is None and not tested:
        return None
    note = f"{label} is the primary metric: tested alone, its verdict at p < {primary.alpha:g}"
    if len(tested) < 2:
        return note + "; the secondary metrics need no adjustment"
    note += (
        f"; the {len(tested)} secondary metrics are adjusted among themselves by "
        "Holm–Bonferroni (p adjusted), their verdicts at the adjusted p"
    )
    lost = sum(1 for c in tested if _verdict(replace(c, p_adjusted=c.p_value)) != c.verdict)
    if lost:
        note += f"; {lost} significant before adjustment, not after"
    return note


_EXACT_KEYS = ("min_s", "max_s", "mean_s")


def _histogram_values(hist: LatencyHistogram, keys: Sequence[str]) -> dict[str, float | None]:
    quantiles = [_quantile_of(key) for key in keys if key not in _EXACT_KEYS]
    dist = hist.distribution(quantiles)
    exact = {"min_s": dist.min_s, "max_s": dist.max_s, "mean_s": dist.mean_s}
    return {key: exact[key] if key in exact else dist.percentiles.get(key) for key in keys}


def _quantile_of(key: str) -> float:
    try:
        q = percentile_of_key(key)
    except ValueError:
        q = math.nan
    if not key.startswith("p") or percentile_key(q) != key or not 0 <= q <= 100:
        raise ValueError(f"not a latency key: {key!r}")
    return q


def merged_percentiles(
    histograms: Iterable[LatencyHistogram], keys: Sequence[str]
) -> dict[str, float | None]:
    """The point's latency `keys` (p50_s, p99_9_s, …, and min_s, max_s, mean_s) from the
    histograms of all its runs merged: every request of every run weighs the same, and no
    percentile is ever averaged. None for every key when there is no sample."""
    merged = LatencyHistogram()
    for hist in histograms:
        merged.merge(hist)
    return _histogram_values(merged, keys)


def per_run_spread(
    histograms: Iterable[LatencyHistogram], keys: Sequence[str]
) -> dict[str, Spread]:
    """How each of `keys` varied from run to run: a Spread over the runs' own values. Shown
    beside `merged_percentiles`, never in place of it."""
    return summaries([_histogram_values(hist, keys) for hist in histograms], keys)


def summaries(runs: Sequence[Mapping[str, float | None]], keys: Sequence[str]) -> dict[str, Spread]:
    """A Spread per key over the runs' value mappings (a key a run lacks counts as absent)."""
    return {key: summarize(run.get(key) for run in runs) for key in keys}
