"""The cells of the table of saved sessions as Rich text, one row at a time: its date, name,
URL, figures, status and validity, and how a name or a URL is shortened to fit."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from pathlib import Path
from urllib.parse import urlsplit

from rich.text import Text

from tui_bench.formats import fmt_count, fmt_latency
from tui_bench.printable import printable
from tui_bench.report.column_fit import middle_cut
from tui_bench.storage.catalog import SessionRow
from tui_bench.ui.tones import Tones, validity_text

MARK_STYLE = "bold reverse"


def elide_middle(text: Text, width: int) -> Text:
    """`text` within `width` cells, its middle given up for one `…`."""
    cut = middle_cut(text.cell_len, width)
    if cut is None:
        return text
    head, tail = cut
    out = text[:head]
    out.append("…")
    out.append_text(text[len(text.plain) - tail :])
    return out


def local_time(moment: datetime | None, *, year: bool = False) -> str:
    """In the local time zone; compact (no year) unless asked for."""
    if moment is None:
        return ""
    return moment.astimezone().strftime("%Y-%m-%d %H:%M:%S" if year else "%b %d %H:%M:%S")


def short_url(urls: str) -> str:
    """The first URL without `http://` and a bare `/` path; `+N` for the others."""
    first, *others = urls.split() or [""]
    parts = urlsplit(first)
    short = first.removeprefix("http://")
    if parts.path == "/" and not parts.query:
        short = short.removesuffix("/")
    return f"{short} +{len(others)}" if others else short


def status_style(status: str, tones: Tones) -> str:
    styles = {
        "completed": "dim",
        "failed": f"bold {tones.error}",
        "interrupted": f"bold {tones.warning}",
        "unreadable": f"bold {tones.error}",
        "imported": "cyan",
    }
    return styles.get(status, "")


def cell_texts(row: SessionRow, marks: Mapping[str, Path], tones: Tones) -> dict[str, Text]:
    """The text of every column for one row."""
    missing = Text("–", "dim")
    status = Text(row.status, status_style(row.status, tones))
    if not row.readable:
        return {
            "mark": Text(""),
            "date": Text(""),
            "name": Text(row.path.name),
            "url": Text(row.error or "", tones.error),
            "status": status,
        }
    errors = Text(fmt_count(row.errors), f"bold {tones.error}" if row.errors else "")
    return {
        "mark": Text(mark_of(row.path, marks), MARK_STYLE),
        "date": Text(local_time(row.started)),
        # Narrow tables drop the tool column, which says "sweep": the name says it too.
        "name": Text.assemble(
            ("sweep ", "cyan") if row.kind == "sweep" else "",
            Text(printable(row.name)) if row.name else missing,
        ),
        "tool": Text(row.tool),
        "url": Text(printable(short_url(row.url))),
        "c": Text(str(row.c)) if row.c is not None else missing,
        "m": Text(str(row.m)) if row.m is not None else missing,
        "rps": Text(fmt_count(row.rps)),
        "p99": Text(fmt_latency(row.p99_s)),
        "errors": errors if row.errors is not None else missing,
        "tags": Text(printable(",".join(row.tags))),
        "status": status,
        "validity": validity_text(row.validity, tones) if row.validity else missing,
    }


def mark_of(path: Path, marks: Mapping[str, Path]) -> str:
    return "".join(sorted(label for label, marked in marks.items() if marked == path))
