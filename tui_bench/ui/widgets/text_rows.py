"""A line of text made into a painted row straight from its segments.

Textual paints text through a general path (to its own content type, wrapping, alignment,
markup, selection), which cost a few milliseconds per small widget; the live screen's
figures, sparklines and chart rows change every second and need none of it.
"""

from __future__ import annotations

from collections.abc import Iterable

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.strip import Strip
from textual.widget import Widget


def text_row(widget: Widget, line: Text) -> Strip:
    """`line` (no newline in it) as `widget` paints it: its spans over the line's own style
    over the widget's, cut or padded to the widget's width."""
    console = widget.app.console
    # A line's own style is under its spans, which `render` leaves out when it has none; a
    # style Rich does not know (Textual's own) is left to the spans.
    style = console.get_style(line.style, default=Style.null())
    return segments_row(widget, line.render(console), style)


def segments_row(widget: Widget, segments: Iterable[Segment], style: Style | None = None) -> Strip:
    """`segments` over `style` over the widget's own, cut or padded to the widget's width
    (the padding takes only the background, as Textual pads: no underline or reverse)."""
    width = widget.size.width
    base = widget.visual_style.rich_style
    under = base if style is None else base + style
    strip = Strip(Segment.apply_style(segments, under))
    return strip.extend_cell_length(width, base.background_style).crop(0, width)
