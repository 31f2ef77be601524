"""What `sweep` prints when it ends: the `--json` payload (the points, a line per run, the
knee, the verdicts) and the summary table, from the sweep's end event alone."""

from __future__ import annotations

from typing import Any

from tui_bench.analysis.sweep_points import run_values
from tui_bench.engine.sweep import SweepFinished
from tui_bench.formats import fmt_count, fmt_latency, fmt_metric
from tui_bench.report.text import text_table, verdict_lines
from tui_bench.storage.sweep_codec import knee_record, point_record


def sweep_payload(finished: SweepFinished) -> dict[str, Any]:
    """`sweep --json`."""
    session = finished.session
    names = [p.name for p in session.plan.points]
    runs = []
    for entry in session.entries:
        run = entry.session
        values = run_values(run)
        runs.append(
            {
                "slot": entry.slot,
                "point": entry.point,
                "name": names[entry.point],
                "repeat": entry.repeat,
                "id": run.id,
                "status": run.status,
                "message": run.message,
                "rps": values["rps"],
                "p50_s": values["p50_s"],
                "p99_s": values["p99_s"],
                "error_rate": values["error_rate"],
                "validity": validity.to_dict() if (validity := run.validity) else None,
            }
        )
    payload: dict[str, Any] = {
        "kind": "sweep",
        "id": session.id,
        "points": [point_record(p) for p in session.points],
        "runs": runs,
        "knee": knee_record(session.knee) if session.knee else None,
        "thresholds": [],
        "run_status": finished.status,
        "message": finished.message,
        "session_path": str(finished.session_path),
    }
    return payload | finished.verdicts.end_fields()


def sweep_summary_lines(finished: SweepFinished) -> list[str]:
    """The status, a row per point, the knee, each point's validity reasons, the verdicts
    and where the session is."""
    session = finished.session
    table = [("point", "ok/runs", "req/s", "± sd", "p50", "p99", "errors")]
    for point in session.points:
        table.append(
            (
                point.name or "all",
                f"{point.n}/{point.runs}",
                fmt_count(point.rps_figure),
                fmt_count(point.rps.sd),
                fmt_latency(point.latency_figure("p50_s")),
                fmt_latency(point.latency_figure("p99_s")),
                fmt_metric("error_rate", point.error_rate),
            )
        )
    status = f"status    {finished.status}"
    lines = [status + (f" ({finished.message})" if finished.message else "")]
    lines += text_table(table, numbers=True)
    knee = session.knee
    if knee is not None:
        found = (
            f"{knee.name} ({fmt_count(knee.rps)} req/s)"
            if knee.point is not None
            else "no valid point meets it"
        )
        lines.append(f"knee      {found} for {knee.slo}")
    for point in session.points:
        for reason in point.validity.reasons if point.validity else ():
            lines.append(f"point {point.name or 'all'}: {reason.message} ({reason.code})")
    lines += verdict_lines(finished.verdicts)
    lines.append(f"session   {finished.session_path}")
    return lines
