"""How often the regression gate fires, on simulated runs: its false alarms and its power.

Each trial draws the req/s of n baseline runs and n new runs, every run its true value
times lognormal run-to-run noise (mean 1, CV 3 % or 8 %), the new side's true value 0, 10,
20 or 50 % lower. The two sides go through the code `--fail-on-regression` runs on the
primary metric: `stats.compare_samples`, `regression.tested_needs` and `regression.regressed`
at the default tolerance (5 %), for each verdict tier. A false alarm is the gate firing with
no true change. Seeded: the same table every time.

    .venv/bin/python bench/compare_power.py [--trials 200] [--jobs 2]
"""

from __future__ import annotations

import argparse
import os
import sys
from concurrent.futures import ProcessPoolExecutor
from itertools import product

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from tui_bench.analysis.names import DEFAULT_TOLERANCE_PCT, TIERS, Tier
from tui_bench.analysis.regression import regressed, tested_needs
from tui_bench.analysis.stats import compare_samples

NOISE_CV = (0.03, 0.08)
RUNS = (1, 2, 3, 4, 5, 6, 10)
DROPS_PCT = (0, 10, 20, 50)
TRUE_RPS = 10_000.0
SEED = 20240601

Cell = tuple[float, int, int]


def draw(rng: np.random.Generator, n: int, scale: float, cv: float) -> list[float]:
    sigma = float(np.sqrt(np.log1p(cv**2)))
    # Mean-preserving: E[exp(N(-σ²/2, σ))] = 1.
    noise = rng.lognormal(-(sigma**2) / 2, sigma, n)
    values: list[float] = (TRUE_RPS * scale * noise).tolist()
    return values


def flag_rates(cell: Cell, trials: int) -> dict[Tier, float | None]:
    """The share of trials the gate fires in, per tier; None where the tier refuses the
    counts (the gate says why instead of deciding)."""
    cv, n, drop = cell
    rng = np.random.default_rng([SEED, int(cv * 100), n, drop])
    fired = dict.fromkeys(TIERS, 0)
    for trial in range(trials):
        a = draw(rng, n, 1.0, cv)
        b = draw(rng, n, 1 - drop / 100, cv)
        c = compare_samples(a, b, "higher", seed=trial)
        for tier in TIERS:
            fired[tier] += regressed(c, DEFAULT_TOLERANCE_PCT, tier)
    refused = tested_needs(n, n) is not None
    return {tier: None if tier == "tested" and refused else fired[tier] / trials for tier in TIERS}


def _pct(rate: float | None) -> str:
    return "–" if rate is None else f"{rate * 100:.0f} %"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=200, help="trials per cell")
    parser.add_argument("--jobs", type=int, default=2, help="processes")
    args = parser.parse_args()
    cells: list[Cell] = list(product(NOISE_CV, RUNS, DROPS_PCT))
    with ProcessPoolExecutor(args.jobs) as pool:
        found = pool.map(flag_rates, cells, [args.trials] * len(cells))
        rates = dict(zip(cells, found, strict=True))
    head = ["noise", "runs a side"]
    for tier in TIERS:
        head += [f"{tier}: false alarm", *(f"{tier}: -{d} %" for d in DROPS_PCT[1:])]
    print(f"gate at {DEFAULT_TOLERANCE_PCT:g} % on req/s, {args.trials} trials a cell")
    print()
    print("| " + " | ".join(head) + " |")
    print("| --- | ---: |" + " ---: |" * (len(head) - 2))
    for cv, n in product(NOISE_CV, RUNS):
        row = [f"{cv * 100:g} %", str(n)]
        for tier in TIERS:
            row += [_pct(rates[(cv, n, drop)][tier]) for drop in DROPS_PCT]
        print("| " + " | ".join(row) + " |")
    worst = max(
        (rate for (_, _, drop), by_tier in rates.items() if drop == 0 for rate in by_tier.values()),
        key=lambda r: r or 0.0,
    )
    print()
    print(f"highest false-alarm rate: {_pct(worst)}")


if __name__ == "__main__":
    main()
