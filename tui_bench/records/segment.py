"""A stretch of a run under one load: what the run was asked for and what it got there.
A run that was never steered is one segment, from its start to its end."""

from __future__ import annotations

from dataclasses import dataclass

# Why a segment began: the run's start, a key, a pause or resume, a stage.
START, KEY, PAUSE_CAUSE, STAGE = "start", "key", "pause", "stage"
CAUSES = (START, KEY, PAUSE_CAUSE, STAGE)


@dataclass(frozen=True)
class Segment:
    # Seconds into the run.
    start_s: float
    end_s: float
    # The fixed rate asked for; None in a closed loop.
    target_rps: float | None
    connections: int
    cause: str
    # Requests completed per second from the segment's first request to its end (its tool
    # starting and connecting left out); None when unknown.
    achieved_rps: float | None
    # The segment's verdict (valid, suspect, invalid); None when not judged.
    validity: str | None
    # The latency of the requests completed in the seconds whose middle falls in the
    # segment (from when each was due in a fixed-rate run); None when none does.
    p50_s: float | None = None
    p99_s: float | None = None

    @property
    def paused(self) -> bool:
        """A pause is kept as a segment with no connection."""
        return self.connections == 0


def gap_before(before: Segment | None, segment: Segment) -> float | None:
    """The time without load between `before` and `segment` as the session keeps them (to
    the ms); None for the first, and after a pause (nothing ran to leave one)."""
    if before is None or before.paused:
        return None
    return round(max(0.0, segment.start_s - before.end_s), 3)
