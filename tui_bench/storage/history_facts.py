"""What a benchmark's history reads from one saved session: its set-up and its figures,
per sweep point for a sweep. Small and JSON-ready, so that the store's index can keep it
(a session with a long series costs no more here than a short one). Pure.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tui_bench.records.sweep_point import SweepPoint
    from tui_bench.storage.session import Session

# The point of a single run: it has one figure per metric, and no spread.
RUN_POINT = ""


def history_facts(session: Session) -> dict[str, Any]:
    """`{"setup": {...}, "points": [{"name", "rps", "rps_min", "rps_max", "p99_s",
    "p99_s_min", "p99_s_max", "verdict"}]}`; a sweep's points are its own, by name."""
    doc = session.doc
    tool = doc.get("tool") or {}
    setup: dict[str, Any] = {
        "tool": tool.get("name") or doc["spec"].get("tool"),
        "version": tool.get("version"),
        **{key: value for key, value in doc["spec"].items() if key != "tool"},
    }
    if not session.is_sweep:
        return {"setup": setup, "points": [_run_point(session)]}
    setup |= {"vary": session.plan.parameters(), "repeat": session.plan.repeat}
    return {"setup": setup, "points": [_sweep_point(p) for p in session.points]}


def _run_point(session: Session) -> dict[str, Any]:
    result = session.result
    latency = result.latency if result else None
    validity = session.validity
    return {
        "name": RUN_POINT,
        "rps": result.rps if result else None,
        "rps_min": None,
        "rps_max": None,
        "p99_s": latency.percentiles.get("p99_s") if latency else None,
        "p99_s_min": None,
        "p99_s_max": None,
        "verdict": validity.verdict if validity else None,
    }


def _sweep_point(point: SweepPoint) -> dict[str, Any]:
    spread = point.latency_spread.get("p99_s")
    return {
        "name": point.name or RUN_POINT,
        "rps": point.rps_figure,
        "rps_min": point.rps.min,
        "rps_max": point.rps.max,
        "p99_s": point.latency_figure("p99_s"),
        "p99_s_min": spread.min if spread else None,
        "p99_s_max": spread.max if spread else None,
        "verdict": point.verdict,
    }
