"""What a sweep document varied: the names of its parameters, each point's values, and how
a value is written. Shared by the sweep's tables and its charts. Pure."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tui_bench.values import format_duration

LABEL = "label"
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


def shown(name: str, value: Any) -> str:
    """A parameter's value as the sweep names its points: `1.5s`, not 1.5."""
    if value is None:
        return "–"
    return format_duration(value) if name in _SECONDS else str(value)


def point_rps(summary: Mapping[str, Any]) -> float | None:
    """A point's req/s, the one every view shows: the mean of its completed runs' (the
    sweep's aggregates give their spread, median and CI beside it)."""
    value = (summary.get("rps") or {}).get("mean")
    return None if value is None else float(value)


def point_latency(summary: Mapping[str, Any], key: str) -> float | None:
    """A point's latency percentile (`p99_s`), the one every view shows: of its runs'
    merged histograms, or for a tool without per-request times its worst run's."""
    value = (summary.get("latency") or {}).get(key)
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
