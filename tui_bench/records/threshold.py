"""A threshold as it was judged when a run or sweep ended."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ThresholdVerdict:
    """One clause against what was measured: `metric` is the result key (p99_s, rps,
    error_rate), `limit` and `actual` in its unit. `reason` says why it failed when there
    was no value for the metric. A sweep's names the point (`point`, `name`) it judged."""

    text: str
    metric: str
    op: str
    limit: float
    actual: float | None
    passed: bool
    reason: str | None = None
    point: int | None = None
    name: str | None = None
    # The value is a percentile of a histogram merged from quantile tables.
    approx: bool = False
