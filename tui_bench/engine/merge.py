"""What several generators measured, as one run: per-second rows merged when every
generator has closed that second, and their results summed. Latency percentiles only ever
come from merged histograms, never from averaged percentiles. Pure."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import fields, replace
from typing import Any, TypeVar

from tui_bench.histogram import LatencyHistogram
from tui_bench.result import STATUS_CLASSES, Distribution, Requests, Result, Traffic
from tui_bench.status_codes import bounded
from tui_bench.storage.series_columns import OVERALL_LATENCY_COLUMNS, OVERALL_PERCENTILES

_COUNTS = ("requests", "errors", *STATUS_CLASSES, "backlog")
_RATES = ("rps", "good_rps", "achieved_rps")
# The busiest generator's: the one that may be what limits the run.
_CLIENT_COLUMNS = ("client_cpu_pct", "client_thread_max_pct")

Row = Mapping[str, Any]
# A generator's row, its latencies and (a fixed-rate run) its latencies from the send.
Part = tuple[Row, LatencyHistogram | None, LatencyHistogram | None]
T = TypeVar("T")


class SecondMerger:
    """Rows of `count` generators in, merged rows out once every generator still running
    has closed that second (or ended)."""

    def __init__(self, count: int) -> None:
        self._parts: dict[int, dict[int, Part]] = {}
        self._through = [-1] * count
        self._ended = [False] * count
        self._next = 0
        self._overall = LatencyHistogram()

    def add(
        self,
        index: int,
        row: Row,
        histogram: LatencyHistogram | None,
        service: LatencyHistogram | None = None,
    ) -> list[Row]:
        t_s = int(row["t_s"])
        self._parts.setdefault(t_s, {})[index] = (row, histogram, service)
        self._through[index] = max(self._through[index], t_s)
        return self._ready()

    def end(self, index: int) -> list[Row]:
        """Generator `index` closes no more seconds (it ended, or was lost)."""
        self._ended[index] = True
        return self._ready()

    def _ready(self) -> list[Row]:
        live = [t for t, ended in zip(self._through, self._ended, strict=True) if not ended]
        last = min(live) if live else max(self._parts, default=-1)
        rows: list[Row] = []
        for t_s in range(self._next, last + 1):
            parts = self._parts.pop(t_s, None)
            if parts:
                rows.append(self._merge(t_s, [parts[i] for i in sorted(parts)]))
        self._next = max(self._next, last + 1)
        return rows

    def _merge(self, t_s: int, parts: Sequence[Part]) -> Row:
        rows = [row for row, _, _ in parts]
        merged: dict[str, Any] = {
            "t_s": t_s,
            "window_s": max(float(row.get("window_s") or 1.0) for row in rows),
        }
        for key in (*_COUNTS, *_RATES):
            merged[key] = _sum([row.get(key) for row in rows])
        second = _merged([h for _, h, _ in parts])
        if second is not None:
            self._overall.merge(second)
            p50, p90, p99 = second.percentiles_s((50, 90, 99))
            max_us = second.max_us
            overall = self._overall.percentiles_s(OVERALL_PERCENTILES)
            merged.update(
                n=second.count,
                p50_s=p50,
                p90_s=p90,
                p99_s=p99,
                max_s=None if max_us is None else max_us / 1e6,
                **dict(zip(OVERALL_LATENCY_COLUMNS.values(), overall, strict=True)),
            )
        service = _merged([s for _, _, s in parts])
        if service is not None:
            merged["service_p50_s"], merged["service_p99_s"] = service.percentiles_s((50, 99))
        for key in _CLIENT_COLUMNS:
            merged[key] = max((row[key] for row in rows if row.get(key) is not None), default=None)
        return merged


def _merged(histograms: Sequence[LatencyHistogram | None]) -> LatencyHistogram | None:
    """The histograms as one; None when any is unknown."""
    merged = LatencyHistogram()
    for histogram in histograms:
        if histogram is None:
            return None
        merged.merge(histogram)
    return merged


def merged_result(
    parts: Sequence[Result],
    histogram: LatencyHistogram | None,
    connections: Sequence[int],
    service: LatencyHistogram | None = None,
    *,
    approx: bool = False,
) -> Result:
    """The generators' results as one: counts and bytes summed (they ran at once), the
    longest duration (the merged window), the rates of the merged counts over it (a lost
    generator's counted up to when it was lost), latency from their merged `histogram`
    (min, max, mean and sd pooled from theirs; `approx` when it was merged from quantile
    tables), a fixed-rate run's latency from the send likewise from `service`; connect and
    TTFB pooled by connections."""
    first = parts[0]
    requests = Requests(
        **{f.name: _sum([getattr(p.requests, f.name) for p in parts]) for f in fields(Requests)}
    )
    # A generator lost mid-run knows what it finished, not what it had sent: at least that.
    requests = replace(requests, started=_sum([_started(p.requests) for p in parts]))
    duration = max((p.duration_s for p in parts if p.duration_s is not None), default=None)
    traffic = Traffic(
        **{f.name: _sum([getattr(p.traffic, f.name) for p in parts]) for f in fields(Traffic)}
    )
    weights = [float(p.requests.succeeded or p.requests.done or 0) for p in parts]
    latency = _pooled([p.latency for p in parts], weights)
    if histogram is not None and histogram.count:
        latency = replace(_with_percentiles(latency, histogram), approx=approx)
    service_latency = _pooled([p.service_latency for p in parts], weights)
    if service_latency is not None and service is not None and service.count:
        service_latency = _with_percentiles(service_latency, service)
    return Result(
        tool=first.tool,
        tool_version=first.tool_version,
        protocol=next((p.protocol for p in parts if p.protocol), None),
        duration_s=duration,
        rps=_over(duration, requests.done, [(p.rps, p.duration_s) for p in parts]),
        bytes_per_s=_over(
            duration, traffic.total_bytes, [(p.bytes_per_s, p.duration_s) for p in parts]
        ),
        requests=requests,
        status=_sum_maps([p.status for p in parts]),
        # Known only when every generator's are.
        status_codes=bounded(_sum_maps([p.status_codes for p in parts]))
        if all(p.status_codes or not p.status for p in parts)
        else {},
        traffic=traffic,
        latency=latency,
        connect=_pooled([p.connect for p in parts], [float(c) for c in connections]),
        ttfb=_pooled([p.ttfb for p in parts], [float(c) for c in connections]),
        errors=_sum_maps([p.errors for p in parts]),
        tls=next((p.tls for p in parts if p.tls), None),
        service_latency=service_latency,
        # Every generator runs the one spec, so one warm-up.
        warm_up_s=first.warm_up_s,
    )


def _over(
    window: float | None,
    count: float | None,
    rates: Sequence[tuple[float | None, float | None]],
) -> float | None:
    """The merged `count` over the merged `window` (when the count is unknown, what each
    part's rate over its own duration counted): rates of different windows are never
    added."""
    if not window:
        return None
    if count is not None:
        return count / window
    counted = [rate * duration for rate, duration in rates if rate is not None and duration]
    return sum(counted) / window if counted else None


def _started(requests: Requests) -> int | None:
    """A part lost mid-run may not say what it started: at least what it did."""
    return requests.started if requests.started is not None else requests.done


def _with_percentiles(latency: Distribution | None, histogram: LatencyHistogram) -> Distribution:
    whole = histogram.distribution()
    if latency is None:
        return whole
    return replace(latency, percentiles=dict(whole.percentiles))


def _pooled(parts: Sequence[Distribution | None], weights: Sequence[float]) -> Distribution | None:
    """min, max, mean and sd of the union of the parts, each part `weights` values; no
    percentiles (those cannot be pooled). None when a part has none."""
    if not parts or any(p is None for p in parts):
        return None
    known = [(p, w) for p, w in zip(parts, weights, strict=True) if p is not None and w > 0]
    total = sum(w for _, w in known)
    mins = [p.min_s for p, _ in known if p.min_s is not None]
    maxes = [p.max_s for p, _ in known if p.max_s is not None]
    mean = sd = None
    if total and all(p.mean_s is not None for p, _ in known):
        mean = sum((p.mean_s or 0.0) * w for p, w in known) / total
        if all(p.sd_s is not None for p, _ in known):
            # Within-part variance plus the spread of the part means.
            variance = sum(
                w * ((p.sd_s or 0.0) ** 2 + ((p.mean_s or 0.0) - mean) ** 2) for p, w in known
            )
            sd = math.sqrt(variance / total)
    return Distribution(
        min_s=min(mins, default=None),
        max_s=max(maxes, default=None),
        mean_s=mean,
        sd_s=sd,
        resolution_s=next((p.resolution_s for p, _ in known if p.resolution_s), None),
    )


def _sum(values: Sequence[T | None]) -> T | None:
    present = [v for v in values if v is not None]
    if not present:
        return None
    total: Any = 0
    for value in present:
        total += value
    return total  # type: ignore[no-any-return]


def _sum_maps(maps: Sequence[Mapping[str, int]]) -> dict[str, int]:
    out: dict[str, int] = {}
    for counts in maps:
        for key, value in counts.items():
            out[key] = out.get(key, 0) + value
    return out
