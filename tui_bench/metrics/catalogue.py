"""The metrics a run is told as, one per figure of its per-second series: what a second of
the run gives each of them, and the labels that name the run. The live push
(engine/prometheus_push.py) and the OpenMetrics export (metrics/openmetrics.py) both take
their samples from here, so a saved run loaded into Prometheus reads as it did live.

A sample is stamped with the end of its second's window (when it was known), in wall-clock
time from the run's start as its session keeps it."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from tui_bench.histogram import LatencyHistogram
from tui_bench.records.segment import Segment
from tui_bench.result import STATUS_CLASSES
from tui_bench.storage.columns import as_kept
from tui_bench.storage.series_columns import window_end

Row = Mapping[str, Any]
Labels = tuple[tuple[str, str], ...]
# Requests that got no HTTP answer (refused, reset, timed out): the rest of a second's count.
NO_ANSWER = "none"
# A tool that counts per second without status classes (wrk's hook, ab): the whole count.
UNCLASSED = "unknown"
QUANTILES = (("0.5", "p50_s"), ("0.9", "p90_s"), ("0.99", "p99_s"))
SERVICE_QUANTILES = (("0.5", "service_p50_s"), ("0.99", "service_p99_s"))


@dataclass(frozen=True)
class Load:
    """What the run was asked for at a second: its segment's rate (None: a closed loop)
    and connections."""

    target_rps: float | None
    connections: int


def load_at(loads: Iterable[tuple[float, Load]], row: Row) -> Load | None:
    """The load begun last by the middle of the second (`loads`: when each began, in
    order)."""
    middle = float(row["t_s"]) + float(row.get("window_s") or 1.0) / 2
    current = None
    for start_s, load in loads:
        if start_s > middle:
            break
        current = load
    return current


def segment_loads(segments: Sequence[Segment]) -> list[tuple[float, Load]]:
    return [(s.start_s, Load(s.target_rps, s.connections)) for s in segments]


def _column(name: str) -> Callable[[Row, Load | None], float | None]:
    def value(row: Row, load: Load | None) -> float | None:
        # As the session keeps it: what is pushed live is what its export says later.
        figure = as_kept(name, row.get(name))
        return None if figure is None or isinstance(figure, bool) else float(figure)

    return value


def _status_count(klass: str) -> Callable[[Row, Load | None], float | None]:
    def value(row: Row, load: Load | None) -> float | None:
        requests = row.get("requests")
        if requests is None:
            return None
        counts: list[int] = [row[c] for c in STATUS_CLASSES if row.get(c) is not None]
        if len(counts) < len(STATUS_CLASSES):
            return float(requests) if klass == UNCLASSED else None
        if klass == NO_ANSWER:
            return float(requests - sum(counts))
        return None if klass == UNCLASSED else float(row[klass])

    return value


def _target(row: Row, load: Load | None) -> float | None:
    return load.target_rps if load is not None else None


def _connections(row: Row, load: Load | None) -> float | None:
    return float(load.connections) if load is not None else None


@dataclass(frozen=True)
class Family:
    """One metric as Prometheus names it; `unit` is OpenMetrics' (empty: none)."""

    name: str
    kind: str  # "counter", "gauge" or "histogram"
    help: str
    unit: str = ""

    @property
    def sample_name(self) -> str:
        return f"{self.name}_total" if self.kind == "counter" else self.name


@dataclass(frozen=True)
class Series:
    """One series of a family: its own labels, and its value at a second (None: unknown
    there, no sample). A counter's value is the second's increase: the series adds them."""

    family: Family
    labels: Labels
    value: Callable[[Row, Load | None], float | None]


def _family(
    name: str, kind: str, help_text: str, unit: str, *variants: tuple[Labels, Callable[..., Any]]
) -> tuple[Series, ...]:
    family = Family(name, kind, help_text, unit)
    return tuple(Series(family, labels, value) for labels, value in variants)


def _one(column: str) -> tuple[Labels, Callable[[Row, Load | None], float | None]]:
    return (), _column(column)


SERIES: tuple[Series, ...] = (
    *_family(
        "tuibench_requests",
        "counter",
        "Requests completed, by the class of their answer (none: no answer).",
        "",
        *(
            ((("status_class", k),), _status_count(k))
            for k in (*STATUS_CLASSES, NO_ANSWER, UNCLASSED)
        ),
    ),
    *_family(
        "tuibench_requests_per_second", "gauge", "Requests completed per second.", "", _one("rps")
    ),
    *_family(
        "tuibench_good_requests_per_second",
        "gauge",
        "Requests answered 2xx or 3xx per second.",
        "",
        _one("good_rps"),
    ),
    *_family(
        "tuibench_latency_seconds",
        "gauge",
        "Latency of the second's requests (a fixed-rate run's from when each was due).",
        "seconds",
        *(((("quantile", q),), _column(c)) for q, c in QUANTILES),
    ),
    *_family(
        "tuibench_latency_max_seconds",
        "gauge",
        "The second's slowest request.",
        "seconds",
        _one("max_s"),
    ),
    *_family(
        "tuibench_service_latency_seconds",
        "gauge",
        "A fixed-rate run's latency from when each request was sent.",
        "seconds",
        *(((("quantile", q),), _column(c)) for q, c in SERVICE_QUANTILES),
    ),
    *_family(
        "tuibench_target_requests_per_second",
        "gauge",
        "The fixed rate asked for (none in a closed loop).",
        "",
        ((), _target),
    ),
    *_family(
        "tuibench_achieved_requests_per_second",
        "gauge",
        "A fixed-rate run's requests sent per second.",
        "",
        _one("achieved_rps"),
    ),
    *_family(
        "tuibench_backlog_requests",
        "gauge",
        "A fixed-rate run's requests due and not yet sent.",
        "",
        _one("backlog"),
    ),
    *_family("tuibench_connections", "gauge", "The connections asked for.", "", ((), _connections)),
    *_family(
        "tuibench_server_cpu_percent",
        "gauge",
        "The server's CPU (100 = one core).",
        "",
        _one("server_cpu_pct"),
    ),
    *_family(
        "tuibench_server_rss_bytes",
        "gauge",
        "The server's resident memory.",
        "bytes",
        _one("server_rss_bytes"),
    ),
    *_family(
        "tuibench_client_cpu_percent",
        "gauge",
        "The load generator's CPU (100 = one core).",
        "",
        _one("client_cpu_pct"),
    ),
    *_family(
        "tuibench_client_thread_max_percent",
        "gauge",
        "The load generator's busiest thread (100 = a core it fills).",
        "",
        _one("client_thread_max_pct"),
    ),
    *_family(
        "tuibench_system_cpu_percent",
        "gauge",
        "The whole machine's CPU (100 = all its cores).",
        "",
        _one("system_cpu_pct"),
    ),
)
# The run's latency so far as a Prometheus histogram: what `histogram_quantile` merges
# over any window and across runs (percentiles do not merge), and Grafana draws as a heatmap.
LATENCY_HISTOGRAM = Family(
    "tuibench_latency_histogram_seconds",
    "histogram",
    "Latency of the run's requests so far (a fixed-rate run's from when each was due).",
    "seconds",
)
BUCKETS_S = (
    0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0,
    2.5, 5.0, 10.0,
)  # fmt: skip
FAMILIES: tuple[Family, ...] = (
    *dict.fromkeys(s.family for s in SERIES),
    LATENCY_HISTOGRAM,
)


def histogram_points(histogram: LatencyHistogram) -> list[tuple[str, Labels, float]]:
    """A cumulative histogram as its samples, in the order OpenMetrics keeps them: each
    bucket (`le`, the canonical float), `+Inf`, the count and the sum."""
    name = LATENCY_HISTOGRAM.name
    counts = histogram.counts_at_most(BUCKETS_S)
    points: list[tuple[str, Labels, float]] = [
        (f"{name}_bucket", (("le", repr(bound)),), float(count))
        for bound, count in zip(BUCKETS_S, counts, strict=True)
    ]
    total = float(histogram.count)
    points.append((f"{name}_bucket", (("le", "+Inf"),), total))
    points.append((f"{name}_count", (), total))
    points.append((f"{name}_sum", (), histogram.sum_s))
    return points


@dataclass(frozen=True)
class RunLabels:
    """The labels every series of a run carries, and when the run started."""

    session: str
    name: str
    tool: str
    protocol: str
    generator: str
    started_s: float

    def labels(self) -> Labels:
        named = (
            ("session", self.session),
            ("name", self.name),
            ("tool", self.tool),
            ("protocol", self.protocol),
            ("generator", self.generator),
        )
        return tuple((k, v) for k, v in named if v)

    def stamp_ms(self, row: Row) -> int:
        """When a second was measured: the end of its window, in ms since the epoch."""
        return self.at_ms(window_end(row))

    def at_ms(self, t_s: float) -> int:
        """`t_s` seconds into the run, in ms since the epoch."""
        return round((self.started_s + t_s) * 1000)


def started_s(started_at: str) -> float:
    """A session's `started_at` (ISO 8601) in seconds since the epoch."""
    return datetime.fromisoformat(started_at).timestamp()


def generator_label(hosts: Iterable[str]) -> str:
    """The generators a run's seconds come from: `local`, a host, or several joined."""
    return "+".join(hosts) or "local"


class SeriesTotals:
    """Each counter's running total over a run's seconds, taken in order."""

    def __init__(self) -> None:
        self._totals: dict[Series, float] = {}

    def value(self, series: Series, row: Row, load: Load | None) -> float | None:
        value = series.value(row, load)
        if series.family.kind != "counter":
            return value
        total = self._totals.get(series)
        if value is None:
            return total
        total = (total or 0.0) + value
        self._totals[series] = total
        return total
