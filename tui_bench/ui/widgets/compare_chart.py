"""One metric of two sessions on one time axis (seconds from each run's start), by plotext."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from textual import events
from textual_plotext import PlotextPlot

from tui_bench.formats import fmt_compact
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
            ticks = y_ticks(min(values), max(values))
            plt.yticks(ticks, [fmt_compact(t) for t in ticks])
            # Whole seconds from 0 (thinning may drop the first seconds of a long run), and
            # at least one: plotext cannot scale an axis of no length.
            end = max(1.0, *(line.seconds[-1] for line in drawn))
            seconds = sorted({float(round(t)) for t in y_ticks(0, end)})
            plt.xlim(0, end)
            plt.xticks(seconds, [f"{t:.0f}" for t in seconds])
        # The legend lives in the border: plotext's would cover the first seconds.
        legend = "  ".join(f"[{hex_colour(line.mark)}]━━ {line.mark}[/]" for line in drawn)
        about = ", ".join(x for x in (self._note, "seconds from start") if x)
        self.border_subtitle = f"{legend}  {about}" if drawn else "no per-second series"
        self.refresh()


def y_ticks(low: float, high: float, count: int = 5) -> list[float]:
    if high <= low:
        return [low]
    step = (high - low) / (count - 1)
    return [low + i * step for i in range(count)]
