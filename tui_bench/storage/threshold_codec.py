"""Threshold verdicts as a session keeps them (`thresholds`): a run's, and a sweep's per
point with the point first."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tui_bench.records.threshold import ThresholdVerdict


def threshold_of(saved: Mapping[str, Any]) -> ThresholdVerdict:
    actual, limit, point = saved.get("actual"), saved.get("limit"), saved.get("point")
    return ThresholdVerdict(
        text=str(saved.get("text") or ""),
        metric=str(saved.get("metric") or ""),
        op=str(saved.get("op") or ""),
        limit=float(limit) if isinstance(limit, int | float) else float("nan"),
        actual=float(actual) if isinstance(actual, int | float) else None,
        passed=bool(saved.get("passed")),
        reason=str(saved["reason"]) if saved.get("reason") else None,
        point=point if isinstance(point, int) else None,
        name=saved.get("name") if isinstance(saved.get("name"), str) else None,
        approx=saved.get("approx") is True,
    )


def threshold_record(verdict: ThresholdVerdict) -> dict[str, Any]:
    judged = {
        "text": verdict.text,
        "metric": verdict.metric,
        "op": verdict.op,
        "limit": verdict.limit,
        "actual": verdict.actual,
        "passed": verdict.passed,
        "reason": verdict.reason,
    }
    if verdict.point is not None:
        return {"point": verdict.point, "name": verdict.name, **judged}
    return judged | {"approx": True} if verdict.approx else judged
