"""A benchmark's history as people read it: the table `tuibench history NAME` prints and the
history screen shows, its change points in words, and the exports (json, csv, md). Pure.

A row is one run, or one point of a sweep. Rows of invalid runs (points) are kept apart:
the trend and the change points leave them out, and the table says so.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

import orjson

from tui_bench.analysis.history import METHOD, METRICS, History, HistoryRun, PointFigures, Step
from tui_bench.formats import fmt_count, fmt_latency
from tui_bench.printable import printable, printable_lines
from tui_bench.report.csv_table import csv_text

HISTORY_FORMATS = ("json", "csv", "md")
# The table's columns: key, header, whether it is a number (right-aligned).
COLUMNS: tuple[tuple[str, str, bool], ...] = (
    ("date", "date", False),
    ("point", "point", False),
    ("rps", "req/s", True),
    ("rps_range", "range", True),
    ("p99", "p99", True),
    ("p99_range", "range", True),
    ("validity", "validity", False),
    ("step", "change point", False),
    ("setup", "set-up change", False),
    ("id", "session", False),
)
CSV_COLUMNS = (
    "started_at",
    "id",
    "kind",
    "status",
    "point",
    "validity",
    "rps",
    "rps_min",
    "rps_max",
    "p99_s",
    "p99_s_min",
    "p99_s_max",
    "setup_changes",
    "change_points",
)


@dataclass(frozen=True)
class Row:
    """One run (or sweep point) of the history as text, with where it comes from."""

    run: int  # its position in History.runs
    figures: PointFigures
    cells: Mapping[str, str]

    @property
    def counts(self) -> bool:
        return self.figures.counts


def when(moment: datetime | None, *, seconds: bool = False) -> str:
    """The start of a run in local time, to the minute (or the second)."""
    if moment is None:
        return "–"
    return moment.astimezone().strftime("%Y-%m-%d %H:%M" + ":%S" * seconds)


def _to_the_second(history: History) -> bool:
    """Whether two runs started in the same minute: then the table's dates need seconds."""
    minutes = [when(run.started) for run in history.runs if run.started]
    return len(set(minutes)) < len(minutes)


def fmt_step(step: Step) -> str:
    """`req/s −10.0 %` (the metric is named when a table holds both)."""
    sign = "+" if step.step_pct >= 0 else "−"
    return f"{METRICS[step.metric]} {sign}{abs(step.step_pct):.1f} %"


def steps_at(history: History, run: int, point: str) -> list[Step]:
    """The change points whose new level starts at this run and point."""
    return [s for s in history.steps if s.after_run == run and s.point == point]


def rows(history: History) -> list[Row]:
    """A row per run and point, oldest first."""
    out = []
    seconds = _to_the_second(history)
    for i, run in enumerate(history.runs):
        for figures in run.points or (PointFigures("", *(None,) * 6, run.verdict),):
            out.append(Row(i, figures, _cells(history, i, run, figures, seconds=seconds)))
    return out


def _cells(
    history: History, i: int, run: HistoryRun, figures: PointFigures, *, seconds: bool
) -> dict[str, str]:
    return {
        "date": when(run.started, seconds=seconds),
        "point": figures.name or ("–" if run.kind == "sweep" else ""),
        "rps": fmt_count(figures.rps),
        "rps_range": _range(figures.rps_min, figures.rps_max, fmt_count),
        "p99": fmt_latency(figures.p99_s),
        "p99_range": _range(figures.p99_s_min, figures.p99_s_max, fmt_latency),
        "validity": figures.verdict or "–",
        "step": ", ".join(fmt_step(s) for s in steps_at(history, i, figures.name)),
        "setup": " ".join(run.changes),
        "id": run.id,
    }


def _range(low: float | None, high: float | None, fmt: Callable[[float | None], str]) -> str:
    if low is None or high is None:
        return ""
    return f"{fmt(low)}–{fmt(high)}"


def step_line(history: History, step: Step, *, short: bool = False) -> str:
    """One change point in words: its size, the levels and the runs either side (`short`:
    the first run of the new level by its date alone, for a screen that lists the runs)."""
    before, after = history.runs[step.before_run], history.runs[step.after_run]
    fmt = fmt_count if step.metric == "rps" else fmt_latency
    where = f" at {step.point}" if step.point else ""
    if short:
        return (
            f"{fmt_step(step)}{where}: {fmt(step.before)} → {fmt(step.after)} from "
            f"{when(after.started)} ({step.runs_before} runs before, {step.runs_after} after)"
        )
    return (
        f"{fmt_step(step)}{where}: {fmt(step.before)} → {fmt(step.after)} (medians), "
        f"between {when(before.started)} {before.id} and {when(after.started)} {after.id}; "
        f"{step.runs_before} runs before, {step.runs_after} after (p = {step.p_value:.1g})"
    )


def method_line() -> str:
    return (
        f"change points: {METHOD['name']} ({METHOD['library']}) on the {METHOD['on']}, "
        f"then {METHOD['test']}"
    )


def summary_line(history: History) -> str:
    invalid = sum(1 for run in history.runs if run.invalid)
    first, last = history.runs[0].started, history.runs[-1].started
    seconds = _to_the_second(history)
    return (
        f"history of {printable(history.name)}: {len(history.runs)} session"
        + "s" * (len(history.runs) != 1)
        + (f", {invalid} invalid" if invalid else "")
        + f", {when(first, seconds=seconds)} to {when(last, seconds=seconds)}"
    )


def history_text(history: History) -> str:
    """What `tuibench history NAME` prints: the table of runs that count, the change points,
    then the invalid ones apart."""
    table = rows(history)
    counted = [r for r in table if r.counts]
    apart = [r for r in table if not r.counts]
    lines = [summary_line(history), ""]
    lines += _aligned(counted) if counted else ["no valid run yet"]
    lines += ["", method_line()]
    lines += [f"  {step_line(history, s)}" for s in history.steps] or ["  none found"]
    if apart:
        lines += ["", "invalid (left out of the trend and the change points):"]
        lines += _aligned(apart)
    return "\n".join(lines) + "\n"


HEADS = {key: head for key, head, _ in COLUMNS}
NUMERIC = frozenset(key for key, _, number in COLUMNS if number)


def shown_columns(table: Sequence[Row]) -> list[str]:
    """The columns with something to say in `table`."""
    return [key for key, _, _ in COLUMNS if any(row.cells[key] for row in table)]


def _aligned(table: Sequence[Row]) -> list[str]:
    keys = shown_columns(table)
    heads, numeric = HEADS, NUMERIC
    widths = {k: max(len(heads[k]), *(len(r.cells[k]) for r in table)) for k in keys}

    def line(cells: Mapping[str, str]) -> str:
        parts = [
            cells[k].rjust(widths[k]) if k in numeric else cells[k].ljust(widths[k]) for k in keys
        ]
        return "  ".join(parts).rstrip()

    return [line(heads), *(line(r.cells) for r in table)]


def history_export(history: History, fmt: str) -> str:
    if fmt == "json":
        return orjson.dumps(history.to_dict()).decode() + "\n"
    if fmt == "csv":
        return _csv(history)
    return printable_lines(_markdown(history))


def _csv(history: History) -> str:
    lines = []
    for row in rows(history):
        run, figures = history.runs[row.run], row.figures
        lines.append(
            [
                run.started.isoformat() if run.started else None,
                run.id,
                run.kind,
                run.status,
                figures.name,
                figures.verdict,
                *(figures.value(key) for key in CSV_COLUMNS[6:12]),
                "; ".join(run.changes),
                row.cells["step"],
            ]
        )
    return csv_text(CSV_COLUMNS, lines)


def _markdown(history: History) -> str:
    table = rows(history)
    lines = [f"# History of {printable(history.name)}", "", summary_line(history), ""]
    for title, part in (
        ("Runs", [r for r in table if r.counts]),
        (
            "Invalid runs (left out of the trend and the change points)",
            [r for r in table if not r.counts],
        ),
    ):
        if not part:
            continue
        lines += [f"## {title}", ""]
        keys = shown_columns(part)
        lines.append("| " + " | ".join(HEADS[k] for k in keys) + " |")
        lines.append("| " + " | ".join("---:" if k in NUMERIC else "---" for k in keys) + " |")
        lines += ["| " + " | ".join(r.cells[k] or " " for k in keys) + " |" for r in part]
        lines.append("")
    lines += ["## Change points", "", method_line(), ""]
    lines += [f"- {step_line(history, s)}" for s in history.steps] or ["- none found"]
    return "\n".join(lines) + "\n"
