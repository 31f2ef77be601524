"""The request log as a run reads it: what the tool appended, tailed from its file (or
streamed from another host), fed to the run's LogIngest; the seconds that closes, and those
the clock closes. Blocking: called from a worker thread."""

from __future__ import annotations

import io
import os
from types import TracebackType

from tui_bench.engine.file_holes import ReadHoles
from tui_bench.engine.heap_trim import HeapTrim
from tui_bench.engine.log_ingest import LogIngest, SecondStats
from tui_bench.engine.tool_start import LogSource


class LogFeed:
    def __init__(self, ingest: LogIngest, source: LogSource, t0_us: int) -> None:
        """`t0_us`: the run's start on the clock of the log."""
        self._ingest = ingest
        self._source = source
        self._t0_us = t0_us
        self._trim = HeapTrim()

    def step(self, now_s: float | None = None) -> list[SecondStats]:
        """The seconds the log's new lines close, and with `now_s` (into the run) those the
        clock closes: a second nothing completed in is a second of 0 req/s, shown as such."""
        closed = self._ingest.feed(self._source.read_new())
        if now_s is not None:
            closed += self._ingest.close_by_clock(self._at(now_s))
        self._trim.due()
        return closed

    def last(self, end_s: float) -> list[SecondStats]:
        """Every second left, up to the run's end `end_s`: seconds after the last request
        show as zeros (a stall). The log is closed."""
        closed = self.step()
        closed += self._ingest.close(self._at(end_s))
        self._source.close()
        return closed

    def _at(self, run_s: float) -> int:
        return self._t0_us + int(run_s * 1e6)


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
