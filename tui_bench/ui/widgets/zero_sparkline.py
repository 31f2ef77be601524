"""A one-row sparkline scaled from zero to its greatest value, or to a top set above it.

Textual's Sparkline scales from the data's least value to its greatest, so a 4 % wobble
fills the row from bottom to top; against zero it looks like the 4 % it is.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import groupby

from rich.color import Color
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.app import RenderResult
from textual.color import Color as TextualColor
from textual.reactive import reactive
from textual.strip import Strip
from textual.widgets import Sparkline

from tui_bench.ui.widgets.text_rows import segments_row

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
    # Bars say nothing as text; a row painted straight (`render_line`) marks no selection.
    ALLOW_SELECT = False
    # The value of a full bar: the greatest of the data's when below it.
    top: reactive[float] = reactive(0.0)

    def render(self) -> RenderResult:
        return Text.assemble(*self._runs())

    def render_line(self, y: int) -> Strip:
        """The row made straight from its runs of bars: one row, every second, which
        through Textual's path for text cost over a millisecond."""
        if y >= self.size.height:
            return Strip.blank(self.size.width, self.visual_style.rich_style)
        return segments_row(self, [Segment(bars, style) for bars, style in self._runs(y)])

    def _runs(self, y: int = 0) -> list[tuple[str, Style]]:
        """Row `y`'s runs of cells of one character and colour: each change of colour is
        some 40 bytes of escape codes down the terminal's link, more than the bars
        themselves. Taller than a row (a panel expanded), the bars stack over the rows."""
        shares = levels(list(self.data or []), self.size.width, self.top)
        low = self.get_component_rich_style("sparkline--min-color").color
        high = self.get_component_rich_style("sparkline--max-color").color
        tones = _tones(low, high)
        top = len(BARS) - 1
        under = (max(1, self.size.height) - 1 - y) * len(BARS)
        cells = []
        for share in shares:
            tone = round(share * top)
            if under == 0 and self.size.height <= 1:
                cells.append((BARS[tone], tone))
                continue
            # Eighths of a cell filled in this row; the lowest row never blank, as one row.
            filled = min(len(BARS), round(share * self.size.height * len(BARS)) - under)
            mark = BARS[filled - 1] if filled > 0 else (BARS[0] if under == 0 else " ")
            cells.append((mark, tone))
        return [
            ("".join(mark for mark, _ in run), tones[tone])
            for (_, tone), run in ((key, list(group)) for key, group in groupby(cells))
        ]


@lru_cache(maxsize=16)
def _tones(low: Color | None, high: Color | None) -> tuple[Style, ...]:
    """A colour for each height of bar, from `low` to `high`."""
    if low is None or high is None:
        return (Style(color=high),) * len(BARS)
    a, b = TextualColor.from_rich_color(low), TextualColor.from_rich_color(high)
    top = len(BARS) - 1
    return tuple(Style(color=a.blend(b, bar / top).rich_color) for bar in range(len(BARS)))
