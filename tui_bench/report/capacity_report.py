"""What `capacity` prints when it ends: the `--json` payload and the summary, from the
search's sweep session alone (its knee is the capacity), and its exit status."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from tui_bench.analysis.capacity import held
from tui_bench.analysis.sweep_points import verdict_of
from tui_bench.analysis.thresholds import parse_slo
from tui_bench.engine.sweep import SweepFinished
from tui_bench.formats import fmt_count, fmt_seconds
from tui_bench.report.exit_codes import EXIT_CODES
from tui_bench.report.text import text_table
from tui_bench.storage.sweep_doc import point_latency, point_rps

# The latencies said of each step and of the capacity (from when each request was due).
LATENCY_KEYS = ("p50_s", "p99_s", "p99_9_s")
# Not even the lowest rate held within the SLO (or the peak could not be measured).
EXIT_NOT_FOUND = 1


def _spread(stats: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """The median of a step's runs and their range."""
    if not stats or stats.get("median") is None:
        return None
    return {key: stats.get(key) for key in ("median", "min", "max", "n")}


def _step(point: Mapping[str, Any], slo_text: str | None) -> dict[str, Any]:
    slo = parse_slo(slo_text) if slo_text else []
    return {
        "point": point["index"],
        "rate": point["values"].get("rate"),
        "runs": point["runs"],
        "achieved_rps": point_rps(point),
        **{key: point_latency(point, key) for key in LATENCY_KEYS},
        "error_rate": point.get("error_rate"),
        "validity": point.get("validity"),
        "held": held(point, slo) if point["n"] else None,
    }


def capacity_payload(finished: SweepFinished) -> dict[str, Any]:
    """`capacity --json`."""
    doc = finished.document
    plan, points = doc["sweep"], doc.get("points") or []
    knee = doc.get("knee") or {}
    found = points[knee["point"]] if knee.get("point") is not None else None
    steps = [_step(p, plan.get("slo")) for p in points[1:]]
    spread = (found or {}).get("latency_spread") or {}
    return {
        "kind": "capacity",
        "id": doc["id"],
        "slo": plan.get("slo"),
        "found": found is not None,
        "capacity_rps": found["values"]["rate"] if found else None,
        "achieved_rps": _spread(found["rps"]) if found else None,
        "latency_s": {key: _spread(spread.get(key)) for key in LATENCY_KEYS} if found else None,
        "peak_rps": point_rps(points[0]) if points else None,
        "peak_validity": points[0].get("validity") if points else None,
        "lowest_rate": steps[0]["rate"] if steps else None,
        "resolution": (plan.get("search") or {}).get("resolution"),
        "repeat": plan.get("repeat"),
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
    for point in finished.document.get("points") or []:
        if verdict_of(point) == "invalid":
            for reason in point["validity"].get("reasons") or ():
                lines.append(f"point {point['name']}: {reason['message']} ({reason['code']})")
    lines.append(f"session   {finished.session_path}")
    return lines


def capacity_exit_code(finished: SweepFinished) -> int:
    """0 when a capacity was found, 1 when not even the lowest rate held, 130 stopped."""
    if finished.status == "interrupted":
        return EXIT_CODES["interrupted"]
    return 0 if (finished.document.get("knee") or {}).get("point") is not None else EXIT_NOT_FOUND
