"""A Static that repaints only when its text changes, and lays out only when its size may."""

from __future__ import annotations

from rich.cells import cell_len
from rich.text import Text
from textual.widgets import Static


class SteadyStatic(Static):
    """A Static repainted only when its text changes: the figures change about once a second
    while the screen paints several times, and every repaint is bytes sent down an SSH link.

    A layout pass (of the whole screen) follows only when the new text may take another
    size: another number of lines, or a line that may wrap. The figures change every second
    but keep their shape, and a layout pass each time was most of the screen's CPU."""

    _shown: Text | None = None
    _shape: tuple[int, int] | None = None

    def show(self, text: Text) -> None:
        if text == self._shown:
            return
        self._shown = text
        lines = text.plain.split("\n")
        shape = (len(lines), max(cell_len(line) for line in lines))
        width = self.content_region.width
        # Same number of lines, none of them wider than the widget: the same size.
        same_size = (
            self._shape is not None
            and shape[0] == self._shape[0]
            and 0 < max(shape[1], self._shape[1]) <= width
        )
        self._shape = shape
        self.update(text, layout=not same_size)
