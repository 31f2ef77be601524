"""A comparison as a file: what `compare --format` prints or writes with -o, and what the
compare screen's export writes."""

from __future__ import annotations

import orjson

from tui_bench.analysis.significance import Report, report_markdown
from tui_bench.printable import printable_lines

# The screen's export offers the first one first.
COMPARE_FORMATS = ("md", "json")


def comparison_text(report: Report, fmt: str) -> str:
    if fmt == "json":
        return orjson.dumps(report.to_dict()).decode() + "\n"
    return printable_lines(report_markdown(report))
