"""Two sessions side by side: their headline metrics with the change from A (the baseline) to
B, and every difference in how the two runs were set up. Pure: the compare screen, exports and
the command line read it.

A metric is named, unit'd and directed as in `tuibench compare --json`; a single run per side
allows only a plain comparison, so `change` is not a statistical verdict.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from statistics import fmean
from typing import Any, Literal

from tui_bench.analysis.names import COMPARED
from tui_bench.formats import fmt_bytes, fmt_count, fmt_latency, fmt_seconds, fmt_share
from tui_bench.printable import printable
from tui_bench.redaction import MARK
from tui_bench.result import Result
from tui_bench.runners import tools
from tui_bench.spec import RunSpec
from tui_bench.storage.session import Session

Direction = Literal["higher", "lower"]
Change = Literal["better", "worse", "same"]

# Two runs of the same set-up differ by a few per cent on their own: a smaller change is
# called neither better nor worse.
SAME_WITHIN_PCT = 2.0


@dataclass(frozen=True)
class Metric:
    name: str
    label: str
    unit: str
    direction: Direction
    read: Callable[[Session], float | None]


@dataclass(frozen=True)
class MetricDelta:
    """One metric of A and B. `delta_pct` is None when A is 0 or either side is unknown;
    `change` says whether B is better than A in the metric's direction."""

    name: str
    label: str
    unit: str
    direction: Direction
    a: float | None
    b: float | None
    delta: float | None
    delta_pct: float | None
    change: Change | None


def metric_delta(metric: Metric, a: float | None, b: float | None) -> MetricDelta:
    delta = delta_pct = None
    change: Change | None = None
    if a is not None and b is not None:
        delta = b - a
        delta_pct = delta / abs(a) * 100 if a else None
        change = judge(metric.direction, delta, delta_pct)
    return MetricDelta(
        metric.name, metric.label, metric.unit, metric.direction, a, b, delta, delta_pct, change
    )


def judge(direction: Direction, delta: float, delta_pct: float | None) -> Change:
    if delta == 0 or (delta_pct is not None and abs(delta_pct) < SAME_WITHIN_PCT):
        return "same"
    return "better" if (delta > 0) == (direction == "higher") else "worse"


# Reading the metrics of a session


def _percentile(key: str) -> Callable[[Session], float | None]:
    def read(session: Session) -> float | None:
        result = session.result
        if result is None or result.latency is None:
            return None
        return result.latency.percentiles.get(key)

    return read


def _latency_max(session: Session) -> float | None:
    result = session.result
    return result.latency.max_s if result and result.latency else None


def _latency_mean(session: Session) -> float | None:
    result = session.result
    return result.latency.mean_s if result and result.latency else None


def _rps(session: Session) -> float | None:
    result = session.result
    return result.rps if result else None


def _bytes_per_s(session: Session) -> float | None:
    result = session.result
    return result.bytes_per_s if result else None


def _good_rps(session: Session) -> float | None:
    result = session.result
    return result.good_rps if result else None


def _error_rate(session: Session) -> float | None:
    result = session.result
    return result.error_rate if result else None


def _resource(
    summary_key: str, column: str, reduce: Callable[[list[float]], float]
) -> Callable[[Session], float | None]:
    """The engine's summary over every sample; else (a run that died before writing it)
    the per-second series."""

    def read(session: Session) -> float | None:
        kept = session.resources.get(summary_key)
        if kept is not None:
            return kept
        values = [float(row[column]) for row in session.series if row.get(column) is not None]
        return reduce(values) if values else None

    return read


# How each metric of COMPARED (the names the command line offers) is labelled and read.
_CATALOGUE = {
    m.name: m
    for m in (
        Metric("rps", "req/s", "req/s", "higher", _rps),
        Metric("good_rps", "good req/s", "req/s", "higher", _good_rps),
        Metric("p50_s", "p50", "s", "lower", _percentile("p50_s")),
        Metric("p90_s", "p90", "s", "lower", _percentile("p90_s")),
        Metric("p99_s", "p99", "s", "lower", _percentile("p99_s")),
        Metric("max_s", "max", "s", "lower", _latency_max),
        Metric("mean_s", "mean latency", "s", "lower", _latency_mean),
        Metric("error_rate", "error rate", "ratio", "lower", _error_rate),
        Metric("bytes_per_s", "throughput", "bytes/s", "higher", _bytes_per_s),
        Metric(
            "server_cpu_pct",
            "server CPU",
            "%",
            "lower",
            _resource("server_cpu_mean_pct", "server_cpu_pct", fmean),
        ),
        Metric(
            "server_rss_max_bytes",
            "server RSS peak",
            "bytes",
            "lower",
            _resource("server_rss_max_bytes", "server_rss_bytes", max),
        ),
        Metric(
            "client_cpu_pct",
            "client CPU",
            "%",
            "lower",
            _resource("client_cpu_mean_pct", "client_cpu_pct", fmean),
        ),
    )
}
METRICS: tuple[Metric, ...] = tuple(_CATALOGUE[name] for name in COMPARED)


def compare_metrics(a: Session, b: Session) -> list[MetricDelta]:
    """Every metric of the catalogue that at least one of the sessions knows."""
    deltas = [metric_delta(m, m.read(a), m.read(b)) for m in METRICS]
    return [d for d in deltas if d.a is not None or d.b is not None]


def series_points(session: Session, column: str) -> tuple[list[float], list[float]]:
    """Seconds and values of one series column, skipping seconds without a value."""
    rows = [row for row in session.series if row.get(column) is not None]
    return [float(row["t_s"]) for row in rows], [float(row[column]) for row in rows]


# How the runs were set up

SETUP_LABELS: Mapping[str, str] = {
    "tool": "tool",
    "tool_version": "version",
    "protocol": "protocol",
    "tls": "TLS",
    "connections": "connections",
    "threads": "threads",
    "streams": "streams",
    "mode": "mode",
    "warm_up": "warm-up",
    "urls": "URL",
    "method": "method",
    "request_body": "request body",
    "headers": "headers",
    "compression": "compression",
    "flags": "flags",
    "body_size": "response size (mean)",
    "hostname": "host",
    "cpu_model": "CPU",
    "cores": "cores",
    "kernel": "kernel",
    "governor": "governor",
    "server": "server",
}

# A setting that was not given (no warm-up, no headers) as opposed to unknown (None).
UNSET = "–"


@dataclass(frozen=True)
class Difference:
    """One set-up field that differs; None is unknown (an imported run, an older session)."""

    field: str
    a: str | None
    b: str | None

    @property
    def label(self) -> str:
        return SETUP_LABELS[self.field]


def setup_differences(a: Session, b: Session) -> list[Difference]:
    left, right = setup(a), setup(b)
    return [Difference(key, left[key], right[key]) for key in left if left[key] != right[key]]


def setup(session: Session) -> dict[str, str | None]:
    """The set-up of a run as display strings, keyed as SETUP_LABELS."""
    result = session.result
    tool, host = session.part("tool"), session.part("host")
    # An imported run's spec is a placeholder: only its tool is known.
    spec = None if session.status == "imported" else session.spec
    return {
        "tool": _text(tool.get("name")) or (spec.tool if spec else None),
        "tool_version": _text(tool.get("version")) or (result.tool_version if result else None),
        "protocol": protocol(spec, result),
        "tls": tls(spec, result),
        **_spec_facts(spec),
        "flags": flags(session.argv) if spec else None,
        "body_size": body_size(spec, result),
        "hostname": _text(host.get("hostname")),
        "cpu_model": _text(host.get("cpu_model")),
        "cores": _text(host.get("cores")),
        "kernel": _text(host.get("kernel")),
        "governor": _text(host.get("governor")),
        "server": _server(session.part("server") or None) if spec else None,
    }


def _spec_facts(spec: RunSpec | None) -> dict[str, str | None]:
    if spec is None:
        keys = ("connections", "threads", "streams", "mode", "warm_up", "urls", "method")
        return dict.fromkeys((*keys, "request_body", "headers", "compression"))
    return {
        "connections": str(spec.connections),
        "threads": str(spec.threads),
        "streams": str(spec.streams) if spec.streams else UNSET,
        "mode": _mode(spec),
        "warm_up": f"{spec.warm_up_s:g} s" if spec.warm_up_s else UNSET,
        "urls": " ".join(spec.urls),
        "method": spec.request_method,
        "request_body": request_body(spec),
        "headers": "; ".join(spec.headers) or UNSET,
        "compression": spec.compress or UNSET,
    }


def request_body(spec: RunSpec) -> str:
    """`1,234 B application/json, sha256 5e8a…`: the body by size, type and digest (a
    fingerprint for one that looks like it holds a secret), never by its bytes."""
    if spec.body_size is None:
        return UNSET
    digest = spec.body_sha256 or "–"
    if not digest.startswith(MARK):
        digest = f"sha256 {digest[:12]}"
    return f"{spec.body_size:,} B {spec.sent_content_type}, {digest}"


def _mode(spec: RunSpec) -> str:
    if spec.duration_s is not None:
        return f"{spec.duration_s:g} s"
    return f"{spec.requests:,} requests" if spec.requests is not None else "count"


def flags(argv: Sequence[str]) -> str | None:
    """The tool's arguments without what differs between any two runs of one set-up: the
    program's path, the URLs (compared on their own), the per-run files."""
    if not argv:
        return None
    words = list(argv)
    # h2load >= 1.70 runs under `stdbuf -oL`.
    skip = 3 if words[0].rsplit("/", 1)[-1] == "stdbuf" else 1
    kept = []
    for word in words[skip:]:
        if "://" in word or word.startswith(("--log-file=", "--output-file=")):
            continue
        # Installs and temporary directories differ between machines; the file name does not.
        kept.append(word.rsplit("/", 1)[-1] if word.startswith("/") else word)
    return shlex.join(kept) or UNSET


def protocol(spec: RunSpec | None, result: Result | None) -> str | None:
    """What the run asked for, and what it got when that differs."""
    return protocol_label(
        spec.expected_protocol if spec else None, result.protocol if result else None
    )


def protocol_label(expected: str | None, got: str | None) -> str | None:
    if expected is None or got is None or got == expected:
        return expected or got
    return f"{expected} (negotiated {got})"


def tls(spec: RunSpec | None, result: Result | None) -> str | None:
    if result is not None and result.tls is not None:
        return " ".join(x for x in (result.tls.protocol, result.tls.cipher) if x) or None
    return UNSET if spec is not None and not spec.tls else None


def body_size(spec: RunSpec | None, result: Result | None) -> str | None:
    """Mean response body. h2load counts warm-up traffic but not warm-up requests, so with a
    warm-up the mean is unknown."""
    if result is None or (spec is not None and spec.warm_up_s):
        return None
    data, done = result.traffic.data_bytes, result.requests.done
    if data is None or not done:
        return None
    return fmt_bytes(round(data / done))


def _server(server: Any) -> str:
    if not isinstance(server, Mapping):
        return UNSET
    return _text(server.get("name")) or UNSET


def _text(value: Any) -> str | None:
    return None if value is None or value == "" else str(value)


# Words for people


def fmt_value(unit: str, value: float | None) -> str:
    if value is None:
        return UNSET
    if unit == "s":
        return fmt_latency(value)
    if unit == "ratio":
        return fmt_share(value)
    if unit == "%":
        return f"{value:.1f}%"
    if unit == "bytes":
        return fmt_bytes(value)
    if unit == "bytes/s":
        return f"{fmt_bytes(value)}/s"
    return fmt_count(value)


def fmt_delta(unit: str, delta: float | None) -> str:
    """B - A in the metric's unit; shares change by percentage points (pp)."""
    if delta is None:
        return UNSET
    if unit == "ratio":
        return _signed(delta, f"{abs(delta) * 100:.2f} pp")
    if unit == "%":
        return _signed(delta, f"{abs(delta):.1f} pp")
    if unit == "s":
        # A difference of 0 is none, not a latency under a millisecond.
        return _signed(delta, fmt_seconds(abs(delta)))
    return _signed(delta, fmt_value(unit, abs(delta)))


def fmt_delta_pct(delta_pct: float | None) -> str:
    return UNSET if delta_pct is None else _signed(delta_pct, f"{abs(delta_pct):.1f}%")


def _signed(value: float, magnitude: str) -> str:
    """A change that rounds to nothing reads ±0, not -0."""
    if not any(c in "123456789" for c in magnitude):
        return "±" + magnitude
    return ("+" if value > 0 else "-") + magnitude


def session_title(session: Session) -> str:
    """The session's name (or id) on one line, as every view shows it."""
    return printable(session.name or session.id)


def started(session: Session) -> str:
    """When the run started, to the minute, in local time (as session ids are)."""
    text = session.started_at
    if text is None:
        return UNSET
    try:
        return datetime.fromisoformat(text).astimezone().strftime("%Y-%m-%d %H:%M")
    except ValueError:
        return text


def target(session: Session) -> str:
    """The URLs of a run, or where an imported run's output came from."""
    if session.status == "imported":
        return f"imported from {session.part_text('source') or 'elsewhere'}"
    return " ".join(session.spec.urls)


def tool_label(session: Session) -> str:
    facts = setup(session)
    return tools.tool_label(facts["tool"], facts["tool_version"]) or UNSET


def _cell(value: str | None) -> str:
    return "unknown" if value is None else value.replace("|", "\\|")
