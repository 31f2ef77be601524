"""A Static that repaints only when its text changes, and lays out only when its size does."""

from __future__ import annotations

from typing import cast

from rich.cells import cell_len
from rich.text import Text
from textual.css.styles import RulesMap
from textual.visual import visualize
from textual.widgets import Static


class SteadyStatic(Static):
    """A Static repainted only when its text changes: the figures change about once a second
    while the screen paints several times, and every repaint is bytes sent down an SSH link.

    A layout pass (of the whole screen) follows only when the new text takes another number
    of rows at the widget's width: the figures change every second and a form's line at every
    key, but they keep their height, and a layout pass each time was most of the CPU spent."""

    _shown: Text | None = None
    # The rows the text shown takes, and at which width; None when not known.
    _rows: tuple[int, int] | None = None

    def show(self, text: Text) -> None:
        if text == self._shown:
            return
        self._shown = text
        width = self.content_region.width
        sized_by_text = self.styles.width is not None and self.styles.width.is_auto
        if width <= 0:
            # Hidden, or not laid out yet: showing it or its first layout sizes it.
            self._rows = None
            self.update(text, layout=sized_by_text)
            return
        # The styles are the rules it is wrapped by, as Textual measures a Static's height.
        rules = cast(RulesMap, self.styles)
        rows = None if sized_by_text else (width, _height(self, text, rules, width))
        self.update(text, layout=rows is None or rows != self._rows)
        self._rows = rows


def _height(widget: Static, text: Text, rules: RulesMap, width: int) -> int:
    """The rows `text` takes at `width`: a line each when none is wider (the figures, every
    second), else as Textual wraps it. Laying the text out to learn its height cost as much
    as painting it."""
    lines = text.plain.split("\n")
    if "\t" not in text.plain and max(map(cell_len, lines)) <= width:
        return len(lines)
    return visualize(widget, text).get_height(rules, width)
