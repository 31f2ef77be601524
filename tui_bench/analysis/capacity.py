"""The capacity search: the highest fixed rate a server holds within an SLO. Pure.

As Nighthawk's adaptive load controller does, the closed loop measures the peak first (what
the server does when each connection sends as soon as its last answer came): no open loop
at the same connections goes past it. The search then tries rates below it: the lowest
(LOWEST_SHARE of the peak) first, which must hold or there is no capacity to speak of, then
bisects between the highest rate held and the lowest rate above it not held (the peak until
one fails). It stops when that interval is within `resolution` of its top, so the capacity
found is at most `resolution` below the true one, whatever the server.

A step holds when its point is valid (a rate not held makes it invalid) and meets every
clause of the SLO, as the knee of a rate sweep reads it: the capacity is that knee. A slow
step lasts long enough for its percentiles to rest on enough requests (`step_duration`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from tui_bench.analysis.names import DEFAULT_RESOLUTION, LOWEST_SHARE
from tui_bench.analysis.warnings import MIN_SAMPLES_FOR_P99

# Rates tried after the peak, at most: the stopping rule ends a search at 5 % in 6 steps
# (1 + log2(0.9 / 0.05)); the bound keeps a tiny --resolution from running all night.
MAX_STEPS = 16


@dataclass(frozen=True)
class Step:
    rate: float
    held: bool


# Over the requests a percentile needs: a step may fall a little short of its rate.
_SAMPLES_MARGIN = 1.2


def step_duration(step_s: float, rate: float) -> float:
    """How long a step at `rate` runs: `step_s`, or longer (to a tenth of a second) when a
    step that short would give too few requests for its p99 to be judged, which would leave
    a rate the server holds untold."""
    needed = MIN_SAMPLES_FOR_P99 * _SAMPLES_MARGIN / rate
    return max(step_s, math.ceil(needed * 10) / 10)


def rounded(rate: float) -> float:
    """A rate to three significant figures: 2350, not 2347.65625 (its point's name)."""
    return float(f"{rate:.3g}")


@dataclass(frozen=True)
class Search:
    peak_rps: float
    resolution: float = DEFAULT_RESOLUTION

    @property
    def lowest(self) -> float:
        return rounded(self.peak_rps * LOWEST_SHARE)

    def bounds(self, steps: Sequence[Step]) -> tuple[float | None, float]:
        """The highest rate held (None: none yet), and the lowest above it that was not
        (the peak while none was). A rate that failed below one held is noise the knee
        ignores too."""
        low = max((s.rate for s in steps if s.held), default=None)
        above = [s.rate for s in steps if not s.held and (low is None or s.rate > low)]
        return low, min(above, default=self.peak_rps)

    def next_rate(self, steps: Sequence[Step]) -> float | None:
        """The rate to try after `steps` (in the order they ran); None when the search is
        done: the lowest rate did not hold, or the interval is within the resolution."""
        if not (self.peak_rps > 0 and math.isfinite(self.peak_rps)):
            return None
        if not steps:
            return self.lowest
        low, high = self.bounds(steps)
        if low is None or high - low <= self.resolution * high or len(steps) >= MAX_STEPS:
            return None
        middle = rounded((low + high) / 2)
        return middle if low < middle < high else None
