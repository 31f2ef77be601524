"""Markdown tables shared by a run's and a sweep's md export."""

from __future__ import annotations

from collections.abc import Sequence

from tui_bench.printable import md_cell
from tui_bench.records.threshold import ThresholdVerdict
from tui_bench.report.text import measured_text


def threshold_markdown(verdicts: Sequence[ThresholdVerdict]) -> list[str]:
    """The thresholds section of a run's or a sweep's md (nothing without thresholds)."""
    if not verdicts:
        return []
    cells = [
        [
            v.text,
            v.name or "all",
            v.reason or measured_text(v),
            "pass" if v.passed else "**FAIL**",
        ]
        for v in verdicts
    ]
    table = md_table(["threshold", "point", "measured", "verdict"], cells, "llrl")
    return ["## Thresholds", "", *table, ""]


def md_table(header: Sequence[str], rows: Sequence[Sequence[str]], align: str) -> list[str]:
    """A markdown table; `align` has an `l` (text) or `r` (a number) per column."""
    rule = ["---:" if a == "r" else "---" for a in align]
    rows = [[md_cell(cell) for cell in row] for row in rows]
    return [f"| {' | '.join(cells)} |" for cells in (header, rule, *rows)]
