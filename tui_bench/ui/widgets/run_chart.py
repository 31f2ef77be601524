"""The one big chart: req/s and p99 over the run, drawn by plotext on round axes."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import cast

from rich.text import Text
from textual.app import RenderResult
from textual.geometry import Region, Size
from textual.strip import Strip
from textual_plotext import PlotextPlot

from tui_bench.engine.live_state import LiveState
from tui_bench.formats import fmt_compact
from tui_bench.report.ticks import nice_ticks, tick_label, time_ticks
from tui_bench.ui.widgets.text_rows import text_row

TITLE = "req/s and p99 over the run (s)"
# What `z` cycles through: the whole run (older seconds folded), its last 10 minutes, its
# last minute; each with its title.
SPANS: tuple[float | None, ...] = (None, 600.0, 60.0)
_TITLES = {
    None: TITLE,
    600.0: "req/s and p99, the last 10 minutes",
    60.0: "req/s and p99, the last minute",
}
# The legend, in the border (plotext's own would cover the first seconds): each line has
# its own marker and says its axis in words, not told apart by colour alone.
LEGEND = "• req/s (left axis)   x p99 ms (right axis)"
# A steered run's: its segments' starts are drawn as lines across the plot.
SEGMENTS_LEGEND = f"{LEGEND}   │ a segment begins"
# The rows the chart needs to be read: its border and frame, the time axis' labels and six
# rows of plot, room for three round ticks a row apart at least. Below it, no chart.
READABLE_HEIGHT = 12
# What the frame and the time axis' labels take of the rows inside the border.
_FRAME_ROWS = 3


def thin(values: Sequence[float], most: int) -> list[float]:
    """Every k-th value so that at most `most` remain: a chart needs ~2 points per cell."""
    step = max(1, -(-len(values) // max(most, 1)))
    # Counted back from the last value, so a chart always reaches the end of the run.
    return list(values[(len(values) - 1) % step :: step])


def from_zero(high: float, rows: int) -> list[float]:
    """Round ticks from 0 to above `high`, one every other row at most: a tick on every
    row would crowd its labels, and plotext drops crowded ones by its own rounding. The
    highest point stays off the frame's edge, where a single point (or a flat line) hides."""
    top = high * 1.05 if high > 0 else 1.0
    return nice_ticks(0.0, top, most=max(2, min(5, rows // 2)))


class RunChart(PlotextPlot):
    # Braille cells say nothing as text; a selection would also be one more way for a row
    # made once (`render_line`) to go stale.
    ALLOW_SELECT = False
    DEFAULT_CSS = f"""
    RunChart {{ height: 2fr; min-height: {READABLE_HEIGHT}; border: round $primary-darken-1; }}
    """

    # The frame drawn last, line by line, and the size and theme it was drawn for.
    _frame: Text | None = None
    _frame_lines: Sequence[Text] = ()
    _frame_for: tuple[Size, str] | None = None
    # Each row of the frame as painted, made when first asked for: a new point changes a few
    # rows, and making the strips of all of them again was most of what the chart cost.
    _strips: dict[int, Strip]

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._strips = {}

    def on_mount(self) -> None:
        # The title in the border too: a row of the plot's own would be a row less of plot.
        self.border_title = TITLE
        self.border_subtitle = LEGEND

    def render(self) -> RenderResult:
        self._drawn()
        assert self._frame is not None
        return self._frame

    def render_line(self, y: int) -> Strip:
        """Row `y` as `render` would paint it, made once per change of that row."""
        self._drawn()
        strip = self._strips.get(y)
        if strip is None:
            text = self._frame_lines[y] if y < len(self._frame_lines) else Text()
            strip = self._strips[y] = text_row(self, text)
        return strip

    def notify_style_update(self) -> None:
        # The rows were made with the styles as they were (a class, a pseudo-class).
        super().notify_style_update()
        self._strips.clear()

    def _drawn(self) -> None:
        if self._frame is None or self._frame_for != (self.size, self.app.theme):
            self._draw()

    def _draw(self) -> list[int] | None:
        """Draws the plot as it stands; the rows that differ from the frame before, or None
        when all may (the first frame, another size or theme)."""
        before, drawn_for = self._frame_lines, self._frame_for
        frame = super().render()
        assert isinstance(frame, Text)
        lines = list(frame.split("\n"))
        self._frame, self._frame_lines = frame, lines
        self._frame_for = (self.size, self.app.theme)
        if drawn_for != self._frame_for or len(lines) != len(before):
            self._strips.clear()
            return None
        changed = [y for y, (old, new) in enumerate(zip(before, lines, strict=True)) if old != new]
        for y in changed:
            self._strips.pop(y, None)
        return changed

    def _repaint(self) -> None:
        """Only the rows that changed are painted again: a new second adds a point to each
        line of a chart whose axes stay, a few rows, and every row sent down the terminal's
        link is hundreds of bytes of braille cells and colour codes."""
        changed = self._draw()
        if changed is None:
            self.refresh()
        elif changed:
            self.refresh(*(Region(0, y, self.size.width, 1) for y in changed))

    def show(self, state: LiveState, span_s: float | None = None) -> None:
        """The whole run, or its last `span_s` seconds."""
        title = _TITLES.get(span_s, TITLE)
        if self.border_title != title:
            # Set only when it changes: setting it paints the whole chart again.
            self.border_title = title
        points = state.chart_points(span_s)
        most = 2 * max(self.size.width, 1)
        plot_rows = max(self.size.height - _FRAME_ROWS, 2)
        plt = self.plt
        plt.clear_data()
        if not points:
            self._repaint()
            return
        seconds = thin([p.t_s for p in points], most)
        rps = thin([p.rps for p in points], most)
        plt.plot(seconds, rps, marker="•")
        # From the start of the run (or of the span) to a round time at or after its end, a
        # label every dozen columns or so.
        start = 0.0 if span_s is None else max(0.0, seconds[-1] - span_s)
        x_ticks, x_labels = time_ticks(
            seconds[-1], most=max(2, self.size.width // 12), start_s=start
        )
        plt.xlim(x_ticks[0], x_ticks[-1])
        plt.xticks(x_ticks, x_labels)
        starts = [t for t in state.segment_starts if x_ticks[0] <= t <= x_ticks[-1]]
        for at in starts:
            plt.vline(at)
        legend = SEGMENTS_LEGEND if state.segment_starts else LEGEND
        if self.border_subtitle != legend:
            self.border_subtitle = legend
        # plotext's own hints type `yside` as a number; it takes "left" or "right".
        ylim = cast(Callable[..., None], plt.ylim)
        yticks = cast(Callable[..., None], plt.yticks)
        left = from_zero(max(rps), plot_rows)
        ylim(left[0], left[-1], yside="left")
        yticks(left, [fmt_compact(t) for t in left], yside="left")
        p99 = [p for p in points if p.p99_s is not None]
        if p99:
            ms = thin([p.p99_s * 1e3 for p in p99 if p.p99_s is not None], most)
            plt.plot(
                thin([p.t_s for p in p99], most),
                ms,
                marker="x",
                yside="right",
            )
            right = from_zero(max(ms), plot_rows)
            ylim(right[0], right[-1], yside="right")
            yticks(right, [tick_label(t, right) for t in right], yside="right")
        self._repaint()
