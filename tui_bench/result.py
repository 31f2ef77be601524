"""The normalized result of one run: the same shape whatever tool produced it.

Times are seconds, sizes bytes, rates per second. A field is None when the tool does not
report it; `to_dict` keeps such keys as null so consumers see a stable shape.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any

STATUS_CLASSES = ("2xx", "3xx", "4xx", "5xx")
# The answers a tool counts by a status it did not like, as `errors` names them: wrk's "Non-2xx
# or 3xx responses" and ab's "Non-2xx responses" (ab counts redirects among them).
NON_2XX_3XX = "non_2xx_3xx"
NON_2XX = "non_2xx"


def percentile_key(q: float) -> str:
    """`99.9` -> `p99_9_s`; `50` -> `p50_s`."""
    text = f"{q:.6f}".rstrip("0").rstrip(".")
    return "p" + text.replace(".", "_") + "_s"


def percentile_of_key(key: str) -> float:
    """Inverse of `percentile_key`."""
    return float(key[1:-2].replace("_", "."))


@dataclass(frozen=True)
class Distribution:
    """A latency-like distribution in seconds; percentiles keyed like `p99_9_s`."""

    min_s: float | None = None
    max_s: float | None = None
    mean_s: float | None = None
    sd_s: float | None = None
    percentiles: Mapping[str, float] = field(default_factory=dict)
    # The tool's unit when it rounds (ab: whole ms): a value below it is "under", not 0.
    resolution_s: float | None = None
    # The percentiles come from the quantile tables of several runs merged (tools that keep
    # no histogram): close, not exact; every view marks them so.
    approx: bool = False

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "min_s": self.min_s,
            "max_s": self.max_s,
            "mean_s": self.mean_s,
            "sd_s": self.sd_s,
        }
        for key in sorted(self.percentiles, key=percentile_of_key):
            out[key] = self.percentiles[key]
        if self.resolution_s is not None:
            out["resolution_s"] = self.resolution_s
        if self.approx:
            out["approx"] = True
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Distribution:
        pct = {k: float(v) for k, v in data.items() if k.startswith("p") and v is not None}
        return cls(
            min_s=data.get("min_s"),
            max_s=data.get("max_s"),
            mean_s=data.get("mean_s"),
            sd_s=data.get("sd_s"),
            percentiles=pct,
            resolution_s=data.get("resolution_s"),
            approx=data.get("approx") is True,
        )


@dataclass(frozen=True)
class Requests:
    total: int | None = None
    started: int | None = None
    done: int | None = None
    succeeded: int | None = None
    failed: int | None = None
    errored: int | None = None
    timeout: int | None = None


@dataclass(frozen=True)
class Traffic:
    total_bytes: int | None = None
    header_bytes: int | None = None
    data_bytes: int | None = None


@dataclass(frozen=True)
class Tls:
    protocol: str | None = None
    cipher: str | None = None
    temp_key: str | None = None


@dataclass(frozen=True)
class RateFigures:
    """A fixed-rate (open-loop) run's schedule and how it was kept. What was achieved over
    the run is the result's `rps`; per second, the series' `achieved_rps` and `backlog`."""

    # What h2load was asked for: `per_client_rps` (its --rps) times the connections.
    target_rps: float
    per_client_rps: float
    # Requests due but not sent when the run ended; None when unknown.
    backlog_end: int | None = None
    # When the backlog that lasted to the end began to build (seconds into the run), when
    # it grew from there on: the rate was not held from then; None when it was.
    backlog_from_s: float | None = None


@dataclass(frozen=True)
class Result:
    """What a run measured, normalized across tools."""

    tool: str
    tool_version: str | None = None
    protocol: str | None = None
    duration_s: float | None = None
    rps: float | None = None
    bytes_per_s: float | None = None
    requests: Requests = field(default_factory=Requests)
    status: Mapping[str, int] = field(default_factory=dict)
    # Beside `status`, by exact code where the tool tells each request's (status_codes.py):
    # `{"405": 9812}`; empty when unknown.
    status_codes: Mapping[str, int] = field(default_factory=dict)
    traffic: Traffic = field(default_factory=Traffic)
    latency: Distribution | None = None
    connect: Distribution | None = None
    ttfb: Distribution | None = None
    errors: Mapping[str, int] = field(default_factory=dict)
    tls: Tls | None = None
    # A fixed-rate run's: `latency` is then from when each request was due, and this from
    # when it was sent (what the tool itself reports).
    service_latency: Distribution | None = None
    rate: RateFigures | None = None
    # The warm-up before the measured window `duration_s` (what req/s is over), which it
    # does not include; None without one.
    warm_up_s: float | None = None

    @property
    def error_count(self) -> int | None:
        """Requests that did not succeed (a transport failure, a timeout, a status outside
        2xx/3xx: each parser's `succeeded` leaves them all out), or the failures the tool
        counts by kind when there are more of those: h2load's connection failures and wrk's
        socket errors are not requests it counts as failed, while ab's kinds are. The larger
        of the two never counts a failure twice. None when the tool reports neither."""
        total, succeeded = self.requests.total, self.requests.succeeded
        by_kind = sum(self.errors.values())
        if total is None or succeeded is None:
            return by_kind or None
        return max(total - succeeded, by_kind)

    @property
    def error_rate(self) -> float | None:
        """`error_count` over all requests; None when unknown or no request ran."""
        count, total = self.error_count, self.requests.total
        return min(count / total, 1.0) if count is not None and total else None

    @property
    def good_rps(self) -> float | None:
        """Requests that succeeded, per second of the run; None when either is unknown."""
        error_rate = self.error_rate
        return None if self.rps is None or error_rate is None else self.rps * (1 - error_rate)

    def with_(self, **changes: Any) -> Result:
        return replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        def flat(obj: Any) -> Any:
            if obj is None:
                return None
            if isinstance(obj, Distribution):
                return obj.to_dict()
            return {f.name: getattr(obj, f.name) for f in fields(obj)}

        return {
            "tool": self.tool,
            "tool_version": self.tool_version,
            "protocol": self.protocol,
            "duration_s": self.duration_s,
            "warm_up_s": self.warm_up_s,
            "rps": self.rps,
            "bytes_per_s": self.bytes_per_s,
            "requests": flat(self.requests),
            "status": dict(self.status),
            "status_codes": dict(self.status_codes),
            "traffic": flat(self.traffic),
            "latency": flat(self.latency),
            "connect": flat(self.connect),
            "ttfb": flat(self.ttfb),
            "errors": dict(self.errors),
            "tls": flat(self.tls),
            "service_latency": flat(self.service_latency),
            "rate": flat(self.rate),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Result:
        def dist(key: str) -> Distribution | None:
            value = data.get(key)
            return Distribution.from_dict(value) if value else None

        tls = data.get("tls")
        rate = data.get("rate")
        return cls(
            tool=str(data["tool"]),
            tool_version=data.get("tool_version"),
            protocol=data.get("protocol"),
            duration_s=data.get("duration_s"),
            warm_up_s=data.get("warm_up_s"),
            rps=data.get("rps"),
            bytes_per_s=data.get("bytes_per_s"),
            requests=Requests(**(data.get("requests") or {})),
            status=dict(data.get("status") or {}),
            status_codes=dict(data.get("status_codes") or {}),
            traffic=Traffic(**(data.get("traffic") or {})),
            latency=dist("latency"),
            connect=dist("connect"),
            ttfb=dist("ttfb"),
            errors=dict(data.get("errors") or {}),
            tls=Tls(**tls) if tls else None,
            service_latency=dist("service_latency"),
            rate=RateFigures(**rate) if rate else None,
        )
