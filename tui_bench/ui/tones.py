"""What a figure means, in the theme's colours: errors, warnings and what went well.

The screens paint Rich text, whose colours are fixed when it is built. Tones are those colours
taken from the app's theme, so that a theme (a user's own, or the next one `t` picks) decides
them; a screen rebuilds its text with the new tones when the theme changes (`follow_theme`).
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from rich.text import Text
from textual.color import Color, ColorParseError
from textual.dom import DOMNode
from textual.theme import Theme

# Labels beside the figures. Not a theme colour: $text-muted is an alpha colour (`auto 60%`),
# which Rich cannot take.
LABEL = "dim"


@dataclass(frozen=True)
class Tones:
    """Rich colours (style strings) for what a figure means; the caller adds bold or reverse."""

    error: str
    warning: str
    success: str

    @classmethod
    def of(cls, variables: Mapping[str, str]) -> Tones:
        """From a theme's CSS variables: the text shades, which stay readable on the theme's
        background, light or dark. A shade Rich cannot take (a user theme may set one to any
        CSS colour, `red 50%` say) leaves the terminal's own colour."""
        return cls(
            error=_rich_colour(variables.get("text-error"), ANSI.error),
            warning=_rich_colour(variables.get("text-warning"), ANSI.warning),
            success=_rich_colour(variables.get("text-success"), ANSI.success),
        )


# The terminal's own colours: for text painted where no theme is known, as in tests of the
# words alone.
ANSI = Tones(error="red", warning="yellow", success="green")


def _rich_colour(value: str | None, fallback: str) -> str:
    try:
        return Color.parse(value or "").rich_color.name
    except ColorParseError:
        return fallback


def verdict_style(verdict: str | None, tones: Tones) -> str:
    """A Rich style for a verdict: of validity (valid, suspect, invalid), of a comparison
    (better, worse, likely better, likely worse, same, ...) or of a check (pass, fail).

    Loud (bold) only where the reader must stop: figures not to be trusted, a change the
    tests stand behind, a failed check. The lower tier of a change takes the same colour
    without bold, as it rests on few runs. What asks nothing of the reader (valid, same, no
    difference, insufficient data) is a label."""
    match verdict:
        case "invalid" | "worse" | "fail":
            return f"bold {tones.error}"
        case "likely worse":
            return tones.error
        case "suspect":
            return tones.warning
        case "better":
            return f"bold {tones.success}"
        case "likely better" | "pass":
            return tones.success
        case _:
            return LABEL


def validity_text(verdict: str, tones: Tones) -> Text:
    """A validity verdict in a table cell: in words (never by colour alone), INVALID in
    capitals."""
    return Text(verdict.upper() if verdict == "invalid" else verdict, verdict_style(verdict, tones))


def tones_of(node: DOMNode) -> Tones:
    """The tones of the theme of `node`'s app, as it is now."""
    return Tones.of(node.app.get_css_variables())


def follow_theme(node: DOMNode, repaint: Callable[[Tones], None]) -> Tones:
    """The tones of the app's theme now; `repaint`, a method of `node`, is called with the
    new ones whenever the theme changes, for as long as `node` is mounted.

    Nothing in the subscription holds `node`: Textual drops a removed node's subscription
    only at the next theme change, and until then a strong reference would keep a closed
    screen, with its whole run's state, in memory. Hence `repaint` held weakly, and
    `immediate` (Textual's deferred callback holds the node)."""
    app = node.app
    method = weakref.WeakMethod(repaint)

    def on_theme(_theme: Theme) -> None:
        bound = method()
        if bound is not None:
            bound(Tones.of(app.get_css_variables()))

    app.theme_changed_signal.subscribe(node, on_theme, immediate=True)
    return tones_of(node)
