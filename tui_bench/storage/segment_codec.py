"""A run's segments as a session and `--json` keep them (`segments`): `{start_s, end_s,
target_rps, connections, cause, achieved_rps, validity}` each, in order."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict
from typing import Any

from tui_bench.records.segment import CAUSES, Segment


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def segment_of(saved: Mapping[str, Any]) -> Segment:
    """ValueError when `saved` is not a segment."""
    start, end = _number(saved.get("start_s")), _number(saved.get("end_s"))
    connections, cause = saved.get("connections"), saved.get("cause")
    if start is None or end is None or not isinstance(connections, int) or cause not in CAUSES:
        raise ValueError(f"not a segment: {dict(saved)!r}")
    validity = saved.get("validity")
    return Segment(
        start_s=start,
        end_s=end,
        target_rps=_number(saved.get("target_rps")),
        connections=connections,
        cause=str(cause),
        achieved_rps=_number(saved.get("achieved_rps")),
        validity=validity if isinstance(validity, str) else None,
        p50_s=_number(saved.get("p50_s")),
        p99_s=_number(saved.get("p99_s")),
    )


def segment_record(segment: Segment) -> dict[str, Any]:
    return asdict(segment)


def begun_record(
    start_s: float, target_rps: float | None, connections: int, cause: str
) -> dict[str, Any]:
    """A segment as it begins, journaled: what a run that dies before its end keeps."""
    return {
        "start_s": round(start_s, 3),
        "target_rps": target_rps,
        "connections": connections,
        "cause": cause,
    }


def segments_begun(begun: list[dict[str, Any]], end_s: float | None) -> list[dict[str, Any]]:
    """The journaled beginnings as segments, each ending where the next begins (the last
    at `end_s`): what was achieved and judged is unknown."""
    ends = [b.get("start_s") for b in begun[1:]] + [end_s]
    return [
        {
            **b,
            "end_s": end if end is not None else b.get("start_s"),
            "achieved_rps": None,
            "validity": None,
        }
        for b, end in zip(begun, ends, strict=True)
    ]
