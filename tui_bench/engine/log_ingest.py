"""Per-second series from h2load's request log (`--log-file`), read while the run goes on.

Each line is `start_us\\tstatus\\tduration_us\\n`: wall-clock µs since the epoch when the
request started, the HTTP status (-1 when h2load counts the request as failed) and the
request time in µs. A request belongs to the second of its completion, start + duration,
counted from the run's start `t0_us`.

h2load's threads append lines as their requests finish, so lines come roughly, not exactly,
in completion order. A second therefore stays open until a completion at least GRACE_US past
its end has been seen; only then is it emitted (a quarter second after it ends, not a whole
one), or a second after its end by the clock when nothing completes (a stall). Results do
not depend on how the file was cut into chunks as long as no line arrives more than
GRACE_US late.

Parsing is one `np.fromstring` call per chunk plus a few vectorized checks; only a chunk
that fails them is re-read line by line to skip and count the bad lines.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np
import numpy.typing as npt

from tui_bench.engine.schedule import OpenLoop, Schedule, split_by
from tui_bench.histogram import MAX_US, LatencyHistogram
from tui_bench.result import STATUS_CLASSES
from tui_bench.status_codes import bounded
from tui_bench.storage.series_columns import OVERALL_PERCENTILES

# h2load writes a line as its request completes: lines from its threads interleave within
# milliseconds, far below this.
GRACE_US = 250_000
# A second in which nothing completed closes this long after its end by the clock alone:
# while a server stalls no line comes to close it, and a second of 0 req/s is shown as
# one. Lines later than this (a reader held back a whole second) count in the oldest open
# second.
CLOCK_GRACE_US = 1_000_000

_US_PER_S = 1_000_000
# h2load writes start_us with 16 digits (every date from 2001 to 2286).
_MIN_START_US = 10**15
_MAX_START_US = 10**16 - 1
# h2load parses at most three status digits.
_MAX_STATUS = 999
# A real line is under 40 bytes: an unterminated tail this long is garbage, not a line
# still being written, and keeping it would let memory grow with the file.
_MAX_LINE_BYTES = 4096
_LINE = re.compile(rb"\s*([+-]?\d+)\s+([+-]?\d+)\s+([+-]?\d+)\s*")

Int64Array = npt.NDArray[np.int64]


@dataclass(frozen=True)
class SecondStats:
    """One second of the run. `histogram` holds the latency of every request that completed
    in it (status >= 0, including 4xx/5xx, like h2load's "time for request"): in a
    fixed-rate run from when the request was due, with the time from when it was sent in
    `service`. Histograms are owned by this record and must not be modified. Use
    `histogram.to_dict()` for JSON. `sent` and `backlog` (fixed-rate runs): requests sent
    in this second and those due by its end but not sent."""

    t_s: int
    requests: int
    errors: int
    status: dict[str, int]
    histogram: LatencyHistogram
    n: int
    p50_s: float | None
    p90_s: float | None
    p99_s: float | None
    max_s: float | None
    # p50, p90 and p99 of every request up to the end of this second (closed seconds only).
    overall: tuple[float | None, ...] = ()
    service: LatencyHistogram | None = None
    sent: int | None = None
    backlog: int | None = None

    @classmethod
    def of(
        cls,
        t_s: int,
        requests: int,
        errors: int,
        status: dict[str, int],
        histogram: LatencyHistogram,
    ) -> SecondStats:
        p50, p90, p99 = histogram.percentiles_s((50, 90, 99))
        max_us = histogram.max_us
        return cls(
            t_s=t_s,
            requests=requests,
            errors=errors,
            status=status,
            histogram=histogram,
            n=histogram.count,
            p50_s=p50,
            p90_s=p90,
            p99_s=p99,
            max_s=None if max_us is None else max_us / _US_PER_S,
        )


@dataclass(frozen=True)
class IngestTotals:
    """Every line read so far, open seconds included."""

    requests: int
    errors: int
    status: dict[str, int]
    bad_lines: int
    # The statuses by exact code, bounded (status_codes.py).
    codes: dict[str, int]


class _OpenSecond:
    __slots__ = ("backlog", "errors", "histogram", "requests", "sent", "service", "status")

    def __init__(self, *, timed: bool) -> None:
        self.requests = 0
        self.errors = 0
        self.status = [0] * len(STATUS_CLASSES)
        self.histogram = LatencyHistogram()
        self.service = LatencyHistogram() if timed else None
        self.sent: int | None = None
        self.backlog: int | None = None

    @property
    def durations(self) -> LatencyHistogram:
        """Where the log's request times go: the service histogram of a fixed-rate run."""
        return self.histogram if self.service is None else self.service

    def stats(self, t_s: int, *, copy: bool = False) -> SecondStats:
        status = dict(zip(STATUS_CLASSES, self.status, strict=True))
        histogram, service = self.histogram, self.service
        if copy:
            histogram = histogram.copy()
            service = None if service is None else service.copy()
        stats = SecondStats.of(t_s, self.requests, self.errors, status, histogram)
        return replace(stats, service=service, sent=self.sent, backlog=self.backlog)


def _all_plausible(rows: Int64Array) -> bool:
    # Reductions rather than boolean masks: no temporary arrays on the hot path. A line
    # split or merged by garbage shifts a 16-digit start into another column and fails here.
    start, status, duration = rows[:, 0], rows[:, 1], rows[:, 2]
    return bool(
        start.min() >= _MIN_START_US
        and start.max() <= _MAX_START_US
        and status.min() >= -1
        and status.max() <= _MAX_STATUS
        and duration.min() >= 0
        and duration.max() <= MAX_US
    )


def _parse_slowly(block: bytes) -> tuple[Int64Array, int]:
    rows: list[tuple[int, int, int]] = []
    bad = 0
    for line in block.split(b"\n")[:-1]:
        match = _LINE.fullmatch(line)
        if match is not None:
            start, status, duration = (int(g) for g in match.groups())
            if (
                _MIN_START_US <= start <= _MAX_START_US
                and -1 <= status <= _MAX_STATUS
                and 0 <= duration <= MAX_US
            ):
                rows.append((start, status, duration))
                continue
        bad += 1
    return np.array(rows, dtype=np.int64).reshape(-1, 3), bad


def _parse_lines(block: bytes) -> tuple[Int64Array, int]:
    """Rows of (start_us, status, duration_us) from complete lines (`block` ends with a
    newline), and how many lines were rejected."""
    lines = block.count(b"\n")
    try:
        flat = np.fromstring(block, dtype=np.int64, sep=" ")
    except ValueError:  # a token that is not an integer
        return _parse_slowly(block)
    # fromstring skips empty lines and ignores line structure, hence the count check.
    if flat.size == 3 * lines:
        rows = flat.reshape(lines, 3)
        if _all_plausible(rows):
            return rows, 0
    return _parse_slowly(block)


class LogIngest:
    """Turns chunks of the log into closed `SecondStats`; see the module docstring.

    Memory is bounded by the open seconds and one merged histogram, whatever the run length.
    Not thread-safe: feed it and read it from one thread at a time.
    """

    def __init__(
        self,
        t0_us: int,
        schedule: Schedule | None = None,
        observe: Callable[[Int64Array], None] | None = None,
    ) -> None:
        """`schedule`: a fixed-rate run's, by which each request's latency is taken from
        when it was due (engine/schedule.py). `observe` is also shown every parsed row
        (start_us, status, duration_us), in the order read."""
        self._t0_us = t0_us
        self._open_loop = None if schedule is None else OpenLoop(schedule, t0_us)
        self._observe = observe
        self._partial = b""
        self._discarding = False
        self._closed = False
        self._open: dict[int, _OpenSecond] = {}
        # Every second before this one has been emitted: it is the oldest open second.
        self._next_emit = 0
        # The latest completion seen, in µs since t0.
        self._newest_us = -1
        self._overall = LatencyHistogram()
        self._service_overall = LatencyHistogram()
        self._requests = 0
        # Every code -1..999, as `_add` bins them: a fixed size whatever the server answers.
        self._codes = np.zeros(_MAX_STATUS + 2, dtype=np.int64)
        self._bad_lines = 0
        # Requests completed of each file of the log before the one read now, and of it;
        # and when each file's first request was sent (µs since t0), None before one was.
        self._of_files: list[int] = []
        self._in_file = 0
        self._firsts: list[int | None] = []
        self._first_in_file: int | None = None

    def feed(self, chunk: bytes) -> list[SecondStats]:
        """Reads `chunk` (any cut of the file) and returns the seconds it closed, in order."""
        if self._closed:
            raise RuntimeError("LogIngest.feed() after close()")
        data = self._partial + chunk
        if self._discarding:
            newline = data.find(b"\n")
            if newline < 0:
                self._partial = b""
                return []
            data = data[newline + 1 :]
            self._discarding = False
        end = data.rfind(b"\n") + 1
        self._partial = data[end:]
        if len(self._partial) > _MAX_LINE_BYTES:
            self._bad_lines += 1
            self._partial = b""
            self._discarding = True
        if end:
            self._ingest(data[:end])
        return self._emit_through((self._newest_us - GRACE_US) // _US_PER_S - 1)

    def close_by_clock(self, now_us: int) -> list[SecondStats]:
        """The seconds that ended CLOCK_GRACE_US before `now_us` (µs on the log's clock),
        closed whether or not a completion after them came."""
        if self._closed:
            return []
        return self._emit_through((now_us - self._t0_us - CLOCK_GRACE_US) // _US_PER_S - 1)

    def next_file(self, schedule: Schedule | None, from_us: int) -> None:
        """The log goes on in another file (a steered run's next h2load), sent from
        `from_us` on under `schedule` (None: nothing due, the load paused). The last file's
        unterminated last line is read as close() would."""
        if self._partial and not self._discarding:
            self._ingest(self._partial + b"\n")
        self._partial, self._discarding = b"", False
        self._of_files.append(self._in_file)
        self._firsts.append(self._first_in_file)
        self._in_file, self._first_in_file = 0, None
        if self._open_loop is not None:
            self._open_loop.switch(schedule, from_us)

    def close(self, end_us: int | None = None) -> list[SecondStats]:
        """Reads an unterminated last line and emits every second still open. With `end_us`
        (when the run stopped) the seconds up to it are emitted too, as zeros if empty, so a
        stall at the end of the run shows."""
        if self._closed:
            return []
        self._closed = True
        if self._partial and not self._discarding:
            self._ingest(self._partial + b"\n")
        self._partial = b""
        last = max(self._open, default=self._next_emit - 1)
        if self._open_loop is not None:
            last = max(last, self._open_loop.last_held)
        if end_us is not None:
            last = max(last, (end_us - self._t0_us - 1) // _US_PER_S)
        return self._emit_through(last, end_us)

    @property
    def of_files(self) -> list[int]:
        """Requests completed of each file of the log, in order: a steered run's segments."""
        return [*self._of_files, self._in_file]

    @property
    def first_sent_of_files(self) -> list[float | None]:
        """When each file's first request was sent, in seconds since t0 (None: none was):
        where a steered run's segment began to send, its tool started and connected."""
        return [
            None if us is None else us / _US_PER_S for us in [*self._firsts, self._first_in_file]
        ]

    @property
    def overall(self) -> LatencyHistogram:
        """A new histogram of every completed request so far, open seconds included (of a
        fixed-rate run: those timed, from when each was due)."""
        merged = self._overall.copy()
        for second in self._open.values():
            merged.merge(second.histogram)
        return merged

    @property
    def service_overall(self) -> LatencyHistogram | None:
        """A fixed-rate run's request times from when each was sent, open seconds included;
        None for a closed loop, whose `overall` is that."""
        if self._open_loop is None:
            return None
        merged = self._service_overall.copy()
        for second in self._open.values():
            merged.merge(second.durations)
        return merged

    @property
    def totals(self) -> IngestTotals:
        return IngestTotals(
            requests=self._requests,
            # Bin 0 is status -1: the failed requests.
            errors=int(self._codes[0]),
            status=dict(zip(STATUS_CLASSES, _classes(self._codes), strict=True)),
            bad_lines=self._bad_lines,
            # Bin i holds status i - 1; bounded() keeps the codes of the classes alone.
            codes=bounded({str(i - 1): int(self._codes[i]) for i in np.flatnonzero(self._codes)}),
        )

    def current(self) -> SecondStats | None:
        """The newest open second as it stands now (still filling), for a live display."""
        if not self._open:
            return None
        t_s = max(self._open)
        second = self._open[t_s]
        return second.stats(t_s, copy=True)

    def _ingest(self, block: bytes) -> None:
        rows, bad = _parse_lines(block)
        self._bad_lines += bad
        if not rows.size:
            return
        if self._observe is not None:
            self._observe(rows)
        self._in_file += int(np.count_nonzero(rows[:, 1] >= 0))
        # Lines come as requests complete, not in the order they were sent.
        first = int(rows[:, 0].min()) - self._t0_us
        if self._first_in_file is None or first < self._first_in_file:
            self._first_in_file = first
        if self._open_loop is not None:
            self._open_loop.hold(rows)
        completed_us = rows[:, 0] + rows[:, 2] - self._t0_us
        self._newest_us = max(self._newest_us, int(completed_us.max()))
        seconds = completed_us // _US_PER_S
        # A line for a second already emitted is counted in the oldest open second: late
        # by more than the grace, it can no longer change what was reported.
        np.maximum(seconds, self._next_emit, out=seconds)
        for t_s, part in split_by(seconds, rows):
            self._add(t_s, part[:, 1], part[:, 2])

    def _second(self, t_s: int) -> _OpenSecond:
        second = self._open.get(t_s)
        if second is None:
            second = self._open[t_s] = _OpenSecond(timed=self._open_loop is not None)
        return second

    def _add(self, t_s: int, status: Int64Array, duration: Int64Array) -> None:
        second = self._second(t_s)
        # Bin status + 1 for every code -1..999 (2xx is bins 201..300): cheaper than
        # dividing every status by 100.
        per_code = np.bincount(status + 1, minlength=_MAX_STATUS + 2)
        errors = int(per_code[0])
        second.requests += status.size
        second.errors += errors
        self._requests += status.size
        self._codes += per_code
        for i, count in enumerate(_classes(per_code)):
            second.status[i] += count
        second.durations.add(duration[status >= 0] if errors else duration)

    @property
    def requests(self) -> int:
        """Requests completed so far: read at every step of a run, unlike `totals`."""
        return self._requests

    def _time_through(self, last: int, end_us: int | None = None) -> None:
        """An open-loop run's seconds up to `last`: what was sent in each, the backlog at its
        end, and the latency from when it was due of each request, in the second it completed."""
        if self._open_loop is None:
            return
        for sent in self._open_loop.time_through(last, end_us):
            second = self._second(sent.t_s)
            second.sent, second.backlog = sent.sent, sent.backlog
            completed = np.maximum(sent.completed_s, self._next_emit)
            for t_s, intended in split_by(completed, sent.intended_us):
                self._second(t_s).histogram.add(intended)

    def _emit_through(self, last: int, end_us: int | None = None) -> list[SecondStats]:
        self._time_through(last, end_us)
        closed: list[SecondStats] = []
        for t_s in range(self._next_emit, last + 1):
            second = self._open.pop(t_s, None) or _OpenSecond(timed=self._open_loop is not None)
            self._overall.merge(second.histogram)
            if second.service is not None:
                self._service_overall.merge(second.service)
            overall = tuple(self._overall.percentiles_s(OVERALL_PERCENTILES))
            closed.append(replace(second.stats(t_s), overall=overall))
        self._next_emit = max(self._next_emit, last + 1)
        return closed


def _classes(per_code: Int64Array) -> list[int]:
    """The counts of STATUS_CLASSES from counts by code (bin i: status i - 1)."""
    return [
        int(per_code[(i + 2) * 100 + 1 : (i + 3) * 100 + 1].sum())
        for i in range(len(STATUS_CLASSES))
    ]


def sending_s(start_s: float, end_s: float, first_sent_s: float | None) -> float:
    """How long a tool sent between `start_s` and `end_s`: from its first request (its process
    starting and connecting left out, tenths of a second on a busy machine, as a tool's own
    summary leaves them out); the whole span where no first request falls inside it."""
    if first_sent_s is None or not start_s < first_sent_s < end_s:
        return end_s - start_s
    return end_s - first_sent_s
