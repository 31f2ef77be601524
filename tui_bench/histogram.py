"""A mergeable latency histogram over integer microseconds.

Buckets are log-linear, as in HdrHistogram: values below 2**SUB_BITS get one bucket each,
and every power of two above that is cut into 2**SUB_BITS equal sub-buckets. A bucket is
never wider than 1/128 of its lower edge, so a percentile reported at the bucket midpoint is
within 1/256 (0.4 %) of the true sample value. Counts are merged by adding buckets, which is
what makes windows and repeats exact: percentiles are never averaged.

Count, min, max, sum and sum of squares are kept exactly beside the buckets, so min, max,
mean and standard deviation are those of the raw samples, not of the buckets.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

from tui_bench.result import Distribution, percentile_key, percentile_of_key

SUB_BITS = 7
SUB_COUNT = 1 << SUB_BITS
# 2**37 µs is 38 hours: a request longer than any run anyone will hold open.
MAX_US = (1 << 37) - 1
# Worst case |reported percentile - sample| / sample: half a bucket over its lower edge.
RELATIVE_ERROR = 1 / (2 * SUB_COUNT)
# At most this many points stand for a run's requests in `from_quantiles`.
_QUANTILE_POINTS = 100_000
DEFAULT_QUANTILES = (50.0, 75.0, 90.0, 95.0, 99.0, 99.9, 99.99, 99.999)

_US_PER_S = 1_000_000
# Splitting a value at bit 20 keeps each partial dot product of a block inside int64
# (hi < 2**17, lo < 2**20, block of 2**22 values), so the sum of squares stays exact.
_SPLIT_BITS = 20
_SPLIT_MASK = (1 << _SPLIT_BITS) - 1
_BLOCK = 1 << 22
_INT64_MAX = (1 << 63) - 1

Int64Array = npt.NDArray[np.int64]


def bucket_of(value_us: int) -> int:
    """The bucket holding `value_us` (0 <= value_us <= MAX_US)."""
    shift = max(value_us.bit_length() - 1 - SUB_BITS, 0)
    return (shift << SUB_BITS) + (value_us >> shift)


def bucket_indexes(values_us: Int64Array) -> Int64Array:
    """Vectorized `bucket_of`, for values in 0..MAX_US."""
    # The float64 exponent field is floor(log2(v)) exactly for integers below 2**53; it is
    # much cheaper than a loop of bit_length calls. Zero has exponent field 0 -> shift 0.
    exponent = (values_us.astype(np.float64).view(np.int64) >> 52) - 1023
    shift = np.maximum(exponent - SUB_BITS, 0)
    indexes: Int64Array = (shift << SUB_BITS) + (values_us >> shift)
    return indexes


def bucket_bounds(bucket: int) -> tuple[int, int]:
    """The half-open range [low, high) of microsecond values that fall into `bucket`."""
    shift = max((bucket >> SUB_BITS) - 1, 0)
    sub = bucket - (shift << SUB_BITS)
    return sub << shift, (sub + 1) << shift


N_BUCKETS = bucket_of(MAX_US) + 1


def _sum_and_squares(values: Int64Array, vmax: int) -> tuple[int, int]:
    if vmax * vmax <= _INT64_MAX // max(values.size, 1):
        return int(values.sum()), int(np.dot(values, values))
    total = 0
    squares = 0
    for start in range(0, values.size, _BLOCK):
        part = values[start : start + _BLOCK]
        high = part >> _SPLIT_BITS
        low = part & _SPLIT_MASK
        total += int(part.sum())
        squares += (
            (int(np.dot(high, high)) << (2 * _SPLIT_BITS))
            + (int(np.dot(high, low)) << (_SPLIT_BITS + 1))
            + int(np.dot(low, low))
        )
    return total, squares


def _check_percentile(q: float) -> None:
    if not 0 <= q <= 100:
        raise ValueError(f"percentile must be within 0..100, got {q}")


def _rank(q: float, n: int) -> int:
    """1-based rank of the q-th percentile: the smallest sample with at least q % at or below.

    `Fraction(str(q))` takes q as written, so 99.9 % of 1000 is rank 999, not 1000."""
    return max(1, math.ceil(Fraction(str(q)) * n / 100))


class LatencyHistogram:
    """Request durations in integer microseconds; see the module docstring.

    Only the span between the lowest and highest non-empty bucket is stored, so a
    per-second histogram costs a few KiB rather than the full N_BUCKETS * 8 bytes.
    """

    __slots__ = ("_counts", "_lo", "_max", "_min", "_n", "_sum", "_sumsq")

    def __init__(self) -> None:
        self._lo = 0
        self._counts: Int64Array = np.zeros(0, dtype=np.int64)
        self._n = 0
        self._min = 0
        self._max = 0
        self._sum = 0
        self._sumsq = 0

    def add(self, values_us: npt.NDArray[np.integer[Any]]) -> None:
        """Count every value (integer microseconds in 0..MAX_US); ValueError otherwise."""
        if values_us.dtype.kind not in "iu":
            raise TypeError(f"integer microseconds expected, got dtype {values_us.dtype}")
        if values_us.size == 0:
            return
        values = values_us.astype(np.int64, copy=False).ravel()
        vmin = int(values.min())
        vmax = int(values.max())
        if vmin < 0 or vmax > MAX_US:
            raise ValueError(f"values must be within 0..{MAX_US} µs, got {vmin}..{vmax}")
        lo = bucket_of(vmin)
        hi = bucket_of(vmax)
        counts = np.bincount(bucket_indexes(values) - lo, minlength=hi - lo + 1)
        self._add_counts(lo, counts)
        total, squares = _sum_and_squares(values, vmax)
        self._add_moments(values.size, vmin, vmax, total, squares)

    def merge(self, other: LatencyHistogram) -> None:
        """Add every sample of `other` to this histogram."""
        if other._n == 0:
            return
        self._add_counts(other._lo, other._counts)
        self._add_moments(other._n, other._min, other._max, other._sum, other._sumsq)

    def copy(self) -> LatencyHistogram:
        twin = LatencyHistogram()
        twin.merge(self)
        return twin

    @property
    def count(self) -> int:
        return self._n

    @property
    def min_us(self) -> int | None:
        return self._min if self._n else None

    @property
    def max_us(self) -> int | None:
        return self._max if self._n else None

    @property
    def mean_s(self) -> float | None:
        if not self._n:
            return None
        return self._sum / self._n / _US_PER_S

    @property
    def sd_s(self) -> float | None:
        """Population standard deviation, as h2load reports it."""
        if not self._n:
            return None
        # n² var = n Σx² - (Σx)², exact in integers: no cancellation when sd << mean.
        spread = self._n * self._sumsq - self._sum * self._sum
        return math.sqrt(spread) / self._n / _US_PER_S

    def percentile_s(self, q: float) -> float | None:
        """The q-th percentile (q in 0..100) in seconds; None when empty."""
        return self.percentiles_s((q,))[0]

    def percentiles_s(self, qs: Iterable[float]) -> list[float | None]:
        """Several percentiles with one pass over the buckets."""
        qs = list(qs)
        for q in qs:
            _check_percentile(q)
        if not self._n:
            return [None] * len(qs)
        cumulative = np.cumsum(self._counts)
        out: list[float | None] = []
        for q in qs:
            rank = _rank(q, self._n)
            value: float
            if rank == 1:
                value = self._min
            elif rank == self._n:
                value = self._max
            else:
                value = self._reported_us(self._lo + int(np.searchsorted(cumulative, rank)))
            out.append(value / _US_PER_S)
        return out

    def _reported_us(self, bucket: int) -> float:
        """The value a bucket's percentiles report: its middle, kept inside the exact range
        of the samples."""
        low, high = bucket_bounds(bucket)
        return min(max((low + high - 1) / 2, self._min), self._max)

    def reported(self) -> list[tuple[float, int]]:
        """Each non-empty bucket as (the value its percentiles report, in µs; its count),
        ascending: what another histogram format is given to stand for this one."""
        return [(self._reported_us(bucket), count) for bucket, count in self.to_sparse()]

    def counts_at_most(self, bounds_s: Sequence[float]) -> list[int]:
        """How many samples took at most each bound (ascending, in seconds), a bucket
        counted by the value its percentiles report."""
        values = self.reported()
        middles = np.array([v for v, _ in values], dtype=np.float64) / _US_PER_S
        cumulative = np.cumsum(np.array([c for _, c in values], dtype=np.int64))
        found = np.searchsorted(middles, np.asarray(bounds_s, dtype=np.float64), side="right")
        return [int(cumulative[i - 1]) if i else 0 for i in found.tolist()]

    @property
    def sum_s(self) -> float:
        """Every sample added up, in seconds."""
        return self._sum / _US_PER_S

    def distribution(self, qs: Sequence[float] = DEFAULT_QUANTILES) -> Distribution:
        if not self._n:
            return Distribution()
        values = [v for v in self.percentiles_s(qs) if v is not None]
        return Distribution(
            min_s=self._min / _US_PER_S,
            max_s=self._max / _US_PER_S,
            mean_s=self.mean_s,
            sd_s=self.sd_s,
            percentiles={percentile_key(q): v for q, v in zip(qs, values, strict=True)},
        )

    def to_sparse(self) -> list[list[int]]:
        """[[bucket, count], ...] for the non-empty buckets, ascending."""
        nonzero = np.flatnonzero(self._counts)
        pairs: list[list[int]] = np.column_stack(
            (nonzero + self._lo, self._counts[nonzero])
        ).tolist()
        return pairs

    @classmethod
    def from_sparse(
        cls,
        buckets: Sequence[Sequence[int]],
        *,
        min_us: int | None,
        max_us: int | None,
        sum_us: int,
        sumsq_us2: int,
    ) -> LatencyHistogram:
        """Rebuild from `to_sparse()` plus the exact moments; ValueError when inconsistent."""
        hist = cls()
        if not buckets:
            if min_us is not None or max_us is not None or sum_us or sumsq_us2:
                raise ValueError("an empty histogram carries no min, max or sums")
            return hist
        table = np.array(buckets, dtype=np.int64).reshape(-1, 2)
        indexes = table[:, 0]
        counts = table[:, 1]
        if (
            min_us is None
            or max_us is None
            or not 0 <= min_us <= max_us <= MAX_US
            or np.any(np.diff(indexes) <= 0)
            or np.any(counts <= 0)
            or int(indexes[0]) != bucket_of(min_us)
            or int(indexes[-1]) != bucket_of(max_us)
        ):
            raise ValueError("sparse histogram does not match its min/max or is not ascending")
        lo = int(indexes[0])
        dense = np.zeros(int(indexes[-1]) - lo + 1, dtype=np.int64)
        dense[indexes - lo] = counts
        hist._add_counts(lo, dense)
        hist._add_moments(int(counts.sum()), min_us, max_us, sum_us, sumsq_us2)
        return hist

    @classmethod
    def from_quantiles(cls, count: int, latency: Distribution) -> LatencyHistogram | None:
        """`count` samples spread as a tool's quantile table says (`latency`: its min, max
        and percentiles; its mean and sd kept as the moments): linear between the quantiles
        it gives, so only approximate. What merges the runs of tools that keep no histogram.
        None when it has no min or max."""
        if count <= 0 or latency.min_s is None or latency.max_s is None:
            return None
        low = round(latency.min_s * _US_PER_S)
        high = max(low, round(latency.max_s * _US_PER_S))
        if not 0 <= low <= high <= MAX_US:
            return None
        table = sorted((percentile_of_key(k), v) for k, v in latency.percentiles.items())
        qs = [0.0, *(q for q, _ in table), 100.0]
        # A quantile's value is never below an earlier one's, and within min..max.
        values = np.maximum.accumulate(
            np.clip([low, *(v * _US_PER_S for _, v in table), high], low, high)
        )
        # Placing at most this many points keeps a run of millions of requests cheap; the
        # counts are then scaled to `count`.
        points = min(count, _QUANTILE_POINTS)
        ranks = (np.arange(points) + 0.5) * (100.0 / points)
        placed = np.rint(np.interp(ranks, qs, values)).astype(np.int64)
        placed[0], placed[-1] = low, high
        first = bucket_of(low)
        counts = np.bincount(bucket_indexes(placed) - first)
        if points < count:
            scaled = counts * count // points
            # The remainder to the largest fractions, so that the counts add up to `count`.
            short = count - int(scaled.sum())
            order = np.argsort(-(counts * count % points), kind="stable")
            scaled[order[:short]] += 1
            counts = scaled
        buckets = [[first + int(i), int(counts[i])] for i in np.flatnonzero(counts)]
        mean_us = (latency.mean_s or 0.0) * _US_PER_S
        if latency.mean_s is None:
            mean_us = float(placed.mean())
        sd_us = (latency.sd_s or 0.0) * _US_PER_S
        return cls.from_sparse(
            buckets,
            min_us=low,
            max_us=high,
            sum_us=round(mean_us * count),
            sumsq_us2=round(count * (sd_us * sd_us + mean_us * mean_us)),
        )

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready; the sum of squares is a decimal string because it outgrows 64 bits,
        which orjson and most JSON readers reject."""
        return {
            "sub_bits": SUB_BITS,
            "n": self._n,
            "min_us": self.min_us,
            "max_us": self.max_us,
            "sum_us": self._sum,
            "sumsq_us2": str(self._sumsq),
            "buckets": self.to_sparse(),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> LatencyHistogram:
        if data.get("sub_bits") != SUB_BITS:
            raise ValueError(f"histogram with sub_bits={data.get('sub_bits')!r}, need {SUB_BITS}")
        hist = cls.from_sparse(
            data["buckets"],
            min_us=data["min_us"],
            max_us=data["max_us"],
            sum_us=int(data["sum_us"]),
            sumsq_us2=int(data["sumsq_us2"]),
        )
        if hist.count != data["n"]:
            raise ValueError(f"histogram says n={data['n']} but its buckets hold {hist.count}")
        return hist

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, LatencyHistogram):
            return NotImplemented
        return (
            self._n == other._n
            and self._min == other._min
            and self._max == other._max
            and self._sum == other._sum
            and self._sumsq == other._sumsq
            and self._lo == other._lo
            and np.array_equal(self._counts, other._counts)
        )

    def __repr__(self) -> str:
        return f"LatencyHistogram(n={self._n}, min_us={self.min_us}, max_us={self.max_us})"

    def _add_counts(self, lo: int, counts: Int64Array) -> None:
        hi = lo + counts.size
        if not self._counts.size:
            self._lo = lo
            self._counts = counts.astype(np.int64, copy=True)
            return
        cur_hi = self._lo + self._counts.size
        if lo < self._lo or hi > cur_hi:
            new_lo = min(lo, self._lo)
            grown = np.zeros(max(hi, cur_hi) - new_lo, dtype=np.int64)
            grown[self._lo - new_lo : cur_hi - new_lo] = self._counts
            self._lo = new_lo
            self._counts = grown
        self._counts[lo - self._lo : hi - self._lo] += counts

    def _add_moments(self, n: int, vmin: int, vmax: int, total: int, squares: int) -> None:
        if self._n:
            self._min = min(self._min, vmin)
            self._max = max(self._max, vmax)
        else:
            self._min = vmin
            self._max = vmax
        self._n += n
        self._sum += total
        self._sumsq += squares
