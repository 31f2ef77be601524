"""When each request of a fixed-rate (open-loop) h2load run was due, rebuilt from its request
log: h2load logs when a request was sent, not when its schedule wanted it sent. Pure.

h2load's `--rps=r` gives each client a timer that fires every `tick` = max(10 ms, 1/r) and
adds the requests due since the last firing to the client's pending count; a pending request
is sent at once if a stream is free, else when one frees up. So in a healthy run requests go
out in clumps, on time by h2load's own clock, and after a stall the pending ones go out as
fast as the server lets them.

The log has no client id, so the schedule is rebuilt for the generator as a whole, at the
total rate R (r times its clients). The k-th request sent (in order of send time s_k, the
first logged one being k = 0) was due at k/R after the schedule's origin; how far it lags is
x_k = s_k - k/R, less the origin. The origin is taken as the most any request was ahead,
min x_j for j <= k, so that the request each client sends as it connects does not shift
it; the clients' start-up (RAMP_US from the first request, while they connect one by one)
sets no origin and its requests count as on time. Clumps put requests up to one tick (and
half a request per client, as each firing rounds what it grants) ahead of the even spacing,
and the clump's last ones on it; so a request is late by x_k - min x - that slack, when
positive. It assumes:

- every client keeps its schedule from its connection on (h2load carries each timer's
  remainder, so the total rate does not drift) and the log clock runs with h2load's timer;
- a request waiting for a stream was due before those sent after it (first in, first out
  across the generator's clients);
- lateness within the slack is h2load's clumping, not delay: a real delay is under-stated
  by at most the slack (under 15 ms at per-client rates above 100 req/s, one interval and
  a half below);
- the log is complete up to each request: one that takes longer than the ingest's grace
  to come back is counted a little late, so requests sent while it was out look later by
  (such requests) / R until it does.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise

import numpy as np
import numpy.typing as npt

from tui_bench.spec import RunSpec

# h2load connects its clients one after the other and each starts its schedule as it
# connects: until all have, the generator's schedule is that of those that have. The sends of
# this long from the first set no origin and are taken as on time.
RAMP_US = 250_000
# h2load's rps timer fires at least this often (nghttp2: `std::max(0.01, 1. / rps)`).
MIN_TICK_US = 10_000
_US_PER_S = 1_000_000
# Up to this many distinct seconds, values are split by a mask per second, not sorted.
_FEW_SECONDS = 4

Int64Array = npt.NDArray[np.int64]


def tick_us(per_client_rate: float) -> int:
    """How often each h2load client's rate timer fires, in µs."""
    return max(MIN_TICK_US, round(_US_PER_S / per_client_rate))


def slack_us(per_client_rate: float) -> int:
    """How far ahead of the even spacing h2load's clumps put a request on time: a tick, and
    half a request per client (each firing grants the due requests rounded to the nearest)."""
    return tick_us(per_client_rate) + round(_US_PER_S / per_client_rate / 2)


class Schedule:
    """The intended send times of one generator's requests, fed in order of send time.

    `rate` is the generator's total (per-client rate times its clients), `origin_us` any
    time before the first request (µs on the log's clock), kept only to hold the numbers
    small enough for float64 to stay exact to the µs; `total`, the requests a run of `-n`
    sends in all (none is due past it).
    """

    @classmethod
    def of(cls, spec: RunSpec, origin_us: int) -> Schedule | None:
        """The schedule of a run of `spec` (one generator's), None for a closed loop."""
        if spec.asked_rate is None or spec.per_client_rate is None:
            return None
        total = spec.requests if spec.count_mode else None
        return cls(spec.asked_rate, slack_us(spec.per_client_rate), origin_us, total)

    def __init__(self, rate: float, slack: int, origin_us: int, total: int | None = None) -> None:
        if rate <= 0:
            raise ValueError(f"rate must be above 0, got {rate}")
        self._interval_us = _US_PER_S / rate
        self._slack_us = slack
        self._origin_us = origin_us
        self._total = total
        self._sent = 0
        # min x_j so far (µs since origin_us); None before the start-up is over.
        self._ahead: float | None = None
        self._first_us: int | None = None

    @property
    def sent(self) -> int:
        return self._sent

    def lateness(self, starts_us: Int64Array) -> Int64Array:
        """How late (µs, 0 when on time) each of `starts_us` was sent; `starts_us` are the
        next requests in send order (ascending)."""
        if not starts_us.size:
            return np.zeros(0, dtype=np.int64)
        if self._first_us is None:
            self._first_us = int(starts_us[0])
        k = np.arange(self._sent, self._sent + starts_us.size, dtype=np.float64)
        self._sent += starts_us.size
        lag = (starts_us - self._origin_us).astype(np.float64) - k * self._interval_us
        late = np.zeros(starts_us.size, dtype=np.int64)
        # The clients' start-up: neither an origin nor late.
        ramp = int(np.searchsorted(starts_us, self._first_us + RAMP_US))
        if ramp == starts_us.size:
            return late
        ahead = np.minimum.accumulate(lag[ramp:])
        if self._ahead is not None:
            np.minimum(ahead, self._ahead, out=ahead)
        self._ahead = float(ahead[-1])
        behind = np.rint(lag[ramp:] - ahead - self._slack_us)
        late[ramp:] = np.maximum(behind, 0)
        return late

    def backlog_at(self, t_us: int) -> int | None:
        """Requests due by `t_us` (log clock) but not sent by then, when every request sent
        by then has been fed; None before the start-up gives the schedule an origin."""
        if self._ahead is None:
            return None
        since = t_us - self._origin_us - self._ahead - self._slack_us
        due = int(since // self._interval_us) + 1 if since >= 0 else 0
        if self._total is not None:
            due = min(due, self._total)
        return max(0, due - self._sent)


@dataclass(frozen=True)
class SentSecond:
    """The requests sent in second `t_s` of the run, timed: how many, the backlog at its
    end, and for each that completed (status >= 0) the second it completed in and its
    latency from when it was due."""

    t_s: int
    sent: int
    backlog: int | None
    completed_s: Int64Array
    intended_us: Int64Array


class OpenLoop:
    """Holds the log's rows by the second they were sent in until no more can come for it
    (the ingest says when), then times them in send order with a `Schedule`. A row for a
    second already timed joins the oldest one still held."""

    def __init__(self, schedule: Schedule, t0_us: int) -> None:
        # Each schedule with when it begins (µs, log clock): a steered run starts a new
        # h2load, and a new schedule, at each change; None while its load is paused.
        self._schedules: list[tuple[int, Schedule | None]] = [(0, schedule)]
        self._t0_us = t0_us
        self._held: dict[int, list[Int64Array]] = {}
        self._next = 0

    def switch(self, schedule: Schedule | None, from_us: int) -> None:
        """Requests sent from `from_us` on follow `schedule` (None: nothing is due)."""
        self._schedules.append((from_us, schedule))

    def _lateness(self, starts_us: Int64Array) -> Int64Array:
        """Each request's lateness by the schedule it was sent under (`starts_us` sorted)."""
        if len(self._schedules) == 1:
            schedule = self._schedules[0][1]
            assert schedule is not None
            return schedule.lateness(starts_us)
        late = np.zeros(starts_us.size, dtype=np.int64)
        bounds = [int(np.searchsorted(starts_us, f)) for f, _ in self._schedules[1:]]
        for (_, schedule), lo, hi in zip(
            self._schedules, [0, *bounds], [*bounds, starts_us.size], strict=True
        ):
            if schedule is not None and hi > lo:
                late[lo:hi] = schedule.lateness(starts_us[lo:hi])
        return late

    def _backlog_at(self, t_us: int) -> int | None:
        """By the schedule going at `t_us`; 0 while paused (nothing is due)."""
        schedule = next(s for f, s in reversed(self._schedules) if f <= t_us)
        return 0 if schedule is None else schedule.backlog_at(t_us)

    def hold(self, rows: Int64Array) -> None:
        """`rows` of (start_us, status, duration_us)."""
        seconds = (rows[:, 0] - self._t0_us) // _US_PER_S
        np.maximum(seconds, self._next, out=seconds)
        for second, part in split_by(seconds, rows):
            self._held.setdefault(second, []).append(part)

    def time_through(self, last: int, end_us: int | None = None) -> list[SentSecond]:
        """Every second up to `last` timed; `end_us`, when the run ended within `last`."""
        timed: list[SentSecond] = []
        for t_s in range(self._next, last + 1):
            parts = self._held.pop(t_s, [])
            rows = np.concatenate(parts) if parts else np.zeros((0, 3), dtype=np.int64)
            rows = rows[np.argsort(rows[:, 0], kind="stable")]
            start, status, duration = rows[:, 0], rows[:, 1], rows[:, 2]
            intended = duration + self._lateness(start)
            completed = (start + duration - self._t0_us) // _US_PER_S
            done = status >= 0
            second_end = self._t0_us + (t_s + 1) * _US_PER_S
            timed.append(
                SentSecond(
                    t_s,
                    int(start.size),
                    self._backlog_at(second_end if end_us is None else min(second_end, end_us)),
                    completed[done],
                    intended[done],
                )
            )
        self._next = max(self._next, last + 1)
        return timed

    @property
    def last_held(self) -> int:
        return max(self._held, default=self._next - 1)


def split_by(seconds: Int64Array, values: Int64Array) -> list[tuple[int, Int64Array]]:
    """`values` (rows, or a column) grouped by their `seconds`, in ascending order."""
    if not seconds.size:
        return []
    first, last = int(seconds.min()), int(seconds.max())
    if first == last:
        return [(first, values)]
    if last - first < _FEW_SECONDS:
        # A chunk of the log spans a second or two: a pass per second beats a sort.
        found = [(t_s, values[seconds == t_s]) for t_s in range(first, last + 1)]
        return [(t_s, part) for t_s, part in found if part.size]
    # Stable and nearly sorted already: cheap, and keeps each second's values in order.
    order = np.argsort(seconds, kind="stable")
    seconds, values = seconds[order], values[order]
    cuts = np.flatnonzero(seconds[1:] != seconds[:-1]) + 1
    bounds = [0, *cuts.tolist(), seconds.size]
    return [(int(seconds[lo]), values[lo:hi]) for lo, hi in pairwise(bounds)]
