"""The requests of each second of a run, for the tools that only report a running count
(wrk's hook, ab's "Completed N requests"). Pure: the engine feeds it, tests drive it.

A count is timed when its line arrives. A second's edge falls between two counts: the count
at the edge is read on the line between them, so the rows follow the tool's own rate rather
than the moments its lines happen to come. Each second gets the count at its end less the
count at its start, and the last one whatever is left of the tool's own total: the rows add
up to the result. Seconds that closed before the tool's first count are unknown, and keep
their requests: the first known second is not a spike of all that came before it."""

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
        # (arrival, running count); nothing was sent when the run began.
        self._times = [0.0]
        self._counts = [0]
        self._seen = False
        self._second = 0
        self._counted = 0
        # Whether seconds were closed before the first count came.
        self._unknown_before = False

    def observe(self, t_s: float, count: int) -> None:
        """The running count `count` arrived `t_s` into the run."""
        self._seen = True
        if count < self._counts[-1]:
            return
        if t_s <= self._times[-1]:
            # Counts that arrive together: the latest holds them all.
            self._counts[-1] = count
            return
        self._times.append(t_s)
        self._counts.append(count)

    def due(self, now_s: float) -> list[tuple[int, int | None]]:
        """(second, requests in it) of each second that can close `now_s` into the run."""
        closed = []
        while self._closable(self._second + 1, now_s):
            closed.append(self._close(self._count_at(self._second + 1)))
        return closed

    def finish(self, end_s: float, total: int | None) -> list[tuple[int, int | None]]:
        """The seconds left when the run ended `end_s` in, the last one partial: it gets
        what the tool's `total` leaves (the last count seen without one)."""
        closed = []
        last = max(self._second, math.ceil(end_s) - 1)
        while self._second < last:
            closed.append(self._close(self._count_at(self._second + 1)))
        closed.append(self._close(self._counts[-1] if total is None else total))
        return closed

    def _closable(self, edge: int, now_s: float) -> bool:
        return now_s >= edge and (self._times[-1] > edge or now_s - edge >= self._grace_s)

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
        after = bisect_right(self._times, t_s)
        if after == len(self._times):
            return self._counts[-1]
        t0, t1 = self._times[after - 1], self._times[after]
        n0, n1 = self._counts[after - 1], self._counts[after]
        return round(n0 + (n1 - n0) * (t_s - t0) / (t1 - t0))

    def _forget_before(self, t_s: float) -> None:
        """Counts before the last one at or before `t_s` place no edge any more."""
        keep = max(0, bisect_right(self._times, t_s) - 1)
        del self._times[:keep]
        del self._counts[:keep]
