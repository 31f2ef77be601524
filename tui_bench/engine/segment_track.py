"""A steered run's segments as they begin and end, and at the run's end each one's record
and verdict: achieved from the seconds it spans, judged on its own rate."""

from __future__ import annotations

import bisect
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tui_bench.engine.events import SegmentStarted
from tui_bench.engine.log_ingest import sending_s
from tui_bench.engine.series import rate_figures
from tui_bench.engine.steering import Load
from tui_bench.histogram import LatencyHistogram
from tui_bench.records.segment import START, Segment
from tui_bench.records.warning import Warning
from tui_bench.spec import RunSpec
from tui_bench.validity import MIN_HELD_RATE

SEGMENT_NOT_HELD = "segment-rate-not-held"
# A segment shorter than this is not judged on its rate: its tool's start-up (connecting,
# a few ms) is too much of it. A ramp's steps last a second.
MIN_JUDGED_S = 0.5


@dataclass(frozen=True)
class _Begun:
    start_s: float
    load: Load
    cause: str


class SegmentTrack:
    def __init__(self, load: Load) -> None:
        self._begun = [_Begun(0.0, load, START)]
        self._starts = [0.0]
        # When each segment but the one going ended (its tool stopped).
        self._ended: list[float] = []
        # The latency of the seconds whose middle falls in a segment: the histogram of the
        # latest one seconds came for; of those before it (no second comes for them any
        # more, seconds close in order), only their percentiles, so that a ramp of a day
        # keeps two numbers a step, not a histogram.
        self._latency: tuple[int, LatencyHistogram] | None = None
        self._percentiles_of: dict[int, dict[str, float | None]] = {}

    @property
    def load(self) -> Load:
        return self._begun[-1].load

    @property
    def count(self) -> int:
        return len(self._begun)

    @property
    def steered(self) -> bool:
        return len(self._begun) > 1

    def begin(self, ended_s: float, start_s: float, load: Load, cause: str) -> SegmentStarted:
        """The segment going ended at `ended_s`; the next, under `load`, starts at
        `start_s`: as the view is told of it."""
        gap = None if self.load.paused else max(0.0, start_s - ended_s)
        self._ended.append(ended_s)
        self._begun.append(_Begun(start_s, load, cause))
        self._starts.append(start_s)
        return segment_started(len(self._begun) - 1, start_s, load, cause, gap)

    def add_second(self, t_s: int, histogram: LatencyHistogram) -> None:
        """A closed second's latencies, to the segment going at its middle."""
        index = bisect.bisect_right(self._starts, t_s + 0.5) - 1
        if self._latency is not None and self._latency[0] == index:
            self._latency[1].merge(histogram)
            return
        self._settle()
        self._latency = (index, histogram.copy())

    def _settle(self) -> None:
        """The segment seconds came for until now, down to its percentiles."""
        if self._latency is None:
            return
        index, kept = self._latency
        if kept.count and not self._begun[index].load.paused:
            p50, p99 = kept.percentiles_s((50, 99))
            self._percentiles_of[index] = {"p50_s": _rounded(p50), "p99_s": _rounded(p99)}
        self._latency = None

    def segments(
        self,
        spec: RunSpec,
        rows: Sequence[Mapping[str, Any]],
        end_s: float,
        verdict: str | None,
        completed: Sequence[int],
        first_sent: Sequence[float | None],
    ) -> tuple[tuple[Segment, ...], list[Warning]]:
        """Each segment with what it achieved (`completed`: requests each segment's tool
        completed; `first_sent`: when it sent its first) and its verdict (`verdict`, the
        run's, where its own rate does not make it worse), and a warning for the rates not
        held."""
        self._settle()
        ends = [*self._ended, end_s]
        times = [int(r["t_s"]) for r in rows]
        found: list[Segment] = []
        missed: list[str] = []
        for index, (begun, seg_end) in enumerate(zip(self._begun, ends, strict=True)):
            load, span = begun.load, (begun.start_s, max(begun.start_s, seg_end))
            length = span[1] - span[0]
            # Known where its tool's log was read (a run cut short may not have read all).
            known = length > 0 and index < len(completed)
            first = first_sent[index] if index < len(first_sent) else None
            achieved = completed[index] / sending_s(*span, first) if known else None
            own = verdict
            if load.paused:
                own = None
            elif load.rate is not None and length >= MIN_JUDGED_S:
                held = _held(spec, load, rows, times, span, achieved)
                if not held:
                    own = "invalid"
                    missed.append(_not_held(index, span, load.rate, achieved))
            found.append(
                Segment(
                    start_s=round(span[0], 3),
                    end_s=round(span[1], 3),
                    target_rps=load.target_rps,
                    connections=load.running_connections,
                    cause=begun.cause,
                    achieved_rps=None if achieved is None else round(achieved, 2),
                    validity=own,
                    **self._percentiles_of.get(index, {}),
                )
            )
        return tuple(found), [_summed(missed)] if missed else []


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 7)


def segment_started(
    index: int, start_s: float, load: Load, cause: str, gap_s: float | None = None
) -> SegmentStarted:
    return SegmentStarted(
        index=index,
        start_s=start_s,
        target_rps=load.rate,
        connections=load.connections,
        cause=cause,
        paused=load.paused,
        gap_s=gap_s,
    )


def _whole_seconds(times: list[int], start: float, end: float) -> range:
    """The rows of the seconds wholly within [start, end): the partial ones at its ends are
    partly the neighbours' (their backlog the next schedule's)."""
    return range(bisect.bisect_left(times, math.ceil(start)), bisect.bisect_right(times, end - 1))


def _held(
    spec: RunSpec,
    load: Load,
    rows: Sequence[Mapping[str, Any]],
    times: list[int],
    span: tuple[float, float],
    achieved: float | None,
) -> bool:
    assert load.rate is not None
    if achieved is not None and achieved < MIN_HELD_RATE * load.rate:
        return False
    inside = [rows[i] for i in _whole_seconds(times, *span)]
    figures = rate_figures(load.spec(spec), inside)
    return figures is None or figures.backlog_from_s is None


def _not_held(index: int, span: tuple[float, float], target: float, achieved: float | None) -> str:
    said = "an unknown rate" if achieved is None else f"{achieved:,.0f} req/s"
    return f"segment {index + 1} ({span[0]:.1f}–{span[1]:.1f} s): {said} of {target:,.0f} asked"


# Named one by one up to this many; a ramp through capacity misses many more.
_NAMED = 3


def _summed(missed: list[str]) -> Warning:
    more = f"; and {len(missed) - _NAMED} more" if len(missed) > _NAMED else ""
    return Warning(
        SEGMENT_NOT_HELD,
        f"rate not held in {'; '.join(missed[:_NAMED])}{more}: past capacity there, the "
        "latency is the queue's; the other segments stand",
    )
