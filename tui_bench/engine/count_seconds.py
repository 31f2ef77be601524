"""The requests of each second of a run, for the tools that only report a running count
(wrk's hook, ab's "Completed N requests"). Pure: the engine feeds it, tests drive it.

A count is timed when the tool wrote it (wrk's lines say when) or else when its line
arrives. A second's edge falls between two counts: the count at the edge is read on the line
between them, so the rows follow the tool's own rate rather than the moments its lines
happen to come. wrk counts each of its threads apart, each on a clock of its own: the run's
count is known up to the time every thread has reported to, each thread's count read on its
own line there (summing each thread's last count instead takes the others' counts from up
to a line interval before, more on a loaded machine, where a starved thread's last line came
0.2 s before its end: each second was short, and what they lacked piled into the last one,
a window of a few hundredths of a second at twice the run's rate). Each second gets the
count at its end less the count at its start; the tool's own total is the count when it
ended, what its lines had not told spread from the last count to then: the rows add up to
the result. Seconds that closed before the tool's first count are unknown, and keep their
requests: the first known second is not a spike of all that came before it."""

from __future__ import annotations

import math
from bisect import bisect_right

# A second closes once a count from after its end has arrived, or this long after its end
# with none: nothing was sent meanwhile (wrk counts requests as they go out), or the tool
# reports seldom (ab: every tenth of its requests), and the count is the last one seen.
COUNT_GRACE_S = 1.0


class CountSeconds:
    def __init__(self, grace_s: float = COUNT_GRACE_S) -> None:
        self._grace_s = grace_s
        # (time, the run's running count); nothing was sent when the run began.
        self._points: list[tuple[float, int]] = [(0.0, 0)]
        self._seen = False
        self._second = 0
        self._counted = 0
        # Whether seconds were closed before the first count came.
        self._unknown_before = False
        # Each thread's own counts, (time, count), back to the last before the run's count
        # is known to: the run's count is read on each of them.
        self._threads: dict[int, list[tuple[float, int]]] = {}

    def observe(self, t_s: float, count: int, thread: int = 0) -> None:
        """Thread `thread`'s running count `count`, written `t_s` into the run."""
        self._seen = True
        points = self._threads.setdefault(thread, [(0.0, 0)])
        if not _extend(points, t_s, count):
            return
        # A thread silent for a grace sends nothing (wrk counts requests as they go out):
        # its count holds, and does not keep the others' from being known.
        newest = max(p[-1][0] for p in self._threads.values())
        known = min(p[-1][0] for p in self._threads.values() if p[-1][0] >= newest - self._grace_s)
        if known <= self._points[-1][0]:
            return  # a thread that began late: known no further than before
        _extend(self._points, known, sum(_on_line(p, known) for p in self._threads.values()))
        for p in self._threads.values():
            del p[: max(0, bisect_right(p, (known, math.inf)) - 1)]

    def due(self, now_s: float) -> list[tuple[int, int | None]]:
        """(second, requests in it) of each second that can close `now_s` into the run."""
        closed = []
        while self._closable(self._second + 1, now_s):
            closed.append(self._close(self._count_at(self._second + 1)))
        return closed

    def finish(self, end_s: float, total: int | None) -> list[tuple[int, int | None]]:
        """The seconds left when the run ended `end_s` in, the last one partial; the tool's
        `total` is its count at `end_s` (the last count seen holds without one)."""
        if total is not None:
            _extend(self._points, end_s, total)
        closed = []
        last = max(self._second, math.ceil(end_s) - 1)
        while self._second < last:
            closed.append(self._close(self._count_at(self._second + 1)))
        closed.append(self._close(self._points[-1][1] if total is None else total))
        return closed

    def _closable(self, edge: int, now_s: float) -> bool:
        return now_s >= edge and (self._points[-1][0] > edge or now_s - edge >= self._grace_s)

    def _close(self, count_at_end: int) -> tuple[int, int | None]:
        second = self._second
        self._second += 1
        if not self._seen:
            # Without a single count yet, the tool told nothing of this second (wrk without
            # its hook, ab before its first tenth): unknown, not 0.
            self._unknown_before = True
            return second, None
        if self._unknown_before:
            # The seconds closed unknown keep their requests: the first known one starts
            # at its own edge, not with all that came before it.
            self._counted = self._count_at(second)
            self._unknown_before = False
        requests = max(0, count_at_end - self._counted)
        self._counted += requests
        self._forget_before(self._second)
        return second, requests

    def _count_at(self, t_s: float) -> int:
        return _on_line(self._points, t_s)

    def _forget_before(self, t_s: float) -> None:
        """Counts before the last one at or before `t_s` place no edge any more."""
        del self._points[: max(0, bisect_right(self._points, (t_s, math.inf)) - 1)]


def _extend(points: list[tuple[float, int]], t_s: float, count: int) -> bool:
    """`count` at `t_s` after `points`; False for a count that goes back."""
    if count < points[-1][1]:
        return False
    if t_s <= points[-1][0]:
        # Counts that arrive together: the latest holds them all.
        points[-1] = (points[-1][0], count)
    else:
        points.append((t_s, count))
    return True


def _on_line(points: list[tuple[float, int]], t_s: float) -> int:
    """The count at `t_s` on the line through the (time, count) `points` around it; the
    last one's past them."""
    after = bisect_right(points, (t_s, math.inf))
    if after == 0:
        return points[0][1]
    if after == len(points):
        return points[-1][1]
    (t0, n0), (t1, n1) = points[after - 1], points[after]
    return round(n0 + (n1 - n0) * (t_s - t0) / (t1 - t0))
