"""A Static that repaints only when its text changes."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static


class SteadyStatic(Static):
    """A Static repainted only when its text changes: the figures change about once a second
    while the screen paints five times, and every repaint is bytes sent down an SSH link."""

    _shown: Text | None = None

    def show(self, text: Text) -> None:
        if text != self._shown:
            self._shown = text
            self.update(text)
