"""A line of text made into a painted row straight from its segments.

Textual paints text through a general path (to its own content type, wrapping, alignment,
markup, selection), which cost a few milliseconds per small widget; the live screen's
figures, sparklines and chart rows change every second and need none of it.
"""

from __future__ import annotations

from rich.segment import Segment
from rich.text import Text
from textual.strip import Strip
from textual.widget import Widget


def text_row(widget: Widget, line: Text, width: int) -> Strip:
    """`line` (no newline in it) as `widget` paints it at `width`: its spans over the line's
    own style over the widget's, cut or padded to the width."""
    console = widget.app.console
    base = widget.visual_style.rich_style
    # A line's own style is under its spans, which `render` leaves out when it has none.
    segments = Segment.apply_style(line.render(console), base + console.get_style(line.style))
    return Strip(segments).extend_cell_length(width, base).crop(0, width)
