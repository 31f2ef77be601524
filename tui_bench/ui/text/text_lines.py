"""The pieces every screen's words are made of: labelled pairs on a line, lines of them,
the clock and a share. Pure."""

from __future__ import annotations

from rich.text import Text

from tui_bench.ui.tones import LABEL


def clock(seconds: float | None, *, tenths: bool = False, hours: bool = False) -> str:
    """`04:07` (`04:07.3` with `tenths`); from an hour on, or with `hours` (beside a time
    past one), `1:04:07`, as a soak test runs."""
    if seconds is None:
        return "–"
    whole, tenth = divmod(int(seconds * 10 + 1e-6), 10) if tenths else (int(seconds), 0)
    whole_hours, rest = divmod(whole, 3600)
    text = f"{rest // 60:02d}:{rest % 60:02d}"
    if hours or whole_hours:
        text = f"{whole_hours}:{text}"
    return f"{text}.{tenth}" if tenths else text


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
