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

from tui_bench.analysis.stats import Direction, Verdict, compare_samples

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
def test_under_four_runs_a_side_even_a_large_shift_is_insufficient(n: int) -> None:
    rng = np.random.default_rng(3)
    for _ in range(20):
        a = runs(rng, n, 1.0, 0.05, lognormal=False)
        b = runs(rng, n, 1.5, 0.05, lognormal=False)
        c = compare_samples(a, b, "higher")
        assert c.verdict == "insufficient data"
        assert c.delta_pct is not None and c.delta_pct > 0
