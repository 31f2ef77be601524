"""The stalls of one run (analysis/stalls.py): from h2load's request log as it is read, from
the summary and per-second counts of the tools that keep no log."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from tui_bench.analysis.stalls import (
    STALL_MIN_S,
    Int64Array,
    from_requests,
    from_silence,
    from_summary,
    stall_warning,
)
from tui_bench.histogram import LatencyHistogram
from tui_bench.records.warning import Warning
from tui_bench.result import Result
from tui_bench.spec import RunSpec

# Long requests kept at most: a server whose ordinary requests take longer than STALL_MIN_S
# would otherwise fill memory with them over a long run.
MAX_KEPT = 100_000


class StallWatch:
    """Keeps the requests of a request log that took long enough to have been held by a
    stall, as µs since the run's start `t0_us`. Memory stays bounded: past MAX_KEPT the
    bar doubles (a run with that many requests over it has a tail there, and a stall has to
    stand far beyond it)."""

    def __init__(self, t0_us: int) -> None:
        self._t0_us = t0_us
        self._floor_us = round(STALL_MIN_S * 1_000_000)
        self._starts: list[Int64Array] = []
        self._kept = 0
        self._ends: list[Int64Array] = []

    def observe(self, rows: Int64Array) -> None:
        """`rows` of (start_us, status, duration_us), as LogIngest parsed them."""
        duration = rows[:, 2]
        if not rows.size or int(duration.max()) < self._floor_us:
            return
        long = duration >= self._floor_us
        starts = rows[long, 0] - self._t0_us
        self._starts.append(starts)
        self._ends.append(starts + duration[long])
        self._kept += starts.size
        if self._kept > MAX_KEPT:
            self._floor_us *= 2
            starts, ends = self.requests()
            keep = (ends - starts) >= self._floor_us
            self._starts, self._ends = [starts[keep]], [ends[keep]]
            self._kept = self._starts[0].size

    def requests(self) -> tuple[Int64Array, Int64Array]:
        """The long requests' starts and completions."""
        empty = np.empty(0, dtype=np.int64)
        return (
            np.concatenate(self._starts) if self._starts else empty,
            np.concatenate(self._ends) if self._ends else empty,
        )


def stall_of_run(
    spec: RunSpec,
    result: Result | None,
    series: Sequence[Mapping[str, Any]],
    watch: StallWatch | None,
    logged: LatencyHistogram | None,
) -> list[Warning]:
    """The run's `stall` warning, if it had any; `watch` and `logged` (every request of the
    log) for a tool with a request log. None for a fixed-rate run: its latency already
    counts every request from when it was due, a stall included."""
    if spec.rate is not None:
        return []
    latency = result.latency if result is not None else None
    longest = latency.max_s if latency is not None else None
    median = latency.percentiles.get("p50_s") if latency is not None else None
    if watch is not None and logged is not None:
        stalls = from_requests(*watch.requests(), logged.percentile_s(50))
    elif spec.tool == "wrk":
        stalls = from_silence(series) or from_summary(longest, median, series)
    else:
        # ab's counts come a tenth of its requests at a time, seconds apart on a healthy run:
        # they cannot tell when.
        stalls = from_summary(longest, median, ())
    # wrk corrects its percentiles for the requests a stall kept it from sending.
    warning = stall_warning(stalls, result.rps if result else None, corrected=spec.tool == "wrk")
    return [warning] if warning is not None else []
