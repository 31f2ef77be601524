"""The end of a run whose process died before writing one (kill -9, a crash, a lost SSH
session): rebuilt from what its journal holds, so the recovered session says when it stopped
and what it measured up to then, marked interrupted."""

from __future__ import annotations

import contextlib
from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any

from tui_bench.result import STATUS_CLASSES, Distribution, Requests, Result
from tui_bench.spec import RunSpec
from tui_bench.storage.columns import Columns
from tui_bench.storage.series_columns import window_end
from tui_bench.validity import judge_run

RECOVERED_MESSAGE = (
    "tuibench stopped before the run ended; what its journal held up to then is kept"
)


def recovered_end(
    doc: Mapping[str, Any],
    series: Columns,
    last_sample_s: float | None,
    warnings: Sequence[Mapping[str, Any]],
    raw_times: Mapping[str, Sequence[float]] | None,
) -> dict[str, Any]:
    """The end record a run with header `doc` would have written: its end time is its last
    record's, its result the sum of its closed seconds. The tool's exit status is unknown."""
    last = [float(last_sample_s)] if last_sample_s is not None else []
    if series.count:
        last.append(window_end({"t_s": series.last("t_s"), "window_s": series.last("window_s")}))
    last += [times[-1] for times in (raw_times or {}).values() if times]
    end: dict[str, Any] = {"status": "interrupted", "message": RECOVERED_MESSAGE}
    try:
        started = datetime.fromisoformat(str(doc["started_at"]))
    except (KeyError, ValueError):
        return end
    elapsed = max(last, default=0.0)
    end["ended_at"] = (started + timedelta(seconds=elapsed)).isoformat()
    if doc.get("kind", "run") == "run":
        result = result_of_seconds(str(doc.get("spec", {}).get("tool") or ""), series)
        end["result"] = None if result is None else result.to_dict()
        with contextlib.suppress(KeyError, TypeError, ValueError):
            spec = RunSpec.from_dict(dict(doc["spec"]))
            verdict = judge_run(spec, "interrupted", RECOVERED_MESSAGE, result, warnings)
            end["validity"] = verdict.to_dict()
    return end


def result_of_seconds(tool: str, series: Columns) -> Result | None:
    """A result from a run's closed seconds alone: counts and rates add up; the slowest
    request is the slowest second's. Percentiles of seconds do not merge: left unknown."""
    requests = series.column("requests")
    counted = [i for i, n in enumerate(requests) if n is not None]
    if not counted:
        return None
    total = sum(int(requests[i]) for i in counted)
    duration = sum(float(w or 1.0) for w in series.column("window_s"))
    every_errors = series.column("errors")
    errors = [every_errors[i] for i in counted]
    failed = sum(int(e) for e in errors) if None not in errors else None
    maxima = [float(m) for m in series.column("max_s") if m is not None]
    classes = {c: series.column(c) for c in STATUS_CLASSES}
    known = any(classes[c][i] is not None for c in STATUS_CLASSES for i in counted)
    status = {c: sum(int(classes[c][i] or 0) for i in counted) for c in STATUS_CLASSES}
    return Result(
        tool=tool,
        duration_s=duration,
        rps=total / duration if duration > 0 else None,
        requests=Requests(
            total=total,
            done=total,
            succeeded=None if failed is None else total - failed,
            failed=failed,
        ),
        status=status if known else {},
        latency=Distribution(max_s=max(maxima)) if maxima else None,
    )
