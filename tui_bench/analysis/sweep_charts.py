"""What `tuibench plot` draws, as data; cli/plot.py draws it. Pure.

A sweep gives a chart per metric against its first varied parameter (the label when only
labelled commands differ), a line per value of the other parameters, and the knee marked.
A sweep that varies rate (a capacity search is one) also gives its latency-throughput
chart: each point's latencies against the req/s it achieved. A single run gives each metric
over the run, from its per-second series. Latencies share one chart while every metric is a
single line.

Parameters that are not numbers (tool, url, protocol, compress, a label) are categories,
evenly spaced. Numbers spanning a factor of 10 or more are spaced by their logarithm, as
sweeps of connections or sizes usually double: linear spacing would crowd the small ones.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tui_bench.analysis.names import CHARTED, CURVE, RUN_METRICS, SWEEP_METRICS
from tui_bench.errors import UsageError
from tui_bench.parameter_text import shown
from tui_bench.records.plan import LABEL, RATE, Plan
from tui_bench.records.segment import Segment
from tui_bench.records.sweep_point import SweepPoint, SweepSummary
from tui_bench.storage.series_columns import shown_window, window_end
from tui_bench.storage.session import Session

# Numbers whose largest is this many times the smallest are spaced by their logarithm.
LOG_SPAN = 10


@dataclass(frozen=True)
class Metric:
    name: str  # as --metric takes it
    title: str
    unit: str  # of the y axis
    scale: float  # from the stored unit (seconds, a fraction) to `unit`
    point: Callable[[SweepPoint], float | None]  # from a sweep point's aggregate
    column: str | None  # in a run's per-second series; None: a run has no such series
    latency: bool = False


def _latency(key: str) -> Callable[[SweepPoint], float | None]:
    return lambda point: point.latency_figure(key)


# How each metric of CHARTED (the names --metric takes) is drawn.
_CHARTS = {
    m.name: m
    for m in (
        Metric("rps", "req/s", "req/s", 1, lambda p: p.rps_figure, "rps"),
        Metric("p50", "p50", "ms", 1e3, _latency("p50_s"), "p50_s", latency=True),
        Metric("p90", "p90", "ms", 1e3, _latency("p90_s"), "p90_s", latency=True),
        Metric("p99", "p99", "ms", 1e3, _latency("p99_s"), "p99_s", latency=True),
        Metric("p99.9", "p99.9", "ms", 1e3, _latency("p99_9_s"), None, latency=True),
        Metric("max", "max", "ms", 1e3, _latency("max_s"), "max_s", latency=True),
        Metric("cpu", "server CPU", "%", 1, lambda p: p.server_cpu_pct.mean, "server_cpu_pct"),
        Metric(
            "client_cpu",
            "client CPU",
            "%",
            1,
            lambda p: p.client_cpu_pct.mean,
            "client_cpu_pct",
        ),
        Metric("errors", "errors", "%", 100, lambda p: p.error_rate, None),
    )
}
METRICS: Mapping[str, Metric] = {name: _CHARTS[name] for name in CHARTED}
# The percentiles the latency-throughput chart (CURVE) draws.
CURVE_METRICS = ("p50", "p99", "p99.9")


@dataclass(frozen=True)
class Line:
    name: str  # tells it from the chart's other lines; empty when it is alone
    x: tuple[float, ...]
    y: tuple[float, ...]
    # The runs' range at each x (a sweep's req/s): slowest and fastest run.
    low: tuple[float, ...] = ()
    high: tuple[float, ...] = ()


@dataclass(frozen=True)
class Axis:
    label: str
    # Where the ticks go and what they say; empty: wherever the drawing puts them.
    ticks: tuple[float, ...] = ()
    labels: tuple[str, ...] = ()


@dataclass(frozen=True)
class Mark:
    label: str
    x: float
    y: float
    # "knee", or "invalid" for a point whose figures cannot be trusted.
    kind: str = "knee"


@dataclass(frozen=True)
class Chart:
    title: str
    unit: str
    x: Axis
    lines: tuple[Line, ...]
    marks: tuple[Mark, ...] = ()
    # y spaced by its logarithm: latencies from a few ms to seconds past the capacity.
    log_y: bool = False

    @property
    def empty(self) -> bool:
        return not any(line.x for line in self.lines)


def metrics_of(text: str | None, *, sweep: bool) -> tuple[Metric, ...]:
    """`rps,p99` -> those metrics; the defaults when None; UsageError for one that is
    unknown, or that a run's per-second series does not hold. CURVE is a chart, not a
    metric: `curve_of` reads it."""
    if text is None:
        return tuple(METRICS[name] for name in (SWEEP_METRICS if sweep else RUN_METRICS))
    chosen = []
    for name in _names(text):
        if name == CURVE:
            continue
        metric = METRICS.get(name)
        if metric is None:
            raise UsageError(f"--metric {name!r}: not one of {', '.join([*METRICS, CURVE])}")
        if not sweep and metric.column is None:
            kept = ", ".join(m.name for m in METRICS.values() if m.column)
            raise UsageError(f"--metric {name}: a run's per-second series has only {kept}")
        if metric not in chosen:
            chosen.append(metric)
    return tuple(chosen)


def _names(text: str) -> list[str]:
    return [part.strip() for part in text.split(",")]


def curve_of(text: str | None, session: Session) -> bool:
    """Whether `--metric text` draws the latency-throughput chart: by default when the sweep
    varies rate or the run was steered; named, UsageError for a session that does not."""
    varies = session.plan.varies_rate if session.is_sweep else len(session.segments) > 1
    if text is None or CURVE not in _names(text):
        return text is None and varies
    if not varies:
        raise UsageError(
            f"--metric {CURVE}: only for a sweep that varies rate (or capacity), or a run "
            "steered through several loads"
        )
    return True


def charts(session: Session, metrics: Sequence[Metric], *, curve: bool = False) -> list[Chart]:
    """The charts of `session`, in the order of `metrics` (the latencies where the first of
    them is), the latency-throughput chart last when `curve`; UsageError when there is
    nothing to draw."""
    if session.is_sweep:
        drawn = sweep_charts(session.plan, session.summary, metrics)
        if curve:
            drawn.append(latency_rps_chart(session.plan, session.summary))
        nothing = "no run of the sweep completed"
    else:
        drawn = run_charts(session.series, metrics)
        if curve:
            drawn.append(segments_chart(session.segments))
        nothing = "the session has no per-second series (an imported one has none)"
    if all(chart.empty for chart in drawn):
        raise UsageError(f"{session.id}: nothing to plot: {nothing}")
    return drawn


def _grouped(metrics: Sequence[Metric], together: bool) -> list[list[Metric]]:
    """A chart's worth of metrics each: the latencies in one when `together`."""
    groups: list[list[Metric]] = []
    latency: list[Metric] | None = None
    for metric in metrics:
        if metric.latency and together:
            if latency is None:
                latency = []
                groups.append(latency)
            latency.append(metric)
        else:
            groups.append([metric])
    return groups


def _group_title(group: Sequence[Metric]) -> str:
    return "latency" if group[0].latency and len(group) > 1 else group[0].title


# ---- a sweep


@dataclass(frozen=True)
class _Place:
    """Where a point goes: its x and the line it is on."""

    x: float
    line: str


def sweep_charts(plan: Plan, summary: SweepSummary, metrics: Sequence[Metric]) -> list[Chart]:
    names = plan.parameters()
    across = next((n for n in names if n != LABEL), names[0] if names else None)
    axis, position = _x_axis(plan, across)
    others = [n for n in names if n != across]
    places = {}
    for point in plan.points:
        values = point.parameters()
        if across and values[across] is None:
            continue  # not on this axis: a capacity search's closed-loop peak has no rate
        places[point.index] = _Place(
            position(values[across] if across else None), _line_name(values, others)
        )
    line_names = list(dict.fromkeys(place.line for place in places.values()))
    drawn = []
    for group in _grouped(metrics, together=len(line_names) == 1):
        lines, marks = [], []
        for metric in group:
            for name in line_names:
                # The points on this line that have a value, in the order of the plan.
                shown_points = [
                    (p, value * metric.scale)
                    for p in summary.points
                    if p.index in places and places[p.index].line == name
                    for value in [metric.point(p)]
                    if value is not None
                ]
                ranged = metric.name == "rps"
                lines.append(
                    Line(
                        name=metric.title if len(group) > 1 else name,
                        x=tuple(places[p.index].x for p, _ in shown_points),
                        y=tuple(y for _, y in shown_points),
                        low=_bounds([p.rps.min for p, _ in shown_points]) if ranged else (),
                        high=_bounds([p.rps.max for p, _ in shown_points]) if ranged else (),
                    )
                )
                marks += _marks(summary, [(p, places[p.index].x, y) for p, y in shown_points])
        title = _group_title(group) + (f" vs {across}" if across else "")
        if group[0].name == "rps":
            title += " (median; bars: slowest to fastest run)"
        drawn.append(Chart(title, group[0].unit, axis, tuple(lines), tuple(marks)))
    return drawn


def _line_name(values: Mapping[str, Any], others: Sequence[str]) -> str:
    """What tells a point's line from the others: its values of the `others` parameters."""
    parts = [str(values[LABEL])] if LABEL in others else []
    parts += [f"{n}={shown(n, values[n])}" for n in others if n != LABEL]
    return " ".join(parts)


def _bounds(values: Sequence[float | None]) -> tuple[float, ...]:
    """A measured point's range: every run that completed has a req/s."""
    return tuple(v for v in values if v is not None)


def _marks(summary: SweepSummary, placed: Sequence[tuple[SweepPoint, float, float]]) -> list[Mark]:
    """The knee and the invalid points among `placed` (a point's aggregate, its x and y)."""
    knee = summary.knee
    marks = [
        Mark(f"knee ({knee.slo})", x, y)
        for p, x, y in placed
        if knee is not None and p.index == knee.point
    ]
    return marks + [
        Mark("invalid", x, y, kind="invalid") for p, x, y in placed if p.verdict == "invalid"
    ]


def _x_axis(plan: Plan, name: str | None) -> tuple[Axis, Callable[[Any], float]]:
    """The x axis of the parameter `name`, and the position of each of its values."""
    if name is None:
        return Axis("", (1.0,), ("all",)), lambda value: 1.0
    values = plan.values_of(name)
    labels = tuple(shown(name, v) for v in values)
    numeric = all(isinstance(v, int | float) and not isinstance(v, bool) for v in values)
    if not numeric:
        ticks = tuple(float(i) for i in range(1, len(values) + 1))
        return Axis(name, ticks, labels), lambda value: ticks[values.index(value)]
    if values and min(values) > 0 and max(values) >= LOG_SPAN * min(values):
        ticks = tuple(math.log10(v) for v in values)
        return Axis(f"{name} (log scale)", ticks, labels), lambda value: math.log10(value)
    return Axis(name, tuple(float(v) for v in values), labels), lambda value: float(value)


# ---- latency against throughput


def rate_points(plan: Plan, summary: SweepSummary) -> list[tuple[dict[str, Any], SweepPoint]]:
    """The open-loop points of a sweep that varies rate, by rate: each one's parameters and
    its aggregate. The closed-loop point (a capacity search's peak) is left out: its latency
    is from the send, not from when due."""
    values = {p.index: p.parameters() for p in plan.points}
    found = [
        (values[p.index], p)
        for p in summary.points
        if values.get(p.index, {}).get(RATE) is not None
    ]
    return sorted(found, key=lambda found: float(found[0][RATE]))


def latency_rps_chart(plan: Plan, summary: SweepSummary) -> Chart:
    """p50, p99 and p99.9 of a rate sweep's points against the req/s each achieved, a line
    per percentile (and value of the other parameters) in the order of the rates asked. A
    rate point's latency is from when each request was due, so the line turns up where the
    server stops keeping up, and a rate not held shows as req/s that stop growing."""
    others = [n for n in plan.parameters() if n != RATE]
    points = rate_points(plan, summary)
    names = list(dict.fromkeys(_line_name(values, others) for values, _ in points))
    lines, marks = [], []
    for metric in (METRICS[name] for name in CURVE_METRICS):
        for name in names:
            placed = [
                (p, rps, latency * metric.scale)
                for values, p in points
                if _line_name(values, others) == name
                for rps, latency in [(p.rps_figure, metric.point(p))]
                # A log axis has no place for a latency of 0 (under the histogram's unit).
                if rps is not None and latency
            ]
            lines.append(
                Line(
                    " ".join(filter(None, (metric.title, name))),
                    tuple(x for _, x, _ in placed),
                    tuple(y for _, _, y in placed),
                )
            )
            marks += _marks(summary, placed)
    title = "latency (from when due) vs achieved req/s"
    return Chart(title, "ms", Axis("achieved req/s"), tuple(lines), tuple(marks), log_y=True)


def segments_chart(segments: Sequence[Segment]) -> Chart:
    """A steered run's latency-throughput curve: p50 and p99 of each segment (of a fixed
    rate, from when each request was due) against the req/s it achieved, a point each in
    the order they ran; a segment past capacity marked invalid."""
    measured = [s for s in segments if not s.paused and s.achieved_rps and s.p99_s]
    lines, marks = [], []
    for title, key in (("p50", "p50_s"), ("p99", "p99_s")):
        placed = [
            (s, s.achieved_rps or 0.0, latency * 1e3)
            for s in measured
            if (latency := getattr(s, key)) is not None
        ]
        lines.append(Line(title, tuple(x for _, x, _ in placed), tuple(y for _, _, y in placed)))
        marks += [Mark("invalid", x, y, "invalid") for s, x, y in placed if s.validity == "invalid"]
    title = "latency vs achieved req/s, a point per segment"
    return Chart(title, "ms", Axis("achieved req/s"), tuple(lines), tuple(marks), log_y=True)


# ---- a single run


def run_charts(series: Sequence[Mapping[str, Any]], metrics: Sequence[Metric]) -> list[Chart]:
    axis = Axis("time (s)")
    drawn = []
    for group in _grouped(metrics, together=True):
        lines = []
        for metric in group:
            column = metric.column
            assert column is not None, "metrics_of keeps a run to the series' columns"
            rows = [r for r in series if r.get(column) is not None and shown_window(r)]
            lines.append(
                Line(
                    name=metric.title if len(group) > 1 else "",
                    x=tuple(window_end(r) for r in rows),
                    y=tuple(r[column] * metric.scale for r in rows),
                )
            )
        drawn.append(
            Chart(f"{_group_title(group)} over the run", group[0].unit, axis, tuple(lines))
        )
    return drawn
