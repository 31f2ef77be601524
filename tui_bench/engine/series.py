"""Joins per-second traffic (from the request log or live counts) with resource samples
into the rows of the session's series. Pure: the engine feeds it, tests drive it directly."""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Mapping, Sequence
from itertools import takewhile
from statistics import fmean
from typing import Any

from tui_bench.engine.log_ingest import SecondStats
from tui_bench.engine.schedule import slack_us
from tui_bench.result import STATUS_CLASSES, RateFigures
from tui_bench.sampling.samples import ResourceSample
from tui_bench.spec import RunSpec
from tui_bench.storage.series_columns import OVERALL_LATENCY_COLUMNS

GOOD_CLASSES = ("2xx", "3xx")
# A backlog that grew for this many seconds up to the end of a run was not caught up.
GROWING_S = 2


def traffic_from_log(stats: SecondStats, window_s: float = 1.0) -> dict[str, Any]:
    """A row of the series; `window_s` is how much of its second the run lasted (the last
    one is usually cut short): the rates are per real second of it."""
    good = sum(stats.status.get(c, 0) for c in GOOD_CLASSES)
    return {
        "t_s": stats.t_s,
        "window_s": window_s,
        "requests": stats.requests,
        "rps": rate(stats.requests, window_s),
        "good_rps": rate(good, window_s),
        # Anything that did not get a 2xx/3xx: transport failures and 4xx/5xx alike.
        "errors": stats.requests - good,
        **{c: stats.status.get(c, 0) for c in STATUS_CLASSES},
        "n": stats.n,
        "p50_s": stats.p50_s,
        "p90_s": stats.p90_s,
        "p99_s": stats.p99_s,
        "max_s": stats.max_s,
        **(
            dict(zip(OVERALL_LATENCY_COLUMNS.values(), stats.overall, strict=True))
            if stats.overall
            else {}
        ),
        **(open_loop_columns(stats, window_s) if stats.service is not None else {}),
    }


def traffic_from_count(t_s: int, requests: int | None, window_s: float = 1.0) -> dict[str, Any]:
    """A row for tools that only report a running count (wrk's hook, ab's lines):
    `requests` in the second, from `CountSeconds`."""
    if requests is None:
        return {"t_s": t_s, "window_s": window_s, "requests": None, "rps": None}
    return {"t_s": t_s, "window_s": window_s, "requests": requests, "rps": rate(requests, window_s)}


def open_loop_columns(stats: SecondStats, window_s: float) -> dict[str, Any]:
    """A fixed-rate run's second: what was sent (the rate achieved), what was due and not
    sent by its end, and the latency percentiles from the send beside those from when due."""
    assert stats.service is not None
    p50, p99 = stats.service.percentiles_s((50, 99))
    return {
        "achieved_rps": None if stats.sent is None else rate(stats.sent, window_s),
        "backlog": stats.backlog,
        "service_p50_s": p50,
        "service_p99_s": p99,
    }


def rate_figures(spec: RunSpec, rows: Sequence[Mapping[str, Any]]) -> RateFigures | None:
    """How a fixed-rate run kept its schedule, from its series; None for a closed loop.

    The backlog is said to grow from the first second of the stretch, lasting to the end
    and at least GROWING_S long, in which it stayed above the requests of the schedule's slack (what
    h2load's clumping leaves at any moment) and ended above where it began by more than that
    slack: a few requests late on a busy machine are the scheduling's jitter, not a queue."""
    target, per_client = spec.asked_rate, spec.per_client_rate
    if target is None or per_client is None:
        return None
    known = [(int(r["t_s"]), int(r["backlog"])) for r in rows if r.get("backlog") is not None]
    allowance = max(1.0, target * slack_us(per_client) / 1e6)
    stretch = list(reversed(list(takewhile(lambda tb: tb[1] > allowance, reversed(known)))))
    growing = len(stretch) >= GROWING_S and stretch[-1][1] - stretch[0][1] > allowance
    return RateFigures(
        target_rps=target,
        per_client_rps=per_client,
        backlog_end=known[-1][1] if known else None,
        backlog_from_s=float(stretch[0][0]) if growing else None,
    )


class SeriesBuilder:
    def __init__(self) -> None:
        self._samples: dict[int, list[ResourceSample]] = defaultdict(list)

    def add_sample(self, sample: ResourceSample) -> None:
        self._samples[math.floor(sample.t_s)].append(sample)

    def row(self, traffic: Mapping[str, Any]) -> dict[str, Any]:
        """`traffic` plus the resources of the same second; older samples are released."""
        t_s = int(traffic["t_s"])
        samples = self._samples.pop(t_s, [])
        for stale in [k for k in self._samples if k < t_s]:
            del self._samples[stale]
        return {**traffic, **resources_of(samples)}


def rate(count: int, window_s: float) -> float:
    """Per real second of the window; a whole second gives the count itself."""
    return count if window_s == 1.0 else round(count / window_s, 2)


def window_of(t_s: int, end_s: float) -> float:
    """How much of second `t_s` a run that ended `end_s` into it lasted: 1 before its last
    second, the part of it the run lasted in that one (never 0: at least a millisecond)."""
    return round(min(1.0, max(0.001, end_s - t_s)), 3)


def resources_of(samples: list[ResourceSample]) -> dict[str, Any]:
    def mean(values: list[float | None]) -> float | None:
        present = [v for v in values if v is not None]
        return round(fmean(present), 2) if present else None

    def peak(values: list[Any]) -> Any:
        present = [v for v in values if v is not None]
        top = max(present) if present else None
        return round(top, 2) if isinstance(top, float) else top

    return {
        "server_cpu_pct": mean([s.server_cpu_pct for s in samples]),
        "server_rss_bytes": peak([s.server_rss_bytes for s in samples]),
        "server_procs": peak([s.server_procs for s in samples]),
        "system_cpu_pct": mean([fmean(s.system_cpu_pct) for s in samples if s.system_cpu_pct]),
        "client_cpu_pct": mean([s.client_cpu_pct for s in samples]),
        "client_thread_max_pct": peak([s.client_thread_max_pct for s in samples]),
    }
