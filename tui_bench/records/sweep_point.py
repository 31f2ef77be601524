"""A sweep's points, each aggregated over its runs so far, and its knee.

A point's figures, the ones every view shows (tables, exports, charts, the knee, history,
the catalogue) and the centre compare tests, are the median of its completed runs' own
values. The run is the unit, as in compare's rank test; one disturbed run (a noisy
neighbour, a GC storm) moves a mean or a pooled percentile by its whole excess but leaves
the median where the other runs put it (benchstat reports medians for the same reason). The
point keeps beside them the spread: sd, range, the CI of the mean, and the merged
histograms' percentiles, which weigh every request alike and so follow the busiest run."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from tui_bench.records.spread import Spread
from tui_bench.records.verdict import Validity

NOTHING = Spread(0)


@dataclass(frozen=True)
class SweepPoint:
    """One point of a sweep plan over its runs so far; only completed runs count toward its
    figures."""

    index: int
    name: str | None
    label: str | None
    # The plan's value of each parameter it varies (`{"c": 10}`).
    values: Mapping[str, Any]
    runs: int = 0
    n: int = 0  # completed runs
    failed: int = 0
    interrupted: int = 0
    rps: Spread = NOTHING
    # The latencies of the runs' merged histograms ("histograms"), or for a tool without
    # per-request times the worst run's ("worst run"), which bounds the pooled one.
    latency: Mapping[str, float | None] = field(default_factory=dict)
    latency_from: str = "histograms"
    latency_runs: int = 0
    latency_spread: Mapping[str, Spread] = field(default_factory=dict)
    requests: int = 0
    errors: int | None = None
    error_rate: float | None = None
    server_cpu_pct: Spread = NOTHING
    client_cpu_pct: Spread = NOTHING
    # None before any run of it ran, and for a point aggregated before verdicts were kept.
    validity: Validity | None = None
    # Whether its figures meet every clause of the sweep's SLO, judged when it was
    # recorded; None without an SLO or a completed run.
    meets_slo: bool | None = None

    @property
    def rps_figure(self) -> float | None:
        """The point's req/s: the median of its completed runs'."""
        return self.rps.median

    def latency_figure(self, key: str) -> float | None:
        """The point's latency `key` (`p99_s`, `max_s`, ...): the median of its completed
        runs' own, from each run's histogram, or from its result for a tool without
        per-request times."""
        spread = self.latency_spread.get(key)
        return spread.median if spread else None

    def figures(self) -> dict[str, float | None]:
        """What thresholds and the SLO read from the point: its req/s, error rate and
        latencies as every view shows them."""
        return {
            "rps": self.rps_figure,
            "error_rate": self.error_rate,
            **{key: self.latency_figure(key) for key in self.latency_spread},
        }

    @property
    def verdict(self) -> str | None:
        return self.validity.verdict if self.validity else None

    @property
    def held(self) -> bool:
        """Valid and within the SLO: what the knee and a capacity step ask of a point."""
        return self.verdict == "valid" and self.meets_slo is True


@dataclass(frozen=True)
class Knee:
    """The knee of a sweep: its valid point with the most req/s that meets every clause of
    the SLO; `point` None when no point meets it."""

    slo: str | None
    point: int | None
    name: str | None = None
    values: Mapping[str, Any] | None = None
    rps: float | None = None


@dataclass(frozen=True)
class SweepSummary:
    """A sweep's points aggregated over its runs so far, and its knee (None without an
    SLO)."""

    points: tuple[SweepPoint, ...] = ()
    knee: Knee | None = None

    @property
    def knee_point(self) -> int | None:
        return self.knee.point if self.knee else None

    def point(self, index: int) -> SweepPoint | None:
        return next((p for p in self.points if p.index == index), None)
