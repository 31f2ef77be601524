"""What a rank test can decide at given run counts. Pure, and without scipy, so a command
can say before any load runs that the verdict it asks for cannot be reached.

A two-sided Mann–Whitney test over n_a and n_b runs can give no p below that of complete
separation (every run of one side beyond every run of the other): 2 / C(n_a + n_b, n_a).
At 3 and 3 runs that is 0.1, at 4 and 4 it is 0.029. A family of m metrics adjusted by
Holm multiplies the smallest p by m, so it needs that bound under alpha / m.
"""

from __future__ import annotations

from math import comb

ALPHA = 0.05
# The fewest runs a side of a tested verdict: the first count at which one metric tested
# alone can reach p < ALPHA (2/70 = 0.029; with 3 a side, 2/20 = 0.1 never can).
MIN_RUNS = 4


def smallest_p(n_a: int, n_b: int) -> float:
    """The smallest two-sided p a rank test can give with these counts (both at least 1)."""
    return 2 / comb(n_a + n_b, n_a)


def can_reach(n_a: int, n_b: int, family: int = 1, alpha: float = ALPHA) -> bool:
    """Whether a family of `family` metrics adjusted by Holm can give any of them p < alpha
    at these counts (one metric tested alone: `family` 1)."""
    return family * smallest_p(n_a, n_b) < alpha


def fewest_runs(family: int = 1, alpha: float = ALPHA) -> int:
    """The fewest runs a side (as many on both) at which `family` metrics adjusted by Holm
    can reach a tested verdict; never below MIN_RUNS."""
    n = MIN_RUNS
    while not can_reach(n, n, family, alpha):
        n += 1
    return n
