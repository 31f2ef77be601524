"""One metric of two sessions on one time axis (seconds from each run's start), by plotext."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from textual import events
from textual_plotext import PlotextPlot

from tui_bench.formats import fmt_compact
from tui_bench.report.ticks import nice_ticks, tick_label
from tui_bench.ui.widgets.run_chart import thin

# The same two colours mark A and B wherever the compare screen shows them; both read on
# light and dark themes and apart for the common colour-vision deficiencies.
COLOURS = {"A": (76, 155, 232), "B": (242, 142, 43)}


def hex_colour(mark: str) -> str:
    return "#{:02x}{:02x}{:02x}".format(*COLOURS[mark])


@dataclass(frozen=True)
class Line:
    mark: str
    seconds: Sequence[float]
    values: Sequence[float]


class CompareChart(PlotextPlot):
    DEFAULT_CSS = """
    CompareChart { height: 12; min-height: 8; border: round $primary-darken-1; }
    """

    def __init__(self, title: str, *, id: str, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.border_title = title
        self._lines: tuple[Line, ...] = ()
        self._note = ""

    def show(self, lines: Sequence[Line], note: str = "") -> None:
        """Draw `lines`; `note` says which runs they are, in the legend."""
        self._lines = tuple(lines)
        self._note = note
        self._draw()

    def on_resize(self, event: events.Resize) -> None:
        # About two points per cell: redrawn for the width it now has.
        self._draw()

    def _draw(self) -> None:
        plt = self.plt
        plt.clear_data()
        most = 2 * max(self.size.width, 1)
        # Inside the border: the frame and the time axis' labels take three rows.
        rows = self.size.height - 3
        drawn = [line for line in self._lines if line.values]
        for line in drawn:
            plt.plot(
                thin(line.seconds, most),
                thin(line.values, most),
                color=COLOURS[line.mark],
                marker="braille",
            )
        values = [v for line in drawn for v in line.values]
        if values:
            # Round ticks (1, 2, 5 × 10ⁿ apart) around the values, one every other row.
            ticks = nice_ticks(min(values), max(values), most=max(2, min(4, rows // 2)))
            plt.ylim(ticks[0], ticks[-1])
            plt.yticks(ticks, [fmt_compact(t) for t in ticks])
            # From 0 (thinning may drop the first seconds of a long run) to a round second
            # at or after the end, and at least one: plotext cannot scale an axis of no length.
            end = max(1.0, *(line.seconds[-1] for line in drawn))
            seconds = nice_ticks(0.0, end, most=max(2, min(6, self.size.width // 12)))
            plt.xlim(seconds[0], seconds[-1])
            plt.xticks(seconds, [tick_label(t, seconds) for t in seconds])
        # The legend lives in the border: plotext's would cover the first seconds.
        legend = "  ".join(f"[{hex_colour(line.mark)}]━━ {line.mark}[/]" for line in drawn)
        about = ", ".join(x for x in (self._note, "seconds from start") if x)
        self.border_subtitle = f"{legend}  {about}" if drawn else "no per-second series"
        self.refresh()
