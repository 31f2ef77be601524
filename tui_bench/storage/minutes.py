"""A session's minute histograms (`minutes`): the latency of every whole minute of the run,
from which the percentiles of any window of whole minutes are worked out again exactly as
the run's own are (histograms merge; the seconds' percentiles do not)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from tui_bench.errors import SessionError
from tui_bench.histogram import LatencyHistogram
from tui_bench.storage.histogram_codec import unpacked

MINUTE_S = 60


@dataclass(frozen=True)
class MinuteHistogram:
    # When the minute starts, in seconds into the run (a multiple of 60).
    start_s: int
    # From when each request was due in a fixed-rate run (the run's latency).
    histogram: LatencyHistogram
    # A fixed-rate run's from when each was sent; None in a closed loop.
    service: LatencyHistogram | None


def minutes_of(kept: Sequence[Any], origin: str) -> tuple[MinuteHistogram, ...]:
    try:
        return tuple(
            MinuteHistogram(
                int(record["t_s"]),
                unpacked(record["histogram"]),
                unpacked(record["service_histogram"]) if "service_histogram" in record else None,
            )
            for record in kept
        )
    except (KeyError, TypeError, ValueError):
        raise SessionError(f"session {origin} is damaged (bad 'minutes')") from None


def latency_between(
    minutes: Sequence[MinuteHistogram], start_s: float, end_s: float, *, service: bool = False
) -> LatencyHistogram | None:
    """The latency of the whole minutes that start in [start_s, end_s); None when the session
    keeps none there."""
    chosen = [m for m in minutes if start_s <= m.start_s < end_s]
    parts = [p for m in chosen if (p := m.service if service else m.histogram) is not None]
    if not parts or len(parts) < len(chosen):
        return None
    merged = LatencyHistogram()
    for part in parts:
        merged.merge(part)
    return merged
