"""A steered run's segments in a line, as the result box, the printed summary and replay
word them: each load in turn (a long plan summed up), those not held, the longest gap."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

from tui_bench.formats import fmt_count, fmt_latency
from tui_bench.records.segment import Segment, gap_before

# Listed one by one up to this many; a ramp of many steps is summed up.
LISTED = 6


def _load(segment: Segment, before: Segment | None) -> str:
    if segment.paused:
        return f"paused {segment.end_s - segment.start_s:.1f} s"
    shown = "closed loop" if segment.target_rps is None else fmt_count(segment.target_rps)
    if before is None or before.connections != segment.connections:
        shown += f" c{segment.connections}"
    if segment.validity == "invalid" and segment.target_rps:
        shown += f" (not held: {fmt_count(segment.achieved_rps)})"
    return shown


def segments_text(segments: Sequence[Segment]) -> str | None:
    """None for a run of one segment (never steered)."""
    if len(segments) < 2:
        return None
    gaps = [g for a, b in pairwise(segments) if (g := gap_before(a, b)) is not None]
    gap = f", gaps up to {fmt_latency(max(gaps))}" if gaps else ""
    unit = " req/s" if any(s.target_rps for s in segments) else ""
    if len(segments) <= LISTED:
        loads = " → ".join(_load(s, b) for b, s in zip([None, *segments], segments, strict=False))
        return f"{loads}{unit}{gap}"
    missed = sum(1 for s in segments if s.validity == "invalid")
    held = f", {missed} not held" if missed else ""
    first, last = _load(segments[0], None), _load(segments[-1], segments[-2])
    return f"{len(segments)}: {first} … {last}{unit}{held}{gap}"
