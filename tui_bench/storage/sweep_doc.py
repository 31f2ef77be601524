"""The point a sweep is listed by, how `REF@POINT` names a point, and a sweep narrowed to
one point. Pure."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tui_bench.errors import UsageError
from tui_bench.records.sweep_point import SweepPoint
from tui_bench.storage.session import Session


def best_point(session: Session) -> SweepPoint | None:
    """The point a sweep is listed by: its knee (the most req/s within the SLO), else the
    point with the most req/s that is not invalid; None while no run of it has completed."""
    measured = [p for p in session.points if p.rps_figure is not None and p.verdict != "invalid"]
    knee = session.knee.point if session.knee else None
    for point in measured:
        if point.index == knee:
            return point
    return max(measured, key=lambda p: p.rps_figure or 0.0, default=None)


# Naming and picking one point, as every command that takes `REF@POINT` reads it


def point_refs(session: Session) -> list[str]:
    """How `ID@POINT` names each point: its name, or its number from 1 when it has none."""
    return [name or str(i + 1) for i, name in enumerate(session.plan.names())]


def point_index(session: Session, point: str | None) -> int:
    """The plan index of the point `point` names (its name, or its number from 1); with no
    point, the only one. UsageError (one line) names the choices."""
    names = session.plan.names()
    choices = ", ".join(point_refs(session))
    if not names:
        raise UsageError(f"{session.id} is a sweep without points")
    if point is None:
        if len(names) == 1:
            return 0
        raise UsageError(
            f"{session.id} is a sweep of {len(names)} points: add @POINT, one of "
            f"{choices} (or its number, 1-{len(names)})"
        )
    if point in names:
        return names.index(point)
    if point.isdigit() and 1 <= int(point) <= len(names):
        return int(point) - 1
    raise UsageError(f"{session.id} has no point {point!r}: its points are {choices}")


def narrowed(doc: Mapping[str, Any], index: int) -> dict[str, Any]:
    """The sweep document as if it held point `index` alone: its plan entry, its runs, its
    summary, its threshold verdicts and its part of the baseline judgement; the knee only at
    the knee point. The point becomes point 0, so the document is a sweep session of its own
    (tuibench opens it again); `selected` says which point of which sweep it was."""
    plan = doc["sweep"]
    name = Session(doc).plan.names()[index]

    def alone(items: Any, key: str) -> list[dict[str, Any]]:
        return [{**item, key: 0} for item in items or () if item.get(key) == index]

    runs = sorted(
        (r for r in doc.get("runs") or [] if r.get("point") == index),
        key=lambda r: r.get("repeat") or 0,
    )
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
