"""What runs and where, as the first line of a job's header says it: light, for the first
frame too, which is up before the engine is imported (screens/preparing_screen.py)."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from tui_bench.printable import printable
from tui_bench.redaction import redact_text


def run_title(label: str, urls: Sequence[str], connection: str | None = None) -> Text:
    """`label` (the tool, a sweep) in bold, the connection when it is known, the URLs with
    their secrets hidden."""
    text = Text.assemble((label, "bold"), "  ")
    if connection is not None:
        text.append(f"{connection}  ")
    text.append(printable(redact_text(" ".join(urls))))
    return text
