"""A one-row sparkline scaled from zero to its greatest value, or to a top set above it.

Textual's Sparkline scales from the data's least value to its greatest, so a 4 % wobble
fills the row from bottom to top; against zero it looks like the 4 % it is.
"""

from __future__ import annotations

from itertools import groupby

from rich.color import Color
from rich.style import Style
from rich.text import Text
from textual.app import RenderResult
from textual.color import Color as TextualColor
from textual.reactive import reactive
from textual.strip import Strip
from textual.widgets import Sparkline

from tui_bench.ui.widgets.text_rows import text_row

BARS = "▁▂▃▄▅▆▇█"


def levels(data: list[float], width: int, top: float = 0.0) -> list[float]:
    """Each cell's share of the greatest value, or of `top` when above it (0 to 1): a
    cell's value is the greatest of those it covers, or, with fewer values than cells, the
    value it stretches."""
    if not data or width <= 0:
        return []
    cells = []
    for cell in range(width):
        start = cell * len(data) // width
        end = max(start + 1, (cell + 1) * len(data) // width)
        cells.append(max(data[start:end]))
    top = max(top, *cells)
    return [max(0.0, value) / top if top > 0 else 0.0 for value in cells]


class ZeroSparkline(Sparkline):
    # The value of a full bar: the greatest of the data's when below it.
    top: reactive[float] = reactive(0.0)

    def render(self) -> RenderResult:
        return self._bars()

    def render_line(self, y: int) -> Strip:
        """The row made straight from its bars (`text_row`): one row, every second."""
        if y > 0:
            return Strip.blank(self.size.width, self.visual_style.rich_style)
        return text_row(self, self._bars(), self.size.width)

    def _bars(self) -> Text:
        shares = levels(list(self.data or []), self.size.width, self.top)
        low = self.get_component_rich_style("sparkline--min-color").color
        high = self.get_component_rich_style("sparkline--max-color").color
        top = len(BARS) - 1
        bars = [round(share * top) for share in shares]
        text = Text()
        # A colour for each height of bar, and a run of bars of one height written as one:
        # each change of colour is some 40 bytes of escape codes down the terminal's link,
        # more than the bars themselves.
        for bar, run in groupby(bars):
            colour = _blend(low, high, bar / top)
            text.append(BARS[bar] * len(list(run)), Style(color=colour))
        return text


def _blend(low: Color | None, high: Color | None, share: float) -> Color | None:
    if low is None or high is None:
        return high
    a, b = TextualColor.from_rich_color(low), TextualColor.from_rich_color(high)
    return a.blend(b, share).rich_color
