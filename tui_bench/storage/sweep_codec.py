"""A sweep's points and knee as its session keeps them: written as the current version,
read from every version an earlier release wrote (a point aggregated before verdicts or
the SLO judgement were kept has none)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict
from typing import Any

from tui_bench.records.plan import Plan, PlannedPoint, Varied
from tui_bench.records.spread import Spread
from tui_bench.records.sweep_point import NOTHING, Knee, SweepPoint, SweepSummary
from tui_bench.records.verdict import Validity


def spread_of(data: Any) -> Spread:
    if not isinstance(data, Mapping):
        return NOTHING

    def number(key: str) -> float | None:
        value = data.get(key)
        return None if value is None else float(value)

    return Spread(
        int(data.get("n") or 0),
        *(number(k) for k in ("mean", "sd", "median", "min", "max", "ci_low", "ci_high", "cv")),
    )


def point_of(data: Mapping[str, Any]) -> SweepPoint:
    validity = data.get("validity")
    latency = data.get("latency") or {}
    meets = data.get("meets_slo")
    return SweepPoint(
        index=int(data["index"]),
        name=data.get("name"),
        label=data.get("label"),
        values=dict(data.get("values") or {}),
        runs=int(data.get("runs") or 0),
        n=int(data.get("n") or 0),
        failed=int(data.get("failed") or 0),
        interrupted=int(data.get("interrupted") or 0),
        rps=spread_of(data.get("rps")),
        latency={k: None if v is None else float(v) for k, v in latency.items()},
        latency_from=str(data.get("latency_from") or "histograms"),
        latency_runs=int(data.get("latency_runs") or 0),
        latency_spread={k: spread_of(v) for k, v in (data.get("latency_spread") or {}).items()},
        requests=int(data.get("requests") or 0),
        errors=data.get("errors"),
        error_rate=data.get("error_rate"),
        server_cpu_pct=spread_of(data.get("server_cpu_pct")),
        client_cpu_pct=spread_of(data.get("client_cpu_pct")),
        validity=_validity(validity),
        meets_slo=meets if isinstance(meets, bool) else None,
    )


def _validity(saved: Any) -> Validity | None:
    """A point's verdict as kept; None for one this release cannot read (a verdict it does
    not know): the point is shown without it, as one aggregated before verdicts were kept."""
    if not isinstance(saved, Mapping):
        return None
    try:
        return Validity.from_dict(saved)
    except (KeyError, TypeError, ValueError):
        return None


def point_record(point: SweepPoint) -> dict[str, Any]:
    record = {
        "index": point.index,
        "name": point.name,
        "label": point.label,
        "values": dict(point.values),
        "runs": point.runs,
        "n": point.n,
        "failed": point.failed,
        "interrupted": point.interrupted,
        "rps": asdict(point.rps),
        "latency": dict(point.latency),
        "latency_from": point.latency_from,
        "latency_runs": point.latency_runs,
        "latency_spread": {k: asdict(s) for k, s in point.latency_spread.items()},
        "requests": point.requests,
        "errors": point.errors,
        "error_rate": point.error_rate,
        "server_cpu_pct": asdict(point.server_cpu_pct),
        "client_cpu_pct": asdict(point.client_cpu_pct),
        "validity": point.validity.to_dict() if point.validity else None,
    }
    return record if point.meets_slo is None else record | {"meets_slo": point.meets_slo}


def knee_of(data: Any) -> Knee | None:
    if not isinstance(data, Mapping):
        return None
    rps = data.get("rps")
    return Knee(
        data.get("slo"),
        data.get("point"),
        data.get("name"),
        data.get("values"),
        None if rps is None else float(rps),
    )


def knee_record(knee: Knee) -> dict[str, Any]:
    return {**asdict(knee), "values": dict(knee.values) if knee.values else knee.values}


def summary_of(doc: Mapping[str, Any]) -> SweepSummary:
    """A sweep session's (or summary record's) points and knee."""
    points = [p for p in doc.get("points") or () if isinstance(p, Mapping)]
    return SweepSummary(tuple(map(point_of, points)), knee_of(doc.get("knee")))


def summary_record(summary: SweepSummary) -> dict[str, Any]:
    return {
        "points": [point_record(p) for p in summary.points],
        "knee": knee_record(summary.knee) if summary.knee else None,
    }


def plan_of(data: Any) -> Plan:
    """A sweep session's plan (its "sweep"), or a `SweepPlan.to_dict()`."""
    if not isinstance(data, Mapping):
        return Plan()
    points = tuple(
        PlannedPoint(
            int(p["index"]),
            p.get("name"),
            p.get("label"),
            dict(p.get("values") or {}),
            tuple(((p.get("request") or {}).get("spec") or {}).get("urls") or ()),
        )
        for p in data.get("points") or ()
    )
    search = data.get("search")
    return Plan(
        points=points,
        vary=tuple(Varied(str(d["name"]), tuple(d["values"])) for d in data.get("vary") or ()),
        labels=tuple(data.get("labels") or ()),
        repeat=int(data.get("repeat") or 1),
        order=tuple((int(point), int(repeat)) for point, repeat in data.get("order") or ()),
        slo=data.get("slo"),
        thresholds=tuple(data.get("thresholds") or ()),
        search=dict(search) if isinstance(search, Mapping) else None,
    )
