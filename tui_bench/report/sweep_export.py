"""A sweep as tables: a row per run and a row per point, then the points alone.

`sweep_rows` is the one rectangular table (a `row_type` of "run" or "point"); the CSV is
that table as it is, the markdown shows it for people. A point's row is over its completed
runs only: its req/s and latencies are the point's figures (storage.sweep_doc: the median
of its runs'), its counts (requests, errors) their sums, as the sweep's JSON has them, its
duration and bytes/s their means. Pure.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from statistics import fmean
from typing import Any

from tui_bench.analysis.sweep_charts import CURVE_METRICS, METRICS, rate_points
from tui_bench.analysis.sweep_points import LATENCY_KEYS, run_values, summarize_point
from tui_bench.formats import (
    fmt_bytes,
    fmt_count,
    fmt_latency,
    fmt_metric,
    fmt_seconds,
    metric_label,
)
from tui_bench.parameter_text import shown
from tui_bench.records.plan import LABEL, RATE
from tui_bench.records.sweep_point import Knee, SweepPoint
from tui_bench.report.csv_table import csv_text
from tui_bench.report.md_tables import md_table, threshold_markdown
from tui_bench.runners.tools import tool_label
from tui_bench.storage.session import Session, SweepEntry

# The latency columns of the tables, beside those the sweep itself aggregates.
TABLE_LATENCY = ("p50_s", "p75_s", "p90_s", "p99_s", "p99_999_s")
LATENCY = tuple(dict.fromkeys([*TABLE_LATENCY, *LATENCY_KEYS]))
POINT_TABLE_LATENCY = ("p50_s", "p99_s", "max_s")

# The CSV's columns; the varied parameters come after `name`.
HEAD_COLUMNS = ("row_type", "point", "name")
COLUMNS = (
    "run",
    "status",
    "completed",
    "runs",
    "session",
    "requests",
    "duration_s",
    "rps",
    "rps_mean",
    "rps_sd",
    "rps_ci_low",
    "rps_ci_high",
    "rps_min",
    "rps_max",
    "bytes_per_s",
    *TABLE_LATENCY,
    "max_s",
    "errors",
    "error_rate",
    "server_cpu_pct",
    "client_cpu_pct",
    "validity",
    "knee",
)


def sweep_rows(session: Session) -> list[dict[str, Any]]:
    """Per point: a row per run (in repeat order), then the point's own row."""
    plan, knee = session.plan, session.knee
    names = plan.parameters()
    rows = []
    for point in plan.points:
        entries = session.point_entries(point.index)
        values = point.parameters()
        head = {"point": point.index, "name": point.name} | {n: values[n] for n in names}
        for entry in entries:
            rows.append({"row_type": "run", **head, **_run_row(entry)})
        runs = [e.session for e in entries]
        summary = summarize_point(point, runs, LATENCY)
        rows.append(
            {"row_type": "point", **head, **_point_row(summary, runs)}
            | {"knee": int(point.index == knee.point) if knee else None}
        )
    return [{c: row.get(c) for c in (*HEAD_COLUMNS, *names, *COLUMNS)} for row in rows]


def _run_row(entry: SweepEntry) -> dict[str, Any]:
    run = entry.session
    result = run.result
    values = run_values(run, LATENCY)
    resources = run.resources
    return {
        "run": entry.repeat + 1,
        "status": run.status,
        "session": run.id,
        "requests": result.requests.total if result else None,
        "duration_s": result.duration_s if result else None,
        "rps": values["rps"],
        "bytes_per_s": result.bytes_per_s if result else None,
        **{key: values[key] for key in (*TABLE_LATENCY, "max_s")},
        "errors": result.error_count if result else None,
        "error_rate": values["error_rate"],
        "server_cpu_pct": resources.get("server_cpu_mean_pct"),
        "client_cpu_pct": resources.get("client_cpu_mean_pct"),
        "validity": validity.verdict if (validity := run.validity) else None,
    }


def _point_row(summary: SweepPoint, runs: Sequence[Session]) -> dict[str, Any]:
    results = [
        r for r in (run.result for run in runs if run.status == "completed") if r is not None
    ]
    rps = summary.rps
    return {
        "completed": summary.n,
        "runs": summary.runs,
        "requests": summary.requests if results else None,
        "duration_s": _mean(r.duration_s for r in results),
        "rps": summary.rps_figure,
        "rps_mean": rps.mean,
        "rps_sd": rps.sd,
        "rps_ci_low": rps.ci_low,
        "rps_ci_high": rps.ci_high,
        "rps_min": rps.min,
        "rps_max": rps.max,
        "bytes_per_s": _mean(r.bytes_per_s for r in results),
        **{key: summary.latency_figure(key) for key in (*TABLE_LATENCY, "max_s")},
        "errors": summary.errors,
        "error_rate": summary.error_rate,
        "server_cpu_pct": summary.server_cpu_pct.mean,
        "client_cpu_pct": summary.client_cpu_pct.mean,
        "validity": summary.verdict,
    }


def _mean(values: Iterable[float | None]) -> float | None:
    present = [v for v in values if v is not None]
    return fmean(present) if present else None


def sweep_csv(session: Session) -> str:
    columns = (*HEAD_COLUMNS, *session.plan.parameters(), *COLUMNS)
    return csv_text(columns, ([row[c] for c in columns] for row in sweep_rows(session)))


# ---- markdown


def sweep_markdown(session: Session) -> str:
    rows = sweep_rows(session)
    names = session.plan.parameters()
    knee = session.knee
    lines = [f"# {session.name or session.id}", "", *_header(session), ""]
    lines += ["## Runs", "", *_run_table(rows, names), "", *_run_notes(rows), ""]
    lines += ["## Points", "", *_point_table(rows, knee is not None), ""]
    pivot = pivot_table(rows, names)
    if pivot:
        lines += ["## req/s side by side (Δ % against the first column)", "", *pivot, ""]
    if session.plan.varies_rate:
        lines += ["## Latency against the req/s achieved", "", *_curve_table(session), ""]
    if knee:
        lines += ["## Knee", "", _knee_text(knee), ""]
    lines += threshold_markdown(session.thresholds)
    for warning in session.warnings:
        lines += [f"> warning: {warning.message}", ""]
    return "\n".join(lines).rstrip("\n") + "\n"


def _header(session: Session) -> list[str]:
    plan = session.plan
    varied = [f"{d.name} = {', '.join(shown(d.name, v) for v in d.values)}" for d in plan.vary]
    if plan.labels:
        varied.insert(0, f"label = {', '.join(plan.labels)}")
    runs = session.runs
    planned = len(plan.order)
    tools = dict.fromkeys(
        tool_label(t.get("name"), t.get("version"))
        for t in [r.part("tool") for r in runs] or [session.part("tool")]
    )
    urls = plan.urls()
    host = session.part("host")
    machine = ", ".join(
        part
        for part in (
            host.get("cpu_model"),
            f"{host['cores']} cores" if host.get("cores") else None,
            f"kernel {host['kernel']}" if host.get("kernel") else None,
        )
        if part
    )
    status = session.status + (f" ({session.message})" if session.message else "")
    return [
        f"- sweep: {session.id}",
        f"- status: {status}",
        f"- varied: {'; '.join(varied) or 'nothing (repeats of one configuration)'}",
        f"- repeat: {plan.repeat} ({len(runs)} of {planned} runs ran)",
        f"- tool: {', '.join(tools) or '–'}",
        f"- url: {' '.join(urls) or '–'}",
        f"- host: {host.get('hostname') or '–'}" + (f" ({machine})" if machine else ""),
        f"- started: {session.started_at or '–'}",
        f"- argv: `{' '.join(session.argv)}`",
    ]


def _bold(cell: str) -> str:
    return cell if cell in ("", "–") else f"**{cell}**"


def _run_table(rows: Sequence[Mapping[str, Any]], names: Sequence[str]) -> list[str]:
    header = [
        *names,
        "run",
        "requests",
        "duration",
        "req/s",
        "bytes/s",
        *(metric_label(k) for k in TABLE_LATENCY),
        "errors",
        "status",
    ]
    cells = []
    for row in rows:
        point = row["row_type"] == "point"
        if point and (row["runs"] or 0) <= 1:
            # One run: its own row says it all; a point's row would only repeat it.
            continue
        line = [
            *(shown(n, row[n]) for n in names),
            "point" if point else str(row["run"]),
            fmt_count(row["requests"]),
            fmt_seconds(row["duration_s"]),
            fmt_count(row["rps"]),
            "–" if row["bytes_per_s"] is None else f"{fmt_bytes(row['bytes_per_s'])}/s",
            *(fmt_latency(row[k]) for k in TABLE_LATENCY),
            fmt_count(row["errors"]),
            _runs_text(row) if point else str(row["status"]),
        ]
        cells.append([_bold(c) for c in line] if point else line)
    # The parameters and the run # are text, so is the status; the rest are numbers.
    return md_table(
        header, cells, "l" * (len(names) + 1) + "r" * (len(header) - len(names) - 2) + "l"
    )


def _runs_text(row: Mapping[str, Any]) -> str:
    if not row["runs"]:
        return "not run"
    return f"{row['completed']} of {row['runs']} run" + ("s" if row["runs"] > 1 else "")


def _run_notes(rows: Sequence[Mapping[str, Any]]) -> list[str]:
    notes = []
    if any(r["row_type"] == "point" and (r["runs"] or 0) > 1 for r in rows):
        notes.append(
            "**point** rows: req/s and the latencies are the medians of the point's completed "
            "runs (one disturbed run does not move them; compare tests the same medians); "
            "requests and errors are their sums, duration and bytes/s their means."
        )
    if any(r["row_type"] == "run" and r["status"] != "completed" for r in rows):
        notes.append(
            "Runs that did not complete (interrupted or failed) are listed, but left out of "
            "the point rows and the points."
        )
    return "\n\n".join(notes).splitlines()


def _point_table(rows: Sequence[Mapping[str, Any]], knee: bool) -> list[str]:
    header = [
        "point",
        "ok/runs",
        "req/s",
        "mean",
        "± sd",
        "95 % CI of the mean",
        *(metric_label(k) for k in POINT_TABLE_LATENCY),
        "errors",
        "server CPU",
        "validity",
    ]
    cells = []
    for row in (r for r in rows if r["row_type"] == "point"):
        ci = (
            f"{fmt_count(row['rps_ci_low'])} – {fmt_count(row['rps_ci_high'])}"
            if row["rps_ci_low"] is not None
            else "–"
        )
        line = [
            row["name"] or "all",
            f"{row['completed']}/{row['runs']}",
            fmt_count(row["rps"]),
            fmt_count(row["rps_mean"]),
            fmt_count(row["rps_sd"]),
            ci,
            *(fmt_latency(row[k]) for k in POINT_TABLE_LATENCY),
            fmt_metric("error_rate", row["error_rate"]),
            "–" if row["server_cpu_pct"] is None else f"{row['server_cpu_pct']:.1f}%",
            _verdict_text(row["validity"]),
        ]
        cells.append([*line, "◀ knee" if row["knee"] else ""] if knee else line)
    align = "l" + "r" * (len(header) - 2) + "l"
    return (
        md_table([*header, "knee"], cells, align + "l") if knee else md_table(header, cells, align)
    )


def _curve_table(session: Session) -> list[str]:
    """The latency-throughput chart (`plot`'s latency-rps) as a table: a row per rate point
    by rate, its latencies from when each request was due."""
    keys = [METRICS[name] for name in CURVE_METRICS]
    cells = [
        [
            shown(RATE, values[RATE]),
            fmt_count(point.rps_figure),
            *(fmt_latency(metric.point(point)) for metric in keys),
            _verdict_text(point.verdict),
        ]
        for values, point in rate_points(session.plan, session.summary)
    ]
    header = ["rate", "achieved req/s", *(f"{m.title} from when due" for m in keys), "validity"]
    return md_table(header, cells, "r" * (len(header) - 1) + "l")


def pivot_table(rows: Sequence[Mapping[str, Any]], names: Sequence[str]) -> list[str]:
    """Points' req/s with the first varied parameter down and the labels (or the
    second parameter) across, each cell's Δ % against its row's first column; empty for a
    sweep of one parameter. An invalid point's cell says so."""
    if len(names) < 2:
        return []
    across = names[0] if names[0] == LABEL else names[1]
    down = next(n for n in names if n != across)
    points = [r for r in rows if r["row_type"] == "point"]
    columns = list(dict.fromkeys(r[across] for r in points))
    lines = list(dict.fromkeys(r[down] for r in points))
    cell = {(r[down], r[across]): r for r in points}
    table = []
    for value in lines:
        first = (cell.get((value, columns[0])) or {}).get("rps")
        cells = [shown(down, value)]
        for column in columns:
            row = cell.get((value, column)) or {}
            cells.append(_pivot_cell(row, first, column == columns[0]))
        table.append(cells)
    header = [f"{down} \\ {across}", *(shown(across, c) for c in columns)]
    return md_table(header, table, "l" + "r" * len(columns))


def _pivot_cell(row: Mapping[str, Any], first: float | None, is_first: bool) -> str:
    rps = row.get("rps")
    if rps is None:
        return "–"
    text = fmt_count(rps)
    if not is_first and first:
        text += f" ({(rps - first) / first * 100:+.1f} %)"
    return text + (" **INVALID**" if row.get("validity") == "invalid" else "")


def _verdict_text(verdict: str | None) -> str:
    """Loud when the figures are not to be trusted: a table is read for its big numbers."""
    return "**INVALID**" if verdict == "invalid" else verdict or "–"


def _knee_text(knee: Knee) -> str:
    if knee.point is None:
        return f"No valid point meets the SLO {knee.slo}."
    return (
        f"The point with the most req/s that meets the SLO {knee.slo}: "
        f"**{knee.name or 'all'}** ({fmt_count(knee.rps)} req/s)."
    )
