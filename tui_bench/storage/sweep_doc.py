"""What a sweep document varied: the names of its parameters, each point's values, where
its points run, and how a value is written. Shared by the sweep's tables and its charts. Pure."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tui_bench.errors import UsageError
from tui_bench.typed_values import format_duration

LABEL = "label"
RATE = "rate"
# The parameters whose values are seconds; the rest are written as they are.
_SECONDS = frozenset({"d", "warm-up"})


def parameters(doc: Mapping[str, Any]) -> list[str]:
    """The names of what a sweep varied: `label` first when it has labelled commands."""
    plan = doc["sweep"]
    names = [dim["name"] for dim in plan.get("vary") or []]
    return [LABEL, *names] if plan.get("labels") else names


def point_parameters(point: Mapping[str, Any]) -> dict[str, Any]:
    """A plan point's value of each parameter, its label under `label`."""
    return {LABEL: point.get("label"), **point["values"]}


def plan_target(plan: Mapping[str, Any]) -> str:
    """The URL every point of `plan` runs on (`SweepPlan.to_dict()`, or a sweep session's
    "sweep"), or how many URLs when the points differ."""
    urls = [tuple(p["request"]["spec"]["urls"]) for p in plan["points"]]
    distinct = list(dict.fromkeys(url for point in urls for url in point))
    return " ".join(urls[0]) if len(set(urls)) == 1 else f"{len(distinct)} URLs"


def shown(name: str, value: Any) -> str:
    """A parameter's value as the sweep names its points: `1.5s`, not 1.5."""
    if value is None:
        # No rate is a closed loop (a capacity search's peak, `rate=closed`).
        return "closed" if name == RATE else "–"
    if name in _SECONDS:
        return format_duration(value)
    # A rate ramps in fractions (2500.0): written without a needless `.0`.
    whole = isinstance(value, float) and value.is_integer()
    return str(int(value)) if whole else str(value)


# A point's figures, the ones every view shows (tables, exports, charts, the knee, history,
# the catalogue) and the centre compare tests: the median of its completed runs' own values.
# The run is the unit, as in compare's rank test; one disturbed run (a noisy neighbour, a GC
# storm) moves a mean or a pooled percentile by its whole excess but leaves the median where
# the other runs put it (benchstat reports medians for the same reason). The sweep keeps
# beside them the spread: sd, range, the CI of the mean, and the merged histograms'
# percentiles, which weigh every request alike and so follow the busiest run.


def point_rps(summary: Mapping[str, Any]) -> float | None:
    """A point's req/s: the median of its completed runs' (`rps.median` of its aggregate,
    which every sweep file holds)."""
    value = (summary.get("rps") or {}).get("median")
    return None if value is None else float(value)


def point_latency(summary: Mapping[str, Any], key: str) -> float | None:
    """A point's latency `key` (`p99_s`, `max_s`, ...): the median of its completed runs'
    own, from each run's histogram, or from its result for a tool without per-request
    times (`latency_spread[key].median` of its aggregate)."""
    value = ((summary.get("latency_spread") or {}).get(key) or {}).get("median")
    return None if value is None else float(value)


def best_point(doc: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """The point a sweep is listed by: its knee (the most req/s within the SLO), else the
    point with the most req/s that is not invalid; None while no run of it has completed."""
    measured: list[Mapping[str, Any]] = [
        p
        for p in doc.get("points") or []
        if point_rps(p) is not None and (p.get("validity") or {}).get("verdict") != "invalid"
    ]
    knee = (doc.get("knee") or {}).get("point")
    for point in measured:
        if point["index"] == knee:
            return point
    return max(measured, key=lambda p: point_rps(p) or 0.0, default=None)


# Naming and picking one point, as every command that takes `REF@POINT` reads it


def point_names(doc: Mapping[str, Any]) -> list[str]:
    """Each plan point's name as the sweep prints it (empty for the one point of a plain
    `--repeat N`), in the plan's order."""
    return [str(p.get("name") or "") for p in doc.get("sweep", {}).get("points", [])]


def point_refs(doc: Mapping[str, Any]) -> list[str]:
    """How `ID@POINT` names each point: its name, or its number from 1 when it has none."""
    return [name or str(i + 1) for i, name in enumerate(point_names(doc))]


def point_index(doc: Mapping[str, Any], point: str | None) -> int:
    """The plan index of the point `point` names (its name, or its number from 1); with no
    point, the only one. UsageError (one line) names the choices."""
    session_id = doc.get("id")
    names = point_names(doc)
    choices = ", ".join(point_refs(doc))
    if not names:
        raise UsageError(f"{session_id} is a sweep without points")
    if point is None:
        if len(names) == 1:
            return 0
        raise UsageError(
            f"{session_id} is a sweep of {len(names)} points: add @POINT, one of "
            f"{choices} (or its number, 1-{len(names)})"
        )
    if point in names:
        return names.index(point)
    if point.isdigit() and 1 <= int(point) <= len(names):
        return int(point) - 1
    raise UsageError(f"{session_id} has no point {point!r}: its points are {choices}")


def point_runs(doc: Mapping[str, Any], index: int) -> list[Mapping[str, Any]]:
    """The run entries (`point`, `repeat`, `session`) of point `index`, in repeat order."""
    entries = [r for r in doc.get("runs") or [] if r.get("point") == index]
    return sorted(entries, key=lambda r: r.get("repeat") or 0)


def narrowed(doc: Mapping[str, Any], index: int) -> dict[str, Any]:
    """The sweep document as if it held point `index` alone: its plan entry, its runs, its
    summary, its threshold verdicts and its part of the baseline judgement; the knee only at
    the knee point. The point becomes point 0, so the document is a sweep session of its own
    (tuibench opens it again); `selected` says which point of which sweep it was."""
    plan = doc["sweep"]
    name = point_names(doc)[index]

    def alone(items: Any, key: str) -> list[dict[str, Any]]:
        return [{**item, key: 0} for item in items or () if item.get(key) == index]

    runs = point_runs(doc, index)
    out: dict[str, Any] = {
        **doc,
        "sweep": {
            **plan,
            "points": alone(plan["points"], "index"),
            "order": [[0, repeat] for point, repeat in plan.get("order") or () if point == index],
        },
        "runs": [{**entry, "slot": slot, "point": 0} for slot, entry in enumerate(runs)],
        "points": alone(doc.get("points"), "index"),
        "selected": {"sweep": doc.get("id"), "point": index, "name": name},
    }
    if "thresholds" in doc:
        out["thresholds"] = alone(doc["thresholds"], "point")
    knee = doc.get("knee") or {}
    if knee.get("point") == index:
        out["knee"] = {**knee, "point": 0}
    else:
        out.pop("knee", None)
    baseline = doc.get("baseline")
    if isinstance(baseline, Mapping) and "points" in baseline:
        # The judgement names points by name (None for an unnamed one).
        at = name or None
        found = [r for r in baseline.get("regressions") or () if r.get("point") == at]
        out["baseline"] = {
            **baseline,
            "points": [p for p in baseline["points"] or () if p.get("point") == at],
            "regressions": found,
            "failed": bool(baseline.get("failed")) and bool(found),
        }
    return out
