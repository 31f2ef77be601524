"""How one figure varied over the runs of a sweep point."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Spread:
    """One metric over the runs of a point. Every field but `n` is None when n is 0; `sd`,
    the CI and `cv` need two runs; `cv` (sd / mean) is None when the mean is 0."""

    n: int
    mean: float | None = None
    sd: float | None = None
    median: float | None = None
    min: float | None = None
    max: float | None = None
    ci_low: float | None = None
    ci_high: float | None = None
    cv: float | None = None
