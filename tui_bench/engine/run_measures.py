"""What a run measures as it goes, whatever starts and steers its tools: the tool's output
lines and counts, its request log's seconds, each closed second journaled and told. The
RunController (controller.py) builds on it."""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Any

from tui_bench.analysis.warnings import CONNECTIONS_DYING, connection_failures
from tui_bench.engine.count_seconds import CountSeconds
from tui_bench.engine.cut_short import CutShort
from tui_bench.engine.events import Listener, OutputLine, Progress, SecondClosed
from tui_bench.engine.kept_seconds import KeptSeconds
from tui_bench.engine.log_feed import LogFeed
from tui_bench.engine.log_ingest import LogIngest, SecondStats
from tui_bench.engine.minute_histograms import MinuteHistograms
from tui_bench.engine.series import SeriesBuilder, traffic_from_count, window_of
from tui_bench.engine.server_watch import WARNINGS as WATCH_WARNINGS
from tui_bench.engine.tool_progress import ToolProgress
from tui_bench.engine.tool_start import Launched
from tui_bench.histogram import LatencyHistogram
from tui_bench.parsers.live import LiveLine
from tui_bench.records.verdict import LOG_LOST
from tui_bench.records.warning import Warning
from tui_bench.spec import RunSpec
from tui_bench.storage.journal import JournalWriter

TAIL_INTERVAL_S = 0.2

# Warnings known only while the run goes: kept for its end beside what it finds then.
KEPT_WARNINGS = frozenset({*WATCH_WARNINGS, LOG_LOST})


class RunMeasures:
    def __init__(self, spec: RunSpec, listener: Listener | None, stall_timeout_s: float) -> None:
        self.spec = spec
        self._emit: Listener = listener or (lambda event: None)
        self._launched: Launched | None = None
        self._cut = CutShort(spec, stall_timeout_s, self._run_s, self._warn)
        self._warned: set[str] = set()
        # Found during the run beside what the tool's output and result tell (run_warnings).
        self._run_warnings: list[Warning] = []
        self._series = SeriesBuilder()
        self._ingest: LogIngest | None = None
        self._feed: LogFeed | None = None
        self._journal: JournalWriter | None = None
        # What the run's end reads of its seconds, not the rows.
        self._seconds = KeptSeconds()
        self._minutes = MinuteHistograms()
        self._output: dict[str, list[str]] = {"stdout": [], "stderr": []}
        self._progress = ToolProgress(spec)
        self._t0 = 0.0
        # The run's start on the clock of the tool's request log.
        self._log_t0_us = 0
        self._counts = CountSeconds()

    def _warn(self, warning: Warning) -> None:
        """Tell listeners once per kind of warning, as soon as it is known."""
        if warning.code not in self._warned:
            self._warned.add(warning.code)
            if warning.code in KEPT_WARNINGS:
                self._run_warnings.append(warning)
            self._emit(warning)

    def _run_s(self) -> float:
        return time.monotonic() - self._t0

    def _line(self, stream: str, text: str) -> None:
        self._output[stream].append(text)
        assert self._journal is not None
        # On the clock of the samples, so a replay shows each line when it came; to the ms,
        # which is finer than any tool's output and keeps the session small.
        arrived = time.monotonic() - self._t0
        self._journal.write("out", {"s": stream, "l": text, "t": round(arrived, 3)})
        line = OutputLine.read(self.spec.tool, stream, text)
        self._emit(line)
        if connection_failures(text):
            self._warn(CONNECTIONS_DYING)
        progress = self._progress
        if line.live is None:
            return
        live = line.live
        if progress.seen(live) and live.done is not None:
            # Each of wrk's threads counts on a clock of its own: placed apart.
            self._counts.observe(self._said_at(live, arrived), live.done, live.thread or 0)
        if progress.time_over:
            self._cut.said_over(arrived)

    def _said_at(self, live: LiveLine, arrived: float) -> float:
        """When the tool wrote a count: the time on its line, where it gives one on our
        clock, since a reader that falls behind (a busy machine) times a burst of lines at
        once and would pile a second's requests on a later one; else when it came."""
        if live.at_s is None or self._launched is None or not self._launched.local:
            return arrived
        return min(arrived, max(0.0, live.at_s - self._t0))

    async def _traffic_loop(self, ended: asyncio.Event) -> None:
        """Until the tool ended, and never stopped in the middle of a step: the seconds a
        step closes in its thread are the step's to write (cancelled, they were lost, and a
        run's series fell short of its total)."""
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(ended.wait(), TAIL_INTERVAL_S)
            if ended.is_set():
                return
            elapsed = time.monotonic() - self._t0
            if self._ingest is not None and self._feed is not None:
                # Not past the time the tool said was over: a tool hung after it (h2load
                # on a server closing connections) would get seconds of 0 after the run.
                over_s = self._cut.over_s
                clock_s = elapsed if over_s is None else min(elapsed, over_s)
                for stats in await asyncio.to_thread(self._feed.step, clock_s):
                    self._log_row(stats)
                self._progress.done = self._ingest.requests
            else:
                # Tools without a request log report running counts; a row per second.
                for second, requests in self._counts.due(elapsed):
                    self._row(traffic_from_count(second, requests))
            fraction, phase = self._progress.at(elapsed)
            self._emit(Progress(elapsed, fraction, self._progress.done, phase))

    async def _final_log(self, end_s: float) -> None:
        """The request log's last seconds, before the result is built from it."""
        if self._feed is None:
            return
        for stats in await asyncio.to_thread(self._feed.last, end_s):
            self._log_row(stats, window_of(stats.t_s, end_s))

    def _log_row(self, stats: SecondStats, window: float = 1.0) -> None:
        assert self._feed is not None
        if (lost := self._feed.lost_warning()) is not None:
            self._warn(lost)
        self._row(*self._feed.traffic(stats, window))

    def _row(
        self,
        traffic: dict[str, Any],
        histogram: LatencyHistogram | None = None,
        service: LatencyHistogram | None = None,
    ) -> None:
        row = self._series.row(traffic)
        self._seconds.add(row)
        assert self._journal is not None
        self._journal.write("second", row)
        if histogram is not None:
            self._minutes.add(self._journal, int(row["t_s"]), histogram, service)
            self._second_latency(int(row["t_s"]), histogram)
        self._emit(SecondClosed(row, histogram, service))

    def _second_latency(self, t_s: int, histogram: LatencyHistogram) -> None:
        """A closed second's latencies, for what the run keeps of them beside its minutes
        and its whole (the controller: each segment's)."""
