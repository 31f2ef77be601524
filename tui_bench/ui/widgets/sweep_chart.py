"""One chart of a sweep's points against the varied parameter, or a rate sweep's latencies
against the req/s achieved, by plotext.

What is drawn (axes, a line per value of the other parameters, the knee) is
analysis.sweep_charts', as for `tuibench plot`; this widget only draws it in a panel, adds
the SLO's level, and keeps its legend in the border: shortened where the border is too
narrow for it, and where even that is cut, the latencies drawn as their p99 alone.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

from rich.markup import escape
from textual import events
from textual_plotext import PlotextPlot

from tui_bench.analysis.sweep_charts import (
    CURVE_METRICS,
    METRICS,
    Chart,
    Metric,
    latency_rps_chart,
    sweep_charts,
)
from tui_bench.analysis.thresholds import Threshold
from tui_bench.formats import fmt_compact
from tui_bench.printable import printable
from tui_bench.records.plan import Plan
from tui_bench.records.sweep_point import SweepSummary
from tui_bench.report.ticks import log_ticks, nice_ticks

# Told apart on light and dark themes and by the common colour-vision deficiencies.
PALETTE = (
    (76, 155, 232),
    (242, 142, 43),
    (89, 161, 79),
    (176, 122, 161),
    (118, 183, 178),
    (156, 117, 95),
)
KNEE_COLOUR = (237, 201, 72)
SLO_COLOUR = (225, 87, 89)
KNEE_MARKER = "★"
# By mark kind (analysis.sweep_charts.Mark): its colour and its marker, which says it alone.
MARKS = {"knee": (KNEE_COLOUR, KNEE_MARKER), "invalid": (SLO_COLOUR, "✗")}
RANGE_MARKER = "│"


def hex_of(rgb: tuple[int, int, int]) -> str:
    return "#{:02x}{:02x}{:02x}".format(*rgb)


class SweepChart(PlotextPlot):
    """`metrics` share the chart while the points make one line; when they make several,
    only `alone` is drawn (one line per value of the other parameters). `curve()` makes the
    latency-throughput chart instead."""

    DEFAULT_CSS = """
    SweepChart { width: 1fr; height: 1fr; min-height: 7; border: round $primary-darken-1; }
    """

    def __init__(self, title: str, metrics: Sequence[str], alone: str, *, id: str) -> None:
        super().__init__(id=id)
        self.border_title = self._title = title
        self.metrics = tuple(METRICS[name] for name in metrics)
        self.alone = METRICS[alone]
        self._curve = False
        self._drawn: tuple[Plan, SweepSummary] | None = None
        self._slo: tuple[Threshold, ...] = ()

    @classmethod
    def curve(cls, *, id: str) -> SweepChart:
        chart = cls("latency vs req/s (ms, log)", CURVE_METRICS, "p99", id=id)
        chart._curve = True
        return chart

    def show(self, plan: Plan, summary: SweepSummary | None, slo: Sequence[Threshold] = ()) -> None:
        """A sweep's plan and its points so far."""
        self._drawn = (plan, summary or SweepSummary())
        self._slo = tuple(slo)
        self._draw()

    def on_resize(self, event: events.Resize) -> None:
        self._draw()

    def _chart(self, *, alone: bool = False) -> tuple[Chart | None, tuple[Metric, ...]]:
        """The chart, and the metrics it shows; with `alone`, only `alone`'s."""
        if self._drawn is None:
            return None, ()
        if self._curve:
            return latency_rps_chart(*self._drawn), self.metrics
        drawn = sweep_charts(*self._drawn, self.metrics)
        if len(drawn) == 1 and not alone:
            return drawn[0], self.metrics
        return sweep_charts(*self._drawn, [self.alone])[0], (self.alone,)

    def _legend(self, chart: Chart, metrics: tuple[Metric, ...]) -> list[tuple[str, str, str]]:
        """Each entry's colour, marker and words: the lines, the SLO's levels, the marks."""
        legend = [
            (hex_of(colour), "━━", printable(line.name))
            for line, colour in zip(chart.lines, itertools.cycle(PALETTE))
            if line.name
        ]
        legend += [
            (hex_of(SLO_COLOUR), "──", threshold.text)
            for threshold in self._slo
            if self._slo_metric(threshold, metrics) is not None
        ]
        legend += [
            (hex_of(colour), marker, kind)
            for kind, (colour, marker) in MARKS.items()
            if any(mark.kind == kind for mark in chart.marks)
        ]
        return legend

    @staticmethod
    def _slo_metric(threshold: Threshold, metrics: tuple[Metric, ...]) -> Metric | None:
        # A level for the clauses on what the chart shows: req/s, a latency.
        return next((m for m in metrics if m.column == threshold.metric), None)

    def _fitted(self) -> tuple[Chart | None, tuple[Metric, ...], str]:
        """The chart, its metrics and the legend that fits the border: in full, shortened
        (one-character markers, without the x axis' name), then with `alone` drawn alone."""
        # Inside the border: less its rule and a space each side.
        room = self.size.width - 4
        chart, metrics = self._chart()
        if chart is None or chart.empty:
            return chart, metrics, ""
        tries: list[tuple[Chart | None, tuple[Metric, ...]]] = [(chart, metrics)]
        if len(metrics) > 1 and not self._curve:
            tries.append(self._chart(alone=True))
        x = f"x: {chart.x.label}" if chart.x.label else ""
        text = ""
        for drawn, shown in tries:
            if drawn is None:
                continue
            legend = self._legend(drawn, shown)
            full = [(c, f"{m} {w}") for c, m, w in legend]
            short = [(c, f"{m[0]}{w}") for c, m, w in legend]
            for entries, gap, tail in ((full, "  ", x), (short, " ", x), (short, " ", "")):
                plain = gap.join([*(e for _, e in entries), *[tail] * bool(tail)])
                text = gap.join(
                    [*(f"[{c}]{escape(e)}[/]" for c, e in entries), *[tail] * bool(tail)]
                )
                if len(plain) <= room:
                    return drawn, shown, text
        return *tries[-1], text

    def _draw(self) -> None:
        plt = self.plt
        plt.clear_data()
        chart, metrics, legend = self._fitted()
        if chart is None or chart.empty:
            self.border_subtitle = "nothing measured yet"
            self.refresh()
            return
        alone = metrics == (self.alone,) and len(self.metrics) > 1 and len(chart.lines) == 1
        self.border_title = f"{self.alone.title} ({self.alone.unit})" if alone else self._title
        values: list[float] = []
        # A log axis drawn as the logarithms on a linear one: plotext's own log scale takes
        # the logarithm of its data again at every render.
        at = math.log10 if chart.log_y else float
        for line, colour in zip(chart.lines, itertools.cycle(PALETTE)):
            # The runs' range at each point (req/s): slowest to fastest run.
            for x, low, high in zip(line.x, line.low, line.high, strict=False):
                plt.plot([x, x], [at(low), at(high)], color=colour, marker=RANGE_MARKER)
            if line.x:
                ys = [at(y) for y in line.y]
                plt.plot(list(line.x), ys, color=colour, marker="braille")
                plt.scatter(list(line.x), ys, color=colour, marker="●")
            values += [*line.y, *line.low, *line.high]
        for threshold in self._slo:
            metric = self._slo_metric(threshold, metrics)
            if metric is not None:
                plt.hline(at(threshold.limit * metric.scale), color=SLO_COLOUR)
                values.append(threshold.limit * metric.scale)
        for kind, (colour, marker) in MARKS.items():
            for mark in chart.marks:
                if mark.kind == kind:
                    plt.scatter([mark.x], [at(mark.y)], color=colour, marker=marker)
        if chart.log_y:
            ticks, labels = log_ticks(min(values), max(values))
        else:
            ticks = nice_ticks(min(values), max(values), most=4)
            labels = [fmt_compact(t) for t in ticks]
        plt.ylim(ticks[0], ticks[-1])
        plt.yticks(ticks, labels)
        if chart.x.ticks:
            # Room beside the first and last points, off the frame.
            low, high = min(chart.x.ticks), max(chart.x.ticks)
            pad = (high - low) * 0.05 or 0.5
            plt.xlim(low - pad, high + pad)
            plt.xticks(list(chart.x.ticks), list(chart.x.labels))
        else:
            xs = [x for line in chart.lines for x in line.x]
            x_ticks = nice_ticks(min(xs), max(xs), most=4)
            plt.xlim(x_ticks[0], x_ticks[-1])
            plt.xticks(x_ticks, [fmt_compact(t) for t in x_ticks])
        # The legend lives in the border: plotext's would cover the first points.
        self.border_subtitle = legend
        self.refresh()
