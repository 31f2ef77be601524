"""SteadyStatic repaints on a new text and asks for a layout pass only when its height
changes."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import App, ComposeResult
from textual.visual import VisualType

from tui_bench.ui.widgets.steady_static import SteadyStatic


class Spied(SteadyStatic):
    DEFAULT_CSS = "Spied { width: 30; height: auto; }"

    def __init__(self) -> None:
        super().__init__()
        self.layouts: list[bool] = []

    def update(self, content: VisualType = "", *, layout: bool = True) -> None:
        self.layouts.append(layout)
        super().update(content, layout=layout)


class One(App[None]):
    def compose(self) -> ComposeResult:
        yield Spied()


async def test_layout_only_when_the_height_changes() -> None:
    app = One()
    async with app.run_test(size=(80, 10)) as pilot:
        widget = app.query_one(Spied)
        await pilot.pause()
        shows: list[tuple[str, bool | None]] = [
            ("p50 3.50 ms\np99 12.50 ms", True),  # first text: its size is not known
            ("p50 3.50 ms\np99 12.50 ms", None),  # unchanged: no repaint at all
            ("p50 3.61 ms\np99 12.70 ms", False),  # new figures, same shape
            ("p50 3.61 ms\np99 12.70 ms\nmax 20 ms", True),  # a line more
            ("p50 3.61 ms\np99 12.70 ms\nmax 20 ms, and more than thirty cells", True),  # wraps
            # Wrapped to as many rows: the same height (a form's line as a key is typed).
            ("p50 3.61 ms\np99 12.70 ms\nmax 20 ms, and more than thirty cells!", False),
        ]
        for text, layout in shows:
            before = len(widget.layouts)
            widget.show(Text(text))
            await pilot.pause()
            expected: list[Any] = [] if layout is None else [layout]
            assert widget.layouts[before:] == expected, text
        assert widget.size.height == 4  # the long line did wrap, and the layout followed
