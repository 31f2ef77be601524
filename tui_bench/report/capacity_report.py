"""What `capacity` prints when it ends: the `--json` payload and the summary, from the
search's sweep session alone (its knee is the capacity), and its exit status."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from tui_bench.analysis.sweep_points import held
from tui_bench.analysis.thresholds import Threshold, parse_slo
from tui_bench.engine.sweep import SweepFinished
from tui_bench.formats import fmt_count, fmt_seconds
from tui_bench.records.spread import Spread
from tui_bench.records.sweep_point import SweepPoint
from tui_bench.report.exit_codes import EXIT_CODES
from tui_bench.report.text import text_table

# The latencies said of each step and of the capacity (from when each request was due).
LATENCY_KEYS = ("p50_s", "p99_s", "p99_9_s")
# Not even the lowest rate held within the SLO (or the peak could not be measured).
EXIT_NOT_FOUND = 1


def _spread(stats: Spread | None) -> dict[str, Any] | None:
    """The median of a step's runs and their range."""
    if stats is None or stats.median is None:
        return None
    return {"median": stats.median, "min": stats.min, "max": stats.max, "n": stats.n}


def _validity(point: SweepPoint) -> dict[str, Any] | None:
    return point.validity.to_dict() if point.validity else None


def _step(point: SweepPoint, slo: Sequence[Threshold]) -> dict[str, Any]:
    return {
        "point": point.index,
        "rate": point.values.get("rate"),
        "runs": point.runs,
        "achieved_rps": point.rps_figure,
        **{key: point.latency_figure(key) for key in LATENCY_KEYS},
        "error_rate": point.error_rate,
        "validity": _validity(point),
        "held": held(point, slo) if point.n else None,
    }


def capacity_payload(finished: SweepFinished) -> dict[str, Any]:
    """`capacity --json`."""
    session = finished.session
    plan, points = session.plan, session.points
    knee = session.knee.point if session.knee else None
    found = points[knee] if knee is not None else None
    slo = parse_slo(plan.slo) if plan.slo else []
    steps = [_step(p, slo) for p in points[1:]]
    return {
        "kind": "capacity",
        "id": session.id,
        "slo": plan.slo,
        "found": found is not None,
        "capacity_rps": found.values["rate"] if found else None,
        "achieved_rps": _spread(found.rps) if found else None,
        "latency_s": {key: _spread(found.latency_spread.get(key)) for key in LATENCY_KEYS}
        if found
        else None,
        "peak_rps": points[0].rps_figure if points else None,
        "peak_validity": _validity(points[0]) if points else None,
        "lowest_rate": steps[0]["rate"] if steps else None,
        "resolution": (plan.search or {}).get("resolution"),
        "repeat": plan.repeat,
        "steps": steps,
        "run_status": finished.status,
        "message": finished.message,
        "session_path": str(finished.session_path),
    }


def _ranged(spread: Mapping[str, Any] | None, fmt: Callable[[Any], str]) -> str:
    """`5,770 (5,760–5,781 over 3 runs)`; the median alone for one run."""
    if spread is None:
        return "–"
    text = fmt(spread["median"])
    if (spread.get("n") or 0) > 1:
        text += f" ({fmt(spread['min'])}–{fmt(spread['max'])} over {spread['n']} runs)"
    return text


def capacity_lines(finished: SweepFinished) -> list[str]:
    """The capacity and the spread of its repeats, the peak, a row per step, the session."""
    payload = capacity_payload(finished)
    slo = payload["slo"]
    lines = [f"status    {finished.status}" + (f" ({m})" if (m := finished.message) else "")]
    if payload["found"]:
        latency = payload["latency_s"]
        lines.append(
            f"capacity  {fmt_count(payload['capacity_rps'])} req/s held within {slo}: achieved "
            f"{_ranged(payload['achieved_rps'], fmt_count)} req/s, p99 "
            f"{_ranged(latency['p99_s'], fmt_seconds)}"
        )
    else:
        lowest = payload["lowest_rate"]
        why = (
            f"the lowest rate, {fmt_count(lowest)} req/s, did not hold within {slo}"
            if lowest is not None
            else "the closed-loop peak could not be measured"
        )
        lines.append(f"capacity  none: {why}")
    lines.append(f"peak      {fmt_count(payload['peak_rps'])} req/s (closed loop)")
    table: list[tuple[str, ...]] = [
        ("step", "rate", "req/s", "p50", "p99", "p99.9", "verdict", "held")
    ]
    for number, step in enumerate(payload["steps"], 1):
        table.append(
            (
                str(number),
                fmt_count(step["rate"]),
                fmt_count(step["achieved_rps"]),
                *(fmt_seconds(step[key]) for key in LATENCY_KEYS),
                (step["validity"] or {}).get("verdict") or "–",
                {True: "yes", False: "no", None: "–"}[step["held"]],
            )
        )
    lines += text_table(table, numbers=True) if payload["steps"] else []
    for point in finished.session.points:
        if point.validity and point.validity.is_invalid:
            for reason in point.validity.reasons:
                lines.append(f"point {point.name}: {reason.message} ({reason.code})")
    lines.append(f"session   {finished.session_path}")
    return lines


def capacity_exit_code(finished: SweepFinished) -> int:
    """0 when a capacity was found, 1 when not even the lowest rate held, 130 stopped."""
    if finished.status == "interrupted":
        return EXIT_CODES["interrupted"]
    knee = finished.session.knee
    return 0 if knee is not None and knee.point is not None else EXIT_NOT_FOUND
