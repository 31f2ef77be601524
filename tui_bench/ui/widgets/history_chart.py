"""One metric of a benchmark's history, run after run, by plotext: a line per point (a sweep
point's median, with its runs' range), invalid runs apart as ✗, set-up changes and change
points as vertical marks on the time axis."""

from __future__ import annotations

import itertools

from textual import events
from textual_plotext import PlotextPlot

from tui_bench.analysis.history import METRICS, History
from tui_bench.formats import fmt_compact
from tui_bench.report.ticks import moment_labels, nice_ticks
from tui_bench.ui.widgets.sweep_chart import PALETTE, RANGE_MARKER, SLO_COLOUR, hex_of

SETUP_COLOUR = (156, 117, 95)
STEP_COLOUR = (237, 201, 72)
INVALID_MARKER = "✗"
# p99 is drawn in ms, req/s as it is.
SCALE = {"rps": 1.0, "p99_s": 1e3}
UNIT = {"rps": "req/s", "p99_s": "p99 ms"}


class HistoryChart(PlotextPlot):
    DEFAULT_CSS = """
    HistoryChart { width: 1fr; height: 1fr; min-height: 8; border: round $primary-darken-1; }
    """

    def __init__(self, metric: str, *, id: str) -> None:
        super().__init__(id=id)
        self.metric = metric
        self.border_title = UNIT[metric]
        self._history: History | None = None

    def show(self, history: History) -> None:
        self._history = history
        self._draw()

    def on_resize(self, event: events.Resize) -> None:
        self._draw()

    def _draw(self) -> None:
        plt = self.plt
        plt.clear_data()
        history = self._history
        if history is None:
            return
        scale, metric = SCALE[self.metric], self.metric
        values: list[float] = []
        legend: list[str] = []
        names = history.point_names
        for name, colour in zip(names, itertools.cycle(PALETTE)):
            series = history.series(name, metric)
            for i, _ in series:
                figures = history.runs[i].point(name)
                low, high = figures.spread(metric) if figures else (None, None)
                if low is not None and high is not None:
                    plt.plot([i, i], [low * scale, high * scale], color=colour, marker=RANGE_MARKER)
                    values += [low * scale, high * scale]
            if series:
                xs, ys = [i for i, _ in series], [v * scale for _, v in series]
                plt.plot(xs, ys, color=colour, marker="braille")
                plt.scatter(xs, ys, color=colour, marker="●")
                values += ys
                if name:
                    legend.append(f"[{hex_of(colour)}]━━ {name}[/]")
        invalid = [
            (i, v * scale)
            for i, run in enumerate(history.runs)
            for p in run.points
            if not p.counts and (v := p.value(metric)) is not None
        ]
        changed = [i for i, run in enumerate(history.runs) if run.changes]
        for i in changed:
            plt.vline(i - 0.5, color=SETUP_COLOUR)
        if changed:
            legend.append(f"[{hex_of(SETUP_COLOUR)}]│ set-up[/]")
        steps = [s for s in history.steps if s.metric == metric]
        for step in steps:
            plt.vline(step.after_run - 0.5, color=STEP_COLOUR)
        if steps:
            legend.append(f"[{hex_of(STEP_COLOUR)}]│ change[/]")
        if not values:
            values = [v for _, v in invalid]
        if not values:
            self.border_subtitle = f"no {METRICS[metric]} measured"
            self.refresh()
            return
        # One tick label every other row and every dozen columns or so: more would crowd,
        # and plotext drops crowded labels by its own rounding.
        rows, columns = max(self.size.height - 4, 2), max(self.size.width - 8, 12)
        ticks = nice_ticks(min(values), max(values), most=max(2, min(4, rows // 2)))
        if invalid:
            # Within the axis of the runs that count: an invalid run's figure (a collapse, a
            # timeout) would squash their trend into a line.
            ys = [min(max(v, ticks[0]), ticks[-1]) for _, v in invalid]
            plt.scatter([i for i, _ in invalid], ys, color=SLO_COLOUR, marker=INVALID_MARKER)
            legend.insert(0, f"[{hex_of(SLO_COLOUR)}]{INVALID_MARKER} invalid[/]")
        plt.ylim(ticks[0], ticks[-1])
        plt.yticks(ticks, [fmt_compact(t) for t in ticks])
        plt.xlim(-0.5, len(history.runs) - 0.5)
        shown, labels = run_ticks(history, columns)
        plt.xticks([float(i) for i in shown], labels)
        # The legend lives in the border: plotext's would cover the first runs.
        self.border_subtitle = "  ".join(legend)
        self.refresh()


def run_ticks(history: History, columns: int) -> tuple[list[int], list[str]]:
    """Which runs get a tick on an axis `columns` wide, and their labels by what tells
    those runs apart (`moment_labels`): a wider label (a time to the second) leaves room
    for fewer ticks, and fewer ticks may be told apart by less."""
    last = len(history.runs) - 1
    width, shown, labels = 5, [0], ["#1"]
    # A few rounds at most: the widest label is a date with a time to the second.
    for _ in range(4):
        ticks = nice_ticks(0, last, most=max(2, columns // (width + 7)))
        inner = [int(i) for i in ticks if 0 < i < last and i == int(i)]
        # Apart from the first and the last run's tick by a label's width at least.
        room = last * (width + 3) / columns
        shown = sorted({0, *(i for i in inner if i >= room and last - i >= room), last})
        by_run = moment_labels({i + 1: history.runs[i].started for i in shown})
        labels = [by_run[i + 1] for i in shown]
        if max(map(len, labels)) <= width:
            break
        width = max(map(len, labels))
    return shown, labels
