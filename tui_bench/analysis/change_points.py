"""Where the level of a benchmark's history changed. Pure.

The method: PELT (Killick, Fearnhead and Eckley 2012, the exact penalised segmentation in
linear time) from `ruptures`, on the logarithm of the values (a step is relative, and
run-to-run noise of load tests is multiplicative), with the noise scale estimated robustly
from successive differences (a step moves one difference, not the median of them) and a
penalty of PENALTY_PER_LOG_N × σ² × log n. Each step PELT proposes must then pass Welch's
t-test between the runs on either side of it at level ALPHA; the weakest one that fails is
dropped and the test repeated on the merged segments, as Apache Otava does with the
candidates of E-Divisive. The false-alarm and detection rates are measured in
tests/analysis/test_change_points_simulation.py.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import ruptures as rpt
from scipy import stats as sps

# A level is at least this many runs long: a step needs runs on both sides to be seen.
MIN_SEGMENT = 3
PENALTY_PER_LOG_N = 3.0
ALPHA = 0.002
# The MAD of a normal sample is σ × this; successive differences have σ × √2.
_MAD_TO_SD = 1.4826


@dataclass(frozen=True)
class ChangePoint:
    """The level changed between run `index - 1` and run `index` of the values given."""

    index: int
    # Median of the values of the level before and after the change.
    before: float
    after: float
    # How many runs each level holds.
    runs_before: int
    runs_after: int
    p_value: float

    @property
    def step_pct(self) -> float:
        """The size of the step: after against before, in %."""
        return (self.after / self.before - 1.0) * 100.0 if self.before else math.nan


def find_change_points(values: Sequence[float]) -> list[ChangePoint]:
    """The changes of level in `values` (in time order, all > 0), oldest first."""
    raw = np.asarray(values, dtype=float)
    n = int(raw.size)
    if n < 2 * MIN_SEGMENT or not np.all(np.isfinite(raw) & (raw > 0)):
        return []
    y = np.log(raw)
    sigma = _noise_scale(y)
    if sigma == 0.0:
        return []
    cost = _SquaredDeviation()
    detector = rpt.Pelt(custom_cost=cost, min_size=MIN_SEGMENT, jump=1).fit(y / sigma)
    found: list[int] = detector.predict(pen=PENALTY_PER_LOG_N * math.log(n))[:-1]
    steps = _tested(y, found)
    edges = [0, *steps, n]
    return [
        ChangePoint(
            index=cut,
            before=float(np.median(raw[edges[i] : cut])),
            after=float(np.median(raw[cut : edges[i + 2]])),
            runs_before=cut - edges[i],
            runs_after=edges[i + 2] - cut,
            p_value=_welch_p(y[edges[i] : cut], y[cut : edges[i + 2]]),
        )
        for i, cut in enumerate(steps)
    ]


class _SquaredDeviation(rpt.base.BaseCost):  # type: ignore[misc]
    """ruptures' "l2" cost from running sums: O(1) a segment where ruptures' own takes the
    variance of the segment, which makes a history of a few hundred runs take seconds."""

    model = "l2-cumulative"
    min_size = 1

    def fit(self, signal: np.ndarray) -> _SquaredDeviation:
        # ruptures reads the length of the signal from here.
        self.signal = signal.reshape(-1, 1)
        centred = signal - signal.mean()
        self._sum = np.concatenate(([0.0], np.cumsum(centred)))
        self._squares = np.concatenate(([0.0], np.cumsum(centred**2)))
        return self

    def error(self, start: int, end: int) -> float:
        total = self._sum[end] - self._sum[start]
        return float(self._squares[end] - self._squares[start] - total * total / (end - start))


def _noise_scale(y: np.ndarray) -> float:
    diffs = np.diff(y)
    sigma = _MAD_TO_SD * float(np.median(np.abs(diffs - np.median(diffs)))) / math.sqrt(2)
    # Half the differences equal (values repeated exactly): fall back on the plain spread.
    return sigma if sigma > 0 else float(np.std(y))


def _tested(y: np.ndarray, cuts: list[int]) -> list[int]:
    """`cuts` less those whose two sides do not differ at level ALPHA, weakest first."""
    cuts = list(cuts)
    while cuts:
        edges = [0, *cuts, len(y)]
        p_values = [_welch_p(y[edges[i] : c], y[c : edges[i + 2]]) for i, c in enumerate(cuts)]
        worst = max(range(len(cuts)), key=lambda i: p_values[i])
        if p_values[worst] <= ALPHA:
            break
        del cuts[worst]
    return cuts


def _welch_p(a: np.ndarray, b: np.ndarray) -> float:
    """Two-sided p-value of Welch's t-test (by hand: scipy's own costs ten times more)."""
    va, vb = float(a.var(ddof=1)) / a.size, float(b.var(ddof=1)) / b.size
    diff = abs(float(a.mean()) - float(b.mean()))
    if va + vb == 0:
        return 0.0 if diff > 0 else 1.0
    t = diff / math.sqrt(va + vb)
    df = (va + vb) ** 2 / (va**2 / (a.size - 1) + vb**2 / (b.size - 1))
    return float(2 * sps.t.sf(t, df))
