"""The pieces every screen's words are made of: labelled pairs on a line, lines of them,
the clock and a share. Pure."""

from __future__ import annotations

from rich.text import Text

from tui_bench.ui.tones import LABEL


def pct(value: float | None) -> str:
    return "–" if value is None else f"{value:.0f}%"


def pairs(*pairs: tuple[str, str]) -> Text:
    text = Text()
    for i, (label, value) in enumerate(pairs):
        text.append(("  " if i else "") + label + " ", LABEL)
        text.append(value)
    return text


def stacked(*lines: Text | str) -> Text:
    return Text("\n").join(Text(line) if isinstance(line, str) else line for line in lines)
