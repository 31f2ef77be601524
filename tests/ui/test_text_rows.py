"""Rows painted straight from their segments look as Textual's own path paints them."""

from __future__ import annotations

from rich.segment import Segment
from rich.text import Text
from textual.app import App, ComposeResult
from textual.strip import Strip
from textual.visual import Visual, visualize
from textual.widget import Widget
from textual.widgets import Static

from tui_bench.ui.widgets.text_rows import text_row
from tui_bench.ui.widgets.zero_sparkline import ZeroSparkline

Cell = tuple[str, object, object, bool, bool, bool]


def cells(strip: Strip) -> list[Cell]:
    """Each character's colours and the attributes that show on a blank too."""
    out: list[Cell] = []
    for segment in strip:
        style = segment.style
        assert style is not None
        colour = style.color if segment.text.strip() else None
        attrs = (bool(style.dim), bool(style.reverse), bool(style.underline))
        for char in Segment(segment.text).text:
            out.append((char, colour, style.bgcolor, *attrs))
    return out


def textual_row(widget: Widget, line: Text) -> Strip:
    (strip,) = Visual.to_strips(
        widget, visualize(widget, line), widget.size.width, 1, widget.visual_style
    )
    return strip


class Rows(App[None]):
    CSS = "#reversed { text-style: reverse; } #spark { width: 20; height: 1; }"

    def compose(self) -> ComposeResult:
        yield Static(id="plain")
        yield Static(id="reversed")
        yield ZeroSparkline([1.0, 5.0, 3.0, 8.0, 0.0, 2.0], id="spark")


LINES = [
    Text.assemble(("now ", "dim"), ("39,600", "bold #4ea1ff"), " req/s"),
    Text("none", "dim"),
    Text.assemble(("⠁⠂⡀", "#f0a030"), ("⢀⠠", "#808080"), " 负载 ✓"),
    Text(""),
]


async def test_a_row_is_painted_as_textual_paints_it() -> None:
    async with Rows().run_test(size=(40, 6)) as pilot:
        await pilot.pause()
        for widget_id in ("plain", "reversed"):
            widget = pilot.app.query_one(f"#{widget_id}", Static)
            background = widget.visual_style.rich_style.bgcolor
            for line in LINES:
                strip = text_row(widget, line)
                row, theirs = cells(strip), cells(textual_row(widget, line))
                assert strip.cell_length == widget.size.width
                assert row[: len(theirs)] == theirs, (widget_id, line.plain)
                # Padded with the background alone, as Textual pads: no reversed bar.
                padding = row[len(theirs) :]
                assert padding == [(" ", None, background, False, False, False)] * len(padding)


async def test_a_style_only_textual_knows_does_not_break_the_row() -> None:
    async with Rows().run_test(size=(40, 6)) as pilot:
        await pilot.pause()
        widget = pilot.app.query_one("#plain", Static)
        row = text_row(widget, Text("muted", "$text-muted"))
        assert row.text.rstrip() == "muted" and row.cell_length == widget.size.width


async def test_a_sparkline_row_is_its_bars_as_textual_would_paint_them() -> None:
    async with Rows().run_test(size=(40, 6)) as pilot:
        await pilot.pause()
        spark = pilot.app.query_one(ZeroSparkline)
        straight = spark.render_line(0)
        assert cells(straight) == cells(Widget.render_line(spark, 0))
        assert straight.text == str(spark.render()) and len(straight.text) == 20


class Tall(App[None]):
    CSS = "ZeroSparkline { width: 4; height: 4; }"

    def compose(self) -> ComposeResult:
        yield ZeroSparkline([0.0, 1.0, 2.0, 4.0])


async def test_a_sparkline_taller_than_a_row_stacks_its_bars_over_the_rows() -> None:
    async with Tall().run_test(size=(10, 6)) as pilot:
        await pilot.pause()
        spark = pilot.app.query_one(ZeroSparkline)
        rows = ["".join(s.text for s in spark.render_line(y)) for y in range(4)]
        # 0, a quarter, a half and all of 4 rows; the lowest row never blank.
        assert rows == ["   █", "   █", "  ██", "▁███"]
