"""The request log as a run reads it: what the tool appended, tailed from its file (or
streamed from another host), fed to the run's LogIngest; the seconds that closes, and those
the clock closes. Blocking: called from a worker thread."""

from __future__ import annotations

import io
import os
import tempfile
from collections import deque
from types import TracebackType
from typing import Any

from tui_bench.engine.file_holes import ReadHoles
from tui_bench.engine.heap_trim import HeapTrim
from tui_bench.engine.log_ingest import LogIngest, SecondStats
from tui_bench.engine.schedule import Schedule
from tui_bench.engine.series import traffic_from_count, traffic_from_log
from tui_bench.engine.tool_start import LogSource
from tui_bench.histogram import LatencyHistogram
from tui_bench.records.verdict import LOG_LOST
from tui_bench.records.warning import Warning

# Less free than this where the log is written is a full file system: a write of the log
# (h2load writes 4 KiB at a time) cannot go through.
FULL_BELOW = 64 << 10


def lost_log(t_s: int) -> Warning:
    """The run's log is in its working directory, in the system's temporary one."""
    return Warning(
        LOG_LOST,
        f"the file system of the request log ({tempfile.gettempdir()}) filled up {t_s} s "
        "into the run: "
        "the seconds from then on and the latencies are unknown, the tool's own totals "
        "are whole; make room there or point TMPDIR elsewhere",
    )


class LogFeed:
    def __init__(self, ingest: LogIngest, source: LogSource, t0_us: int) -> None:
        """`t0_us`: the run's start on the clock of the log."""
        self._ingest = ingest
        self._source = source
        self._t0_us = t0_us
        self._trim = HeapTrim()
        # The second from which the log holds nothing: its file system filled up.
        self.lost_from: int | None = None
        # Where the log goes on (next_source), in order, taken up by the next step in its
        # thread: a tool stopped within a step leaves two (appended and taken atomically).
        self._next: deque[tuple[LogSource, Schedule | None, int]] = deque()

    def next_source(self, source: LogSource, schedule: Schedule | None, from_us: int) -> None:
        """The log goes on in `source` (a steered run's next h2load) once the one read now
        is read to its end, sent from `from_us` (log clock) on under `schedule`. Called from
        the event loop: the step running in a thread takes it up."""
        self._next.append((source, schedule, from_us))

    def step(self, now_s: float | None = None) -> list[SecondStats]:
        """The seconds the log's new lines close, and with `now_s` (into the run) those the
        clock closes: a second nothing completed in is a second of 0 req/s, shown as such."""
        closed = self._ingest.feed(self._source.read_new())
        while self._next:
            closed += self._drain()
            self._source.close()
            self._source, schedule, from_us = self._next.popleft()
            self._ingest.next_file(schedule, from_us)
        if now_s is not None:
            closed += self._ingest.close_by_clock(self._at(now_s))
        self._trim.due()
        self._check_room(closed)
        return closed

    def _drain(self) -> list[SecondStats]:
        closed: list[SecondStats] = []
        while chunk := self._source.read_new():
            closed += self._ingest.feed(chunk)
        return closed

    def traffic(
        self, stats: SecondStats, window_s: float = 1.0
    ) -> tuple[dict[str, Any], LatencyHistogram | None, LatencyHistogram | None]:
        """A closed second's row and its histograms; unknown from when the log could not
        be written (not 0 req/s: the tool went on)."""
        if self.lost_from is None or stats.t_s < self.lost_from:
            return traffic_from_log(stats, window_s), stats.histogram, stats.service
        return traffic_from_count(stats.t_s, None, window_s), None, None

    def lost_warning(self) -> Warning | None:
        return None if self.lost_from is None else lost_log(self.lost_from)

    def _check_room(self, closed: list[SecondStats]) -> None:
        """A second without a request while the log's file system is full: the tool could
        not write its log from then on (h2load goes on, and says nothing)."""
        if self.lost_from is not None:
            return
        silent = [s.t_s for s in closed if s.requests == 0]
        if not silent:
            return
        room = self._source.room_left()
        if room is not None and room < FULL_BELOW:
            self.lost_from = silent[0]

    def last(self, end_s: float) -> list[SecondStats]:
        """Every second left, up to the run's end `end_s`: seconds after the last request
        show as zeros (a stall). The log is closed."""
        closed = self.step()
        closed += self._ingest.close(self._at(end_s))
        self._check_room(closed)
        self._source.close()
        return closed

    def _at(self, run_s: float) -> int:
        return self._t0_us + int(run_s * 1e6)


class NoLog:
    """The log of no tool: a steered run's load paused."""

    def read_new(self) -> bytes:
        return b""

    def room_left(self) -> int | None:
        return None

    def close(self) -> None:
        pass


class LogTail:
    """Reads what another process appended to a file since the last call.

    Opened on the first call that finds the file, then kept open. Blocking: call it from a
    worker thread. At most `max_bytes` per call, so a backlog is drained over several calls
    rather than held in memory at once. What has been read is punched out of the file as it
    goes (engine.file_holes): a run of any length holds a few MiB of it on disk.
    """

    def __init__(self, path: str | os.PathLike[str], max_bytes: int = 4 << 20) -> None:
        self._path = path
        self._max_bytes = max_bytes
        self._file: io.FileIO | None = None
        self._closed = False
        self._read = 0
        self._holes = ReadHoles()

    def read_new(self) -> bytes:
        if self._closed:
            raise ValueError("LogTail.read_new() after close()")
        if self._file is None:
            try:
                self._file = self._open()
            except FileNotFoundError:
                return b""
        data = self._file.read(self._max_bytes) or b""
        self._read += len(data)
        self._holes.read_to(self._file.fileno(), self._read)
        return data

    def _open(self) -> io.FileIO:
        """Read and written: punching a hole needs a file open for writing. A log this
        process may only read (a tool run as another user) is read, and kept whole."""
        try:
            return io.FileIO(self._path, "r+")
        except PermissionError:
            self._holes.stop()
            return io.FileIO(self._path, "r")

    def room_left(self) -> int | None:
        """Bytes free (to this user) on the log's file system."""
        try:
            found = os.statvfs(os.path.dirname(os.path.abspath(self._path)))
        except OSError:
            return None
        return found.f_bavail * found.f_frsize

    def close(self) -> None:
        self._closed = True
        if self._file is not None:
            self._file.close()
            self._file = None

    def __enter__(self) -> LogTail:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
