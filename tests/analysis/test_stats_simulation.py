"""The comparison's error rates, measured on synthetic runs (no network, fixed seeds).

Each trial draws per-run values as a benchmark would give them: a run's req/s (or p99) is
its configuration's true value times noise with a run-to-run CV between 3 % and 8 %,
normal in half the trials and lognormal (skewed, as latencies are) in the other half.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

import numpy as np
import pytest

from tui_bench.analysis.stats import Direction, Verdict, compare_samples, tier_of

pytestmark = pytest.mark.filterwarnings("error")

RUNS = 10
TRUE_VALUE = 10_000.0


def runs(rng: np.random.Generator, n: int, scale: float, cv: float, lognormal: bool) -> list[float]:
    if lognormal:
        sigma = np.sqrt(np.log1p(cv**2))
        # Mean-preserving: E[exp(N(-σ²/2, σ))] = 1.
        noise = rng.lognormal(-(sigma**2) / 2, sigma, n)
    else:
        noise = rng.normal(1.0, cv, n)
    values: list[float] = (TRUE_VALUE * scale * noise).tolist()
    return values


def verdicts(
    seed: int, trials: int, shift: float, direction: Direction, n: int = RUNS
) -> Iterator[Verdict]:
    rng = np.random.default_rng(seed)
    for trial in range(trials):
        cv = rng.uniform(0.03, 0.08)
        lognormal = trial % 2 == 1
        a = runs(rng, n, 1.0, cv, lognormal)
        b = runs(rng, n, 1.0 + shift, cv, lognormal)
        yield compare_samples(a, b, direction, seed=trial).verdict


def test_a_against_a_is_rarely_called_different() -> None:
    seen = Counter(verdicts(seed=1, trials=1000, shift=0.0, direction="higher"))
    false_positive_rate = (seen["better"] + seen["worse"]) / 1000
    assert seen["insufficient data"] == 0
    assert false_positive_rate <= 0.05


@pytest.mark.parametrize(
    ("direction", "expected"),
    [("higher", "better"), ("lower", "worse")],
    ids=["rps-up-is-better", "latency-up-is-worse"],
)
def test_a_ten_percent_shift_with_ten_runs_a_side_is_found(
    direction: Direction, expected: Verdict
) -> None:
    seen = Counter(verdicts(seed=2, trials=200, shift=0.10, direction=direction))
    assert seen[expected] / 200 >= 0.8
    # Never the wrong way round.
    assert seen["better"] + seen["worse"] == seen[expected]


@pytest.mark.parametrize("n", [1, 2, 3])
def test_under_four_runs_a_side_a_large_shift_is_only_likely(n: int) -> None:
    rng = np.random.default_rng(3)
    seen = Counter()
    for _ in range(20):
        a = runs(rng, n, 1.0, 0.05, lognormal=False)
        b = runs(rng, n, 1.5, 0.05, lognormal=False)
        c = compare_samples(a, b, "higher")
        seen[c.verdict] += 1
        assert c.delta_pct is not None and c.delta_pct > 0
    # Never a tested verdict nor the wrong way; one run a side may, now and then, see the
    # 50 % as less than its margin.
    assert set(seen) <= {"likely better", "insufficient data"}
    assert seen["likely better"] >= 18


@pytest.mark.parametrize("n", [1, 2, 3])
def test_the_likely_tier_rarely_calls_a_against_a_different(n: int) -> None:
    seen = Counter(verdicts(seed=7, trials=2000, shift=0.0, direction="higher", n=n))
    false_alarms = (seen["likely better"] + seen["likely worse"]) / 2000
    assert seen["better"] + seen["worse"] == 0, "no tested verdict under four runs a side"
    # Measured: 0.25 % with one run a side, 1.55 % with two, 0.4 % with three.
    assert false_alarms <= 0.05


@pytest.mark.parametrize(("n", "least"), [(1, 0.6), (2, 0.9), (3, 0.9)])
def test_the_likely_tier_finds_a_thirty_percent_change(n: int, least: float) -> None:
    seen = Counter(verdicts(seed=8, trials=1000, shift=0.3, direction="lower", n=n))
    # Measured: 70 % with one run a side, 98 % with two, 97 % with three.
    assert seen["likely worse"] / 1000 >= least and seen["likely better"] == 0


def test_an_obvious_regression_over_three_runs_is_likely_worse() -> None:
    # The case that had no verdict: p50 up 292 % over three runs a side.
    a, b = [0.0010, 0.0011, 0.00105], [0.0041, 0.0042, 0.00405]
    comparison = compare_samples(a, b, "lower")
    assert comparison.verdict == "likely worse" and tier_of(comparison) == "likely"
    assert comparison.ci_low_pct is not None and comparison.ci_low_pct > 0, "the CI agrees"
