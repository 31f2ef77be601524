"""A comparison as a file: what `compare --format` prints or writes with -o, and what the
compare screen's export writes."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import orjson

from tui_bench.analysis.compare import (
    METRICS,
    fmt_delta,
    fmt_delta_pct,
    fmt_value,
    started,
    target,
    tool_label,
)
from tui_bench.analysis.like_segments import SegmentPair, like_segments
from tui_bench.analysis.names import TESTED
from tui_bench.analysis.run_counts import MIN_RUNS
from tui_bench.analysis.significance import (
    Report,
    fmt_ci,
    fmt_p,
    median_deltas,
    side_title,
    unknown_word,
)
from tui_bench.formats import fmt_count
from tui_bench.printable import md_cell, printable, printable_lines
from tui_bench.records.segment import Segment

# The screen's export offers the first one first.
COMPARE_FORMATS = ("md", "json")


def comparison_text(report: Report, fmt: str) -> str:
    if fmt == "json":
        pairs = [p.to_dict() for p in _pairs(report)]
        kept = {**report.to_dict(), **({"segments": pairs} if pairs else {})}
        return orjson.dumps(kept).decode() + "\n"
    return printable_lines(report_markdown(report))


def report_markdown(report: Report) -> str:
    """The whole comparison as a markdown document: the sides, the tested metrics with
    their verdicts and notes, the other metrics' plain change, the set-up differences."""
    a, b = report.a, report.b
    lines = [f"# {side_title(b)} against {side_title(a)}", ""]
    for letter, side in (("A", a), ("B", b)):
        lines.append(
            f"- {letter}: {side.label}, {side.runs_label}, {started(side.session)}, "
            f"{tool_label(side.shown)}, {printable(target(side.shown))}"
        )
    tested = min(len(a.runs), len(b.runs)) >= MIN_RUNS
    title = "## Tested, run by run" if tested else "## Run by run (too few runs to test)"
    lines += ["", title, "", *tested_table(m.to_dict() for m in report.metrics)]
    if report.notes:
        lines += ["", *(f"- {note}" for note in report.notes)]
    others = [d for d in median_deltas(a, b) if d.name not in TESTED]
    if others:
        lines += [
            "",
            "## Not tested: the change of the medians",
            "",
            "| metric | A | B | Δ | Δ% |",
            "| --- | ---: | ---: | ---: | ---: |",
        ]
        lines += [
            f"| {d.label} | {fmt_value(d.unit, d.a)} | {fmt_value(d.unit, d.b)} | "
            f"{fmt_delta(d.unit, d.delta)} | {fmt_delta_pct(d.delta_pct)} |"
            for d in others
        ]
    lines += segments_table(_pairs(report))
    lines.append("")
    if not report.differences:
        lines.append("Same set-up.")
    else:
        lines += ["## Set-up differences", "", "| | A | B |", "| --- | --- | --- |"]
        lines += [f"| {d.label} | {_cell(d.a)} | {_cell(d.b)} |" for d in report.differences]
    return "\n".join(lines) + "\n"


def _pairs(report: Report) -> list[SegmentPair]:
    return like_segments(report.a.shown.segments, report.b.shown.segments)


def segments_table(pairs: Sequence[SegmentPair]) -> list[str]:
    """Steered runs' segments, like with like: what each achieved at the same load."""
    if not pairs:
        return []

    def side(s: Segment | None) -> str:
        if s is None:
            return "–"
        return f"{fmt_count(s.achieved_rps)} ({s.validity or '–'})"

    lines = [
        "",
        "## Segments, like with like",
        "",
        "| load | A achieved req/s | B achieved req/s | Δ% |",
        "| --- | ---: | ---: | ---: |",
    ]
    for p in pairs:
        rate = "closed loop" if p.target_rps is None else f"{fmt_count(p.target_rps)} req/s"
        lines.append(
            f"| {rate} c{p.connections} | {side(p.a)} | {side(p.b)} | "
            f"{fmt_delta_pct(p.delta_pct)} |"
        )
    return lines


def tested_table(metrics: Iterable[Mapping[str, Any]]) -> list[str]:
    """The tested metrics as a markdown table, from their JSON form (`MetricVerdict.to_dict`):
    a comparison kept in a session is written as one computed now."""
    labels = {m.name: m.label for m in METRICS}
    lines = [
        "| metric | n A/B | A (median) | B (median) | Δ% | 95% CI of Δ% | p | p adjusted "
        "| B vs A |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
    ]
    for m in metrics:
        unit = m["unit"]
        # A comparison kept before metrics had roles has none to show.
        role = " (primary)" if m.get("role") == "primary" else ""
        lines.append(
            f"| {labels.get(m['name'], m['name'])}{role} | {m['n_a']}/{m['n_b']} | "
            f"{fmt_value(unit, m['a'])} | {fmt_value(unit, m['b'])} | "
            f"{fmt_delta_pct(m['delta_pct'])} | {fmt_ci(m['ci_low_pct'], m['ci_high_pct'])} | "
            f"{fmt_p(m['p_value'])} | {fmt_p(m['p_adjusted'])} | {m['verdict']} |"
        )
    return lines


def _cell(value: str | None) -> str:
    return md_cell(unknown_word(value))
