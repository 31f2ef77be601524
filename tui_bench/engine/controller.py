"""RunController: runs one load generator process and turns everything it and the sampler
say into one stream of immutable events, a journal on disk and, at the end, a session file.

Nothing here blocks the event loop: file tailing, log parsing and psutil sampling run in a
worker thread one step at a time.
"""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import Sequence
from dataclasses import asdict
from datetime import UTC, datetime
from functools import partial
from pathlib import Path

import psutil

from tui_bench.analysis.warnings import (
    SAME_MACHINE,
    run_warnings,
    whole_seconds,
)
from tui_bench.engine.answer_probe import redirects_of
from tui_bench.engine.events import (
    Listener,
    Progress,
    ResourcesSampled,
    RunFinished,
    RunStarted,
    SegmentStarted,
)
from tui_bench.engine.log_feed import LogFeed, LogTail, NoLog
from tui_bench.engine.log_ingest import LogIngest
from tui_bench.engine.outcome import build_result, ending
from tui_bench.engine.recorder import Judge, end_of_run
from tui_bench.engine.run_measures import RunMeasures
from tui_bench.engine.schedule import Schedule
from tui_bench.engine.segment_track import segment_started
from tui_bench.engine.series import rate_figures, traffic_from_count, window_of
from tui_bench.engine.server_watch import ServerWatch
from tui_bench.engine.stall_watch import StallWatch, stall_of_run
from tui_bench.engine.steered import Steering
from tui_bench.engine.steering import unsteerable
from tui_bench.engine.tool_output import read_lines, wait_for_exit
from tui_bench.engine.tool_start import (
    Launched,
    Launcher,
    LocalLauncher,
    Process,
    Spawner,
    spawn_subprocess,
)
from tui_bench.engine.workdir import run_workdir
from tui_bench.histogram import LatencyHistogram
from tui_bench.records.segment import START
from tui_bench.remote.server import ServerOnHost
from tui_bench.runners.invocation import STALL_TIMEOUT_S, Invocation, build
from tui_bench.runners.tools import Tool
from tui_bench.sampling.discover import same_machine
from tui_bench.sampling.host import host_facts
from tui_bench.sampling.pacing import sample_until
from tui_bench.sampling.sampler import ResourceSampler
from tui_bench.sampling.samples import ResourceSample
from tui_bench.sampling.summaries import SampleTally
from tui_bench.spec import RunSpec
from tui_bench.storage.journal import JournalWriter
from tui_bench.storage.segment_codec import begun_record
from tui_bench.storage.session_records import RunEnd, SessionDraft
from tui_bench.storage.store import journal_path, new_session_id
from tui_bench.validity import judge_run
from tui_bench.validity_defaults import DEFAULT_MAX_ERRORS


class RunController(RunMeasures):
    def __init__(
        self,
        spec: RunSpec,
        tool: Tool,
        *,
        store: Path,
        name: str = "",
        tags: Sequence[str] = (),
        server: psutil.Process | None = None,
        interval_s: float = 0.5,
        listener: Listener | None = None,
        spawn: Spawner | None = None,
        live_hook: bool = True,
        max_errors: float = DEFAULT_MAX_ERRORS,
        server_host: ServerOnHost | None = None,
        launcher: Launcher | None = None,
        judge: Judge | None = None,
        stall_timeout_s: float = STALL_TIMEOUT_S,
    ) -> None:
        super().__init__(spec, listener, stall_timeout_s)
        self.tool = tool
        self.store = store
        self.name = name
        self.tags = list(tags)
        self.server = server
        self.interval_s = interval_s
        self.live_hook = live_hook
        self.max_errors = max_errors
        self._judge = judge
        self._watch = ServerWatch(server, server_host, interval_s, self._warn)
        self._launcher: Launcher = launcher or LocalLauncher(spawn or spawn_subprocess)
        self._stop_requested = False
        self._stalls: StallWatch | None = None
        # What the run's end reads of its samples, not the samples.
        self._samples = SampleTally(spec.threads)
        self._t0_us = 0
        self._steering = Steering(spec)
        self._first = self._steering.track.load
        self._readers: list[asyncio.Task[None]] = []
        self._workdir: Path | None = None
        self._sampler: ResourceSampler | None = None
        # When a run that ended paused ended: as its pause did, not once its loops wound down.
        self._pause_end_s: float | None = None

    def stop(self) -> None:
        """Stop the run early; what was measured so far is kept (status "interrupted")."""
        self._stop_requested = True
        self._steering.release()
        if self._launched is not None:
            self._launched.interrupt()

    def steer(self, change: str, value: float | None = None) -> str | None:
        """Change the load (steering.py): None when it will be, else why not, in a line."""
        refused = unsteerable(self.spec)
        if refused is not None:
            return refused
        launched = self._launched
        if launched is None or self._feed is None or self._stop_requested:
            return "the load can change only while the run goes"
        if not launched.local:
            return "a generator on another host cannot be steered"
        return self._steering.ask(change, value, self._run_s(), self._done())

    def _done(self) -> int:
        return self._ingest.requests if self._ingest is not None else 0

    async def run(self) -> RunFinished:
        with run_workdir() as workdir:
            try:
                await self._watch.start()
                return await self._run(workdir)
            finally:
                await self._watch.stop()

    async def _run(self, workdir: Path) -> RunFinished:
        self._workdir = workdir
        invocation = self._invocation(self._steering.spec_at(self._first, 0.0, 0), workdir)
        started = datetime.now(UTC)
        session_id = new_session_id(started.astimezone(), self.spec.tool, self.name)
        draft = SessionDraft(
            id=session_id,
            spec=self.spec,
            argv=list(invocation.argv),
            tool=asdict(self.tool),
            host=host_facts(),
            started_at=started.isoformat(),
            name=self.name,
            tags=self.tags,
            server=self._watch.describe(),
        )
        journal = self._journal = JournalWriter(
            journal_path(self.store, session_id), draft.header()
        )
        self._t0_us = time.time_ns() // 1000
        self._t0 = time.monotonic()
        sampler = self._sampler = ResourceSampler(
            self.server, None, self.interval_s, clock=lambda: time.monotonic() - self._t0
        )
        launched = self._launched = await self._launcher.launch(invocation)
        if launched.origin is not None:
            self._t0, self._t0_us = launched.origin
        self._log_t0_us = self._t0_us + launched.clock_offset_us
        if invocation.log_file is not None:
            self._stalls = StallWatch(self._log_t0_us)
            schedule = Schedule.of(self._steering.spec_at(self._first, 0.0, 0), self._log_t0_us)
            self._ingest = LogIngest(self._log_t0_us, schedule, self._stalls.observe)
            source = launched.log or LogTail(invocation.log_file)
            self._feed = LogFeed(self._ingest, source, self._log_t0_us)
        proc = launched.process
        if launched.local:
            sampler.set_client(proc.pid)
        # Resolving a host name can block: off the loop, once, while the tool starts. A
        # tool on another host shares no machine with a server here.
        shared = launched.local and (
            self.server is not None or await asyncio.to_thread(same_machine, self.spec.urls[0])
        )
        if self._stop_requested:
            launched.interrupt()
        self._emit(
            RunStarted(session_id, invocation.argv, proc.pid, draft.server, draft.started_at)
        )
        self._began(segment_started(0, 0.0, self._first, START))
        for warning in whole_seconds(self.spec):
            self._warn(warning)
        if shared:
            self._warn(SAME_MACHINE)
        self._read(proc)
        tool_ended = asyncio.Event()
        sampling = asyncio.create_task(self._sample_loop(sampler, tool_ended))
        traffic = asyncio.create_task(self._traffic_loop(tool_ended))
        # Only a tool here reaches the target as this machine does.
        reach = asyncio.create_task(
            self._cut.watch_target(launched.process, launched.interrupt)
            if launched.local
            else _idle()
        )
        try:
            exit_code = await self._follow(launched)
            # A tool that failed by itself ends the run (its stages too): the next would too.
            while not exit_code and (going_on := await self._next_segment()) is not None:
                launched, exit_code = going_on
        finally:
            # The tool going now: a steered run's latest, not the first.
            launched = self._launched or launched
            proc = launched.process
            self._cut.stop_watching()
            reach.cancel()
            if proc.returncode is None:
                sampling.cancel()  # stopped from outside: the tool is killed below
            tool_ended.set()
            await asyncio.gather(reach, traffic, sampling, return_exceptions=True)
            if proc.returncode is None:
                launched.kill()
                await proc.wait()
        await asyncio.gather(*self._readers, return_exceptions=True)
        # The run ends when the tool did, not when its last output and log were read; a
        # tool stopped after it said its time was over, when it said so; a run that ended
        # paused, when its pause did.
        end_s = self._pause_end_s
        if end_s is None:
            end_s = (proc.exited_at or time.monotonic()) - self._t0
        if self._cut.ended_on_time and self._cut.over_s is not None:
            end_s = min(end_s, self._cut.over_s)
        await self._cut.after_exit(exit_code, self._stop_requested)
        await self._final_log(end_s)
        # Where the run stood as it ended: a view's clock and progress say so, not the last
        # tick before it (a run of 3.08 s was left saying "elapsed 00:02").
        fraction, phase = self._progress.at(end_s)
        self._emit(Progress(end_s, fraction, self._progress.done, phase))
        return await self._finish(invocation, journal, exit_code, shared, end_s)

    def _invocation(self, spec: RunSpec, workdir: Path) -> Invocation:
        return build(
            spec,
            self.tool.path,
            self.tool.version,
            workdir,
            live_hook=self.live_hook,
            stall_timeout_s=self._cut.stall_timeout_s,
        )

    def _read(self, proc: Process) -> None:
        self._readers += [
            asyncio.create_task(read_lines(proc.stdout, partial(self._line, "stdout"))),
            asyncio.create_task(read_lines(proc.stderr, partial(self._line, "stderr"))),
        ]

    async def _next_segment(self) -> tuple[Launched, int] | None:
        """After the tool going ended: the next segment's, started, and its exit status
        once it ended; None when the run is over."""
        steering = self._steering
        cut = self._cut.warning is not None or self._cut.unreachable is not None
        going_on = None if cut or self._stop_requested else steering.take()
        if going_on is None:
            return None
        assert self._launched is not None and self._feed is not None
        load, cause = going_on
        ended_s = (self._launched.process.exited_at or time.monotonic()) - self._t0
        if load.paused:
            self._began(steering.begin(ended_s, ended_s, load, cause))
            self._feed.next_source(NoLog(), None, self._log_us(ended_s))
            planned = self.spec.planned_s
            going_on = await steering.resumed(None if planned is None else planned - ended_s)
            if going_on is None or self._stop_requested:
                # Its timer fires a little late on a busy machine: a run of 3 s is 3 s.
                self._pause_end_s = min(self._run_s(), planned or math.inf)
                return None
            load, cause = going_on
            ended_s = self._run_s()
        elapsed = self._run_s()
        if steering.ending(elapsed, self._done()):
            return None
        spec = steering.spec_at(load, elapsed, self._done())
        assert self._workdir is not None
        workdir = self._workdir / f"segment-{steering.track.count}"
        workdir.mkdir()
        invocation = self._invocation(spec, workdir)
        # Before it starts: none of its requests is timed by the schedule before it.
        from_us = self._log_us(self._run_s())
        launched = self._launched = await self._launcher.launch(invocation)
        if self._stop_requested:
            launched.interrupt()  # stopped while it started: stop() reached the last one
        start_s = self._run_s()
        assert invocation.log_file is not None
        self._began(steering.begin(ended_s, start_s, load, cause))
        self._feed.next_source(LogTail(invocation.log_file), Schedule.of(spec, from_us), from_us)
        assert self._sampler is not None
        self._sampler.set_client(launched.process.pid)
        self._progress.next_tool()
        self._cut.next_tool()
        self._read(launched.process)
        return launched, await self._follow(launched)

    async def _follow(self, launched: Launched) -> int:
        """The tool's exit status; 0 when it was stopped for the next segment."""
        self._steering.changing = False
        exit_code = await wait_for_exit(launched, self._should_stop)
        return 0 if self._steering.changing and not self._stop_requested else exit_code

    def _began(self, segment: SegmentStarted) -> None:
        assert self._journal is not None
        load = self._steering.track.load
        record = begun_record(
            segment.start_s, load.target_rps, load.running_connections, segment.cause
        )
        self._journal.write("segment", record)
        self._emit(segment)

    def _log_us(self, run_s: float) -> int:
        return self._log_t0_us + int(run_s * 1e6)

    def _should_stop(self, launched: Launched) -> bool:
        """Asked to stop, cut short, its load changed or its stage over (the tool is then
        interrupted here)."""
        if self._stop_requested:
            return True
        if self._steering.due(self._run_s()):
            launched.interrupt()
            return True
        if self._cut.due(self._progress.done, counted=self._ingest is not None):
            launched.interrupt()
            return True
        return False

    async def _sample_loop(self, sampler: ResourceSampler, tool_ended: asyncio.Event) -> None:
        def read(sample: ResourceSample) -> None:
            self._record(sample)
            # The last reading looks too: a tool that gives up on a reset connection (ab)
            # ends before a tick sees why. The tool has exited by then: no client figures.
            self._cut.lost(self._watch.exited(sampler.server_exited))

        await sample_until(sampler, self.interval_s, tool_ended, read)

    def _record(self, sample: ResourceSample) -> None:
        sample = self._watch.merged(sample)
        if self._launched is not None:
            sample = self._launched.with_client(sample)
        self._samples.add(sample)
        self._series.add_sample(sample)
        assert self._journal is not None
        self._journal.write("sample", asdict(sample))
        self._emit(ResourcesSampled(sample))

    def _second_latency(self, t_s: int, histogram: LatencyHistogram) -> None:
        self._steering.track.add_second(t_s, histogram)

    async def _finish(
        self,
        invocation: Invocation,
        journal: JournalWriter,
        exit_code: int,
        shared: bool,
        end_s: float,
    ) -> RunFinished:
        stdout = "".join(self._output["stdout"])
        stderr = "".join(self._output["stderr"])
        # Each tool of a steered run summed up its own segment: the run's result is the log's.
        steered = self._steering.steered
        result = build_result(
            self.spec,
            self.tool,
            "" if steered else stdout,
            "" if steered else stderr,
            None if steered else invocation.json_file,
            self._ingest,
            end_s,
        )
        if self._ingest is None:
            # The seconds left of a tool that only reports running counts, the last one
            # holding what its own total leaves: the rows add up to the result.
            total = result.requests.total if result is not None else None
            for second, requests in self._counts.finish(end_s, total):
                window = window_of(second, end_s)
                self._row(traffic_from_count(second, requests, window))
        self._minutes.close(journal)
        seconds = self._seconds.rows(before=self._feed.lost_from if self._feed else None)
        rate = None if steered else rate_figures(self.spec, seconds)
        if result is not None and rate is not None:
            result = result.with_(rate=rate)
        redirect = None
        if self._launched is not None and self._launched.local:
            result, redirect = await redirects_of(self.spec, result)
        cut = self._cut.reason(stderr, self._progress.done)
        status, message, unreachable = ending(
            self._cut, self._stop_requested, exit_code, result, stderr, cut
        )
        warnings = run_warnings(
            self.spec,
            result,
            seconds,
            stdout,
            same_machine=shared,
            client_bound=self._samples.client_bound(),
            steered=steered,
        )
        warnings += self._run_warnings
        if redirect is not None:
            warnings.append(redirect)
        if cut is not None:
            warnings.append(cut)
        overall = self._ingest.overall if self._ingest is not None else None
        warnings += stall_of_run(self.spec, result, seconds, self._stalls, overall)
        judged = partial(
            judge_run,
            self.spec,
            status,
            message,
            result,
            stdout=stdout,
            max_errors=self.max_errors,
            unreachable=unreachable is not None,
        )
        validity = judged([asdict(w) for w in warnings])
        segments = None
        if steered and self._ingest is not None:
            segments, missed = self._steering.track.segments(
                self.spec,
                seconds,
                end_s,
                validity.verdict,
                self._ingest.of_files,
                self._ingest.first_sent_of_files,
            )
            warnings += missed
            validity = judged([asdict(w) for w in warnings])
        resources = {
            **self._samples.summary(),
            "server_probe_cpu_mean_pct": self._watch.probe_cpu_mean_pct,
        }
        end = RunEnd(
            status=status,
            exit_code=exit_code,
            ended_at=datetime.now(UTC).isoformat(),
            result=result,
            resources=resources,
            message=message,
            validity=validity,
            max_errors=self.max_errors,
            # h2load logs no warm-up request: the histogram is of the measured requests.
            histogram=overall,
            service_histogram=self._ingest.service_overall if self._ingest else None,
            segments=segments,
        )
        finished, _ = await end_of_run(journal, end, warnings, self._judge, self._warn)
        self._emit(finished)
        return finished


async def _idle() -> None:
    """Nothing to check."""
