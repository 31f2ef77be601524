"""What `run` (and `demo`) print when a run ends: the `--json` payload and the summary,
each from the run's end event alone (its verdicts included), never from re-reading its
file."""

from __future__ import annotations

from typing import Any

from tui_bench.engine.events import RunFinished
from tui_bench.report.text import GENERATOR_KEYS, generator_lines, verdict_lines
from tui_bench.result import Result
from tui_bench.storage.segment_codec import segment_record


def run_payload(finished: RunFinished, tool: str) -> dict[str, Any]:
    """`run --json` of a run of `tool`: the result, how the run ended, its validity and
    verdicts. A run that measured nothing still has every key of the result, each unknown
    (null): a script reading `requests.total` must not meet a missing key."""
    payload: dict[str, Any] = (finished.result or Result(tool=tool)).to_dict()
    # "status" is the result's status-class counts: the run's own state has its key.
    payload.update(
        run_status=finished.status,
        message=finished.message,
        session_path=None if finished.unsaved else str(finished.session_path),
        validity=finished.validity.to_dict() if finished.validity else None,
        # What the run cost the server and the load generator; null where not sampled.
        resources=dict(finished.resources),
    )
    payload.update(finished.verdicts.end_fields())
    # The run's stretches under one load (one for a run never steered); none when nothing
    # was saved to read them from.
    saved = finished.session
    payload["segments"] = [segment_record(s) for s in saved.segments] if saved else []
    if finished.generators:
        payload["generators"] = [
            {k: getattr(g, k) for k in GENERATOR_KEYS} for g in finished.generators
        ]
    return payload


def judged_lines(finished: RunFinished) -> list[str]:
    """What the run's generators, validity and verdicts say, one line each."""
    lines = generator_lines(finished.generators)
    lines += finished.validity.lines() if finished.validity else []
    return lines + verdict_lines(finished.verdicts)
