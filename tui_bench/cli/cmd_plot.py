"""`tuibench plot`: the charts of a session (analysis/sweep_charts.py) drawn in the terminal
with plotext, without the live screen: they go to standard output like any text."""

from __future__ import annotations

import argparse
import io
import math
import os
import shutil
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import TextIO

import plotext as plt

from tui_bench.analysis.sweep_charts import Chart, charts, curve_of, metrics_of
from tui_bench.cli.cmd_replay import the_run
from tui_bench.cli.output import write_output
from tui_bench.printable import printable
from tui_bench.report.ticks import log_ticks, nice_ticks, tick_label
from tui_bench.storage import store
from tui_bench.storage.session import Session

# Each chart's size when standard output is not a terminal (a file, a pipe).
DEFAULT_WIDTH = 100
DEFAULT_HEIGHT = 25
MIN_WIDTH = 30
MIN_HEIGHT = 8
# Told apart by colour on a terminal, and by marker without one.
COLORS = ("blue+", "green+", "orange+", "magenta+", "cyan+", "gray+")
MARKERS = ("•", "+", "x", "*", "o", "#")
MARKS = {"knee": ("red+", "◆"), "invalid": ("red", "✗")}
RANGE = "│"
# A category's tick label gets at most this share of the width between two ticks.
TICK_ROOM = 0.9


@dataclass(frozen=True)
class Canvas:
    width: int
    height: int
    color: bool

    @classmethod
    def of(cls, width: int | None, height: int | None, out: TextIO) -> Canvas:
        """For `out`: on a terminal, its size (a chart a screen) and colours unless
        NO_COLOR is set; elsewhere (a file, a pipe) a fixed size and no colour."""
        tty = out.isatty()
        if tty:
            size = shutil.get_terminal_size((DEFAULT_WIDTH, DEFAULT_HEIGHT + 1))
            # A line to spare, so the prompt does not push the chart's title off the top.
            default_width, default_height = size.columns, size.lines - 1
        else:
            default_width, default_height = DEFAULT_WIDTH, DEFAULT_HEIGHT
        return cls(
            max(width or default_width, MIN_WIDTH),
            max(height or default_height, MIN_HEIGHT),
            color=tty and not os.environ.get("NO_COLOR"),
        )


def plot_session(session: Session, metrics: str | None, canvas: Canvas) -> str:
    chosen = metrics_of(metrics, sweep=session.is_sweep)
    drawn = charts(session, chosen, curve=curve_of(metrics, session))
    return "\n".join(draw(chart, canvas) for chart in drawn)


def draw(chart: Chart, canvas: Canvas) -> str:
    if chart.empty:
        return f"{chart.title}: no data\n"
    plt.clear_figure()
    # The canvas, not the terminal plotext finds (none in a pipe), sets the size.
    plt.limitsize(False, False)
    plt.plotsize(canvas.width, canvas.height)
    plt.theme("clear")
    # plotext leaves out a title wider than the chart.
    # The chart's own colours are escape sequences: the texts in it are escaped one by one.
    plt.title(shortened(printable(chart.title), canvas.width))
    plt.xlabel(printable(chart.x.label))
    plt.ylabel(chart.unit)
    # A log axis drawn as the logarithms on a linear one: plotext's own log scale takes the
    # logarithm of its data again at every build.
    at = _y_position(chart)
    for i, line in enumerate(chart.lines):
        color, marker = COLORS[i % len(COLORS)], MARKERS[i % len(MARKERS)]
        if line.low:
            for x, low, high in zip(line.x, line.low, line.high, strict=True):
                plt.plot([x, x], [at(low), at(high)], marker=RANGE, color=color)
        if line.x:
            plt.plot(
                list(line.x),
                [at(y) for y in line.y],
                marker=marker,
                color=color,
                label=printable(line.name) or None,
            )
    labelled: set[str] = set()
    for mark in chart.marks:
        # Each kind of mark named once in the legend.
        label = None if mark.kind in labelled else mark.label
        labelled.add(mark.kind)
        color, marker = MARKS[mark.kind]
        plt.scatter([mark.x], [at(mark.y)], marker=marker, color=color, label=label)
    _x_ticks(chart, canvas.width)
    _y_ticks(chart)
    text = str(plt.build())
    return text if canvas.color else str(plt.uncolorize(text))


def _x_ticks(chart: Chart, width: int) -> None:
    """A sweep's parameter values as ticks, with room beside the first and last so their
    points and range bars are not drawn on the frame; round numbers over a run."""
    if not chart.x.ticks:
        xs = [x for line in chart.lines for x in line.x]
        ticks = nice_ticks(min(xs), max(xs))
        plt.xlim(ticks[0], ticks[-1])
        plt.xticks(ticks, [tick_label(t, ticks) for t in ticks])
        return
    low, high = min(chart.x.ticks), max(chart.x.ticks)
    pad = (high - low) * 0.05 or 0.5
    plt.xlim(low - pad, high + pad)
    room = max(int(width / (len(chart.x.ticks) + 1) * TICK_ROOM), 3)
    labels = [shortened(printable(text), room) for text in chart.x.labels]
    plt.xticks(list(chart.x.ticks), labels)


def _y_position(chart: Chart) -> Callable[[float], float]:
    return math.log10 if chart.log_y else float


def _y_ticks(chart: Chart) -> None:
    ys = [y for line in chart.lines for y in (*line.y, *line.low, *line.high)]
    if chart.log_y:
        ticks, labels = log_ticks(min(ys), max(ys))
    else:
        ticks = nice_ticks(min(ys), max(ys))
        labels = [tick_label(t, ticks) for t in ticks]
    plt.ylim(ticks[0], ticks[-1])
    plt.yticks(ticks, labels)


def shortened(text: str, most: int) -> str:
    return text if len(text) <= most else text[: most - 1] + "…"


def cmd_plot(args: argparse.Namespace) -> int:
    session = the_run(store.select(args.session))
    # A file is not a terminal: its charts have the fixed size and no colour.
    canvas = Canvas.of(args.width, args.height, io.StringIO() if args.output else sys.stdout)
    write_output(args, plot_session(session, args.metric, canvas), "charts", as_is=True)
    return 0
