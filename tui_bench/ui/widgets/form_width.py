"""When the run form is wide: what a screen holding it needs to know before the form (and
its many imports) is loaded."""

from __future__ import annotations

# From this width of the form its two groups of fields stand side by side. The screen that
# holds the form knows the form's width from its own and says so with WIDE_CLASS, one of its
# breakpoint classes: the form's own Resize events cannot decide it, Textual leaves one out
# when a layout and a scroll fall in one frame (the form drawn narrow with the wide layout, a
# word a line).
WIDE_FROM = 110
WIDE_CLASS = "-form-wide"
