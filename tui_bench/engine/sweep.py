"""Runs a sweep plan: every point's tool and server found before any load (`prepare`;
`prepare_fleet` with load generators on their hosts), then one run at a time (concurrent
runs would spoil each other's numbers), a cool-down between runs, and the whole sweep kept
as ONE session.

The sweep is journaled like a single run (storage/journal.py): its header holds the plan;
each finished run is appended whole (its own session document) and followed by the points'
aggregates so far; the end record holds the status and the threshold verdicts. The run that
is going journals in a working directory beside the sweep's journal
(`store.runs_dir`), so no per-run file ever lands in the store: stopped (`stop`, which the
front ends call on Ctrl-C, SIGTERM or SIGHUP), the going run ends and is kept as
interrupted; after a kill -9 the store's recovery adopts it from there.

The points' aggregates are analysis/sweep_points.py's, over their completed runs only. A
point's req/s and latency are the medians of its runs' own (records.sweep_point: the run
is the unit); the spread (mean, sd, range, 95 % CI) and the percentiles of the runs' merged
histograms (for tools without per-request times, the worst run's, which bounds the pooled
one from above) are kept beside them.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import psutil

from tui_bench.analysis.sweep_points import aggregate, latency_keys, run_values
from tui_bench.analysis.thresholds import Threshold
from tui_bench.analysis.verdicts import Verdicts
from tui_bench.engine.events import Event, Listener, RunFinished
from tui_bench.engine.fleet import Controller
from tui_bench.engine.fleet_check import find_generators, remote_only, tools_of
from tui_bench.engine.generators import Generator
from tui_bench.engine.options import EngineOptions
from tui_bench.engine.recorder import Judge, Recorded, record_end
from tui_bench.engine.server_watch import describe_server
from tui_bench.errors import StoreError, UsageError
from tui_bench.records.sweep_point import SweepSummary
from tui_bench.remote.server import ServerOnHost
from tui_bench.request.sweep_plan import Point, Slot, SweepPlan
from tui_bench.request.sweep_settings import DEFAULT_COOL_DOWN_S
from tui_bench.runners.invocation import build
from tui_bench.runners.tools import Tool, find_tool
from tui_bench.sampling.host import host_facts
from tui_bench.storage import store
from tui_bench.storage.journal import JournalWriter
from tui_bench.storage.session import SWEEP, Session, SweepEntry
from tui_bench.storage.session_records import SessionDraft, SweepEnd
from tui_bench.storage.sweep_codec import summary_record
from tui_bench.validity_defaults import DEFAULT_MAX_ERRORS

if TYPE_CHECKING:
    from tui_bench.engine.prometheus_push import RemoteWrite

# ---- what the runner tells its listener (besides every event of the run that is going)


@dataclass(frozen=True)
class SweepStarted:
    session_id: str
    plan: SweepPlan


@dataclass(frozen=True)
class SweepRunStarted:
    index: int  # from 0, in run order
    total: int | None  # None for a search, whose plan grows as it goes
    point: Point
    repeat: int  # from 0
    rounds: int  # how many runs each point gets
    eta_s: float | None  # until the end of the sweep


@dataclass(frozen=True)
class SweepExtended:
    """A search's next step was chosen: its plan so far."""

    plan: SweepPlan


@dataclass(frozen=True)
class CoolingDown:
    seconds: float


@dataclass(frozen=True)
class SweepRunFinished:
    index: int
    total: int | None
    point: Point
    repeat: int
    rounds: int
    finished: RunFinished  # its session_path is transient: the run lives in the sweep
    values: Mapping[str, float | None]  # what thresholds read from this run
    eta_s: float | None
    # The points' aggregates over every run so far, this one included (`aggregate`).
    summary: SweepSummary


@dataclass(frozen=True)
class SweepFinished:
    status: str
    message: str | None
    session_path: Path
    session: Session
    # Its thresholds (per point) and baseline, judged when it ended.
    verdicts: Verdicts = field(default_factory=Verdicts)


SweepEvent = (
    SweepStarted | SweepRunStarted | SweepExtended | CoolingDown | SweepRunFinished | SweepFinished
)
SweepListener = Callable[[Event | SweepEvent], None]


# ---- preparing: every tool and server found, every invocation built, before the first run


@dataclass(frozen=True)
class Target:
    """What a point runs with: the tool, and the server whose resources are sampled."""

    tool: Tool
    server: psutil.Process | None
    server_host: ServerOnHost | None = None


def prepare(plan: SweepPlan, found: Mapping[str, Tool] | None = None) -> tuple[Target, ...]:
    """The target of each point; ToolMissingError or UsageError (naming the point) before
    anything runs. A tool in `found` (by name) is not looked for here: with generators on
    other hosts only, this machine need not have it. Blocking (tool versions, socket
    tables): not on an event loop."""
    tools: dict[tuple[str, str | None], Tool] = {}
    servers: dict[tuple[Any, ...], psutil.Process | None] = {}
    targets = []
    for point in plan.points:
        spec, request = point.spec, point.request
        key = (spec.tool, point.tool_path)
        if key not in tools:
            tools[key] = found[spec.tool] if found and spec.tool in found else find_tool(*key)
        tool = tools[key]
        try:
            # Building the argv is pure and checks what the spec alone cannot.
            build(spec, tool.path, tool.version, Path("run"))
            auto = request.server_mode == "auto"
            where = (
                request.server_mode,
                request.server_pid,
                request.server_name,
                auto and spec.urls[0],
            )
            if where not in servers:
                servers[where] = request.server()
            on_host = request.on_host()
        except UsageError as exc:
            raise point.usage_error(exc) from None
        targets.append(Target(tool, servers[where], on_host))
    return tuple(targets)


def prepare_fleet(
    plan: SweepPlan, texts: Sequence[str]
) -> tuple[tuple[Target, ...], tuple[Generator, ...]]:
    """`prepare`, and the generators of `texts` found on their hosts (a sweep may vary the
    tool: each one's); with generators on other hosts only, no tool is looked for here."""
    names = sorted({point.spec.tool for point in plan.points})
    if remote_only(texts):
        generators = find_generators(texts, names, {})
        return prepare(plan, tools_of(generators)), generators
    targets = prepare(plan)
    local = {target.tool.name: target.tool for target in targets}
    return targets, find_generators(texts, names, local) if texts else ()


# ---- aggregates (pure, over session documents)


# ---- running


ControllerFactory = Callable[[Point, Target, Path, Listener], Controller]
# A search (capacity): once every planned run has run, its plan grown by the next step (and
# the targets of every point), chosen from the points so far; None when it is done.
Extend = Callable[[SweepPlan, SweepSummary], tuple[SweepPlan, tuple[Target, ...]] | None]


@dataclass(frozen=True)
class SweepOptions:
    cool_down_s: float = DEFAULT_COOL_DOWN_S
    interval_s: float = 0.5
    name: str = ""
    tags: tuple[str, ...] = ()
    live_hook: bool = True
    slo: tuple[Threshold, ...] = ()
    slo_text: str | None = None
    thresholds: tuple[Threshold, ...] = ()
    argv: tuple[str, ...] = ()
    max_errors: float = DEFAULT_MAX_ERRORS
    # Several load generators sharing each run's load, for every tool the sweep runs.
    generators: tuple[Generator, ...] = ()
    # Judges the sweep when it ends (thresholds per point, baseline).
    judge: Judge | None = None
    # A search growing the plan as it goes (`{"kind": "capacity", ...}`), kept in the plan.
    search: Mapping[str, Any] | None = None
    # Where each run's seconds are pushed as they close (Prometheus remote write).
    remote_write: RemoteWrite | None = None

    def controller(
        self, point: Point, target: Target, store_dir: Path, listener: Listener
    ) -> Controller:
        engine = EngineOptions(
            target.server,
            self.interval_s,
            point.name,
            self.tags,
            self.live_hook,
            self.max_errors,
            target.server_host,
            generators=tuple(g for g in self.generators if g.tool.name == point.spec.tool),
            remote_write=self.remote_write,
        )
        return engine.controller(point.spec, target.tool, listener, store_dir)


class SweepRunner:
    def __init__(
        self,
        plan: SweepPlan,
        targets: Sequence[Target],
        options: SweepOptions,
        *,
        store_dir: Path | None = None,
        listener: SweepListener | None = None,
        controller: ControllerFactory | None = None,
        extend: Extend | None = None,
    ) -> None:
        if len(targets) != len(plan.points):
            raise ValueError("one target per point")
        self.plan = plan
        self.targets = tuple(targets)
        self.options = options
        self.store = store_dir or store.sessions_dir()
        self._listener = listener or (lambda event: None)
        self._make: ControllerFactory = controller or options.controller
        self._extend = extend
        self._stop = asyncio.Event()
        self._going: Controller | None = None
        self._elapsed: dict[int, list[float]] = {}

    def stop(self) -> None:
        """Stop the sweep: the going run is stopped and kept; no further run starts."""
        self._stop.set()
        if self._going is not None:
            self._going.stop()

    @property
    def stopped(self) -> bool:
        return self._stop.is_set()

    async def run(self) -> SweepFinished:
        started = datetime.now(UTC)
        first = self.plan.points[0]
        session_id = store.new_session_id(started.astimezone(), SWEEP, self.options.name)
        draft = SessionDraft(
            id=session_id,
            spec=first.spec,
            argv=list(self.options.argv),
            tool=asdict(self.targets[0].tool),
            host=host_facts(),
            started_at=started.isoformat(),
            name=self.options.name,
            tags=list(self.options.tags),
            server=describe_server(self.targets[0].server),
        )
        header = {**draft.header(), "kind": SWEEP, "sweep": self._sweep_header()}
        journal = JournalWriter(store.journal_path(self.store, session_id), header)
        self._listener(SweepStarted(session_id, self.plan))
        runs: list[SweepEntry] = []
        try:
            await self._run_all(journal, runs)
        except BaseException as exc:
            # Whatever stopped the sweep, the runs so far are kept (synchronously: the
            # loop may be going away).
            if isinstance(exc, Exception):
                self._end(journal, runs, "failed", f"{type(exc).__name__}: {exc}")
            else:
                self._end(journal, runs, "interrupted", "the sweep was cancelled")
            raise
        status, message = self._judge(runs)
        recorded = await asyncio.to_thread(self._end, journal, runs, status, message)
        finished = SweepFinished(
            status, message, recorded.path, recorded.session, recorded.verdicts
        )
        self._listener(finished)
        return finished

    def _end(
        self,
        journal: JournalWriter,
        runs: Sequence[SweepEntry],
        status: str,
        message: str | None,
    ) -> Recorded:
        journal.write("summary", self._summary_record(self._aggregate(runs)))
        end = SweepEnd(status, datetime.now(UTC).isoformat(), message)
        return record_end(journal, end, self.options.judge)

    def _sweep_header(self) -> dict[str, Any]:
        return {
            **self.plan.to_dict(),
            "cool_down_s": self.options.cool_down_s,
            "slo": self.options.slo_text,
            "thresholds": [t.text for t in self.options.thresholds],
            **({"search": dict(self.options.search)} if self.options.search else {}),
        }

    def _summary_record(self, summary: SweepSummary) -> dict[str, Any]:
        """The points' aggregates; a search's plan so far with them, since the header holds
        only its first step and each summary record replaces the one before."""
        record = summary_record(summary)
        return record | {"sweep": self._sweep_header()} if self._extend else record

    def _total(self, order: Sequence[Any]) -> int | None:
        """How many runs the sweep makes; unknown for a search, whose plan grows."""
        return None if self._extend is not None else len(order)

    def _grown(self, summary: SweepSummary | None) -> bool:
        """Whether a search has a next step (the plan and targets now include it)."""
        if self._extend is None or summary is None or self.stopped:
            return False
        grown = self._extend(self.plan, summary)
        if grown is None:
            return False
        self.plan, self.targets = grown
        self._listener(SweepExtended(self.plan))
        return True

    def _aggregate(self, runs: Sequence[SweepEntry]) -> SweepSummary:
        return aggregate(
            [p.planned() for p in self.plan.points],
            [(entry.point, entry.session) for entry in runs],
            self.options.slo,
            self.options.slo_text,
            self.options.thresholds,
        )

    async def _run_all(self, journal: JournalWriter, runs: list[SweepEntry]) -> None:
        work = store.runs_dir(journal.path)
        warned: set[str] = set()
        summary: SweepSummary | None = None
        index = -1
        while (index := index + 1) < len(self.plan.order) or self._grown(summary):
            order = self.plan.order
            slot = order[index]
            if index and self.options.cool_down_s > 0 and not self.stopped:
                self._listener(CoolingDown(self.options.cool_down_s))
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._stop.wait(), self.options.cool_down_s)
            if self.stopped:
                break
            point = self.plan.points[slot.point]
            eta = self._eta(order[index:], cool_downs=len(order) - index - 1)
            self._listener(
                SweepRunStarted(
                    index, self._total(order), point, slot.repeat, self.plan.repeat, eta
                )
            )
            clock = time.monotonic()
            controller = self._make(point, self.targets[slot.point], work, self._listener)
            self._going = controller
            if self.stopped:  # a signal between the check above and now
                controller.stop()
            try:
                finished = await controller.run()
            finally:
                self._going = None
            self._elapsed.setdefault(slot.point, []).append(time.monotonic() - clock)
            if finished.unsaved:
                # A store too full for a run's file cannot take the sweep's either.
                raise StoreError(finished.unsaved)
            saved = finished.session
            if saved is None:  # a controller that keeps no session in memory
                saved = await asyncio.to_thread(store.load, finished.session_path)
            entry = SweepEntry(index, slot.point, slot.repeat, saved)
            runs.append(entry)
            journal.write("run", entry.to_record())
            for warning in saved.warnings:
                # The sweep's own warnings: each kind once, whichever run raised it.
                if warning.code not in warned:
                    warned.add(warning.code)
                    journal.write("warning", warning.to_dict())
            # Merging histograms (and the first import of scipy) is off the loop.
            judged, values = await asyncio.to_thread(self._judge_run, list(runs), saved)
            summary = judged
            journal.write("summary", self._summary_record(judged))
            # Durable in the journal before the run's own file goes.
            journal.flush()
            finished.session_path.unlink(missing_ok=True)
            eta = None if self.stopped else self._eta(order[index + 1 :], len(order) - index - 1)
            self._listener(
                SweepRunFinished(
                    index,
                    self._total(order),
                    point,
                    slot.repeat,
                    self.plan.repeat,
                    finished,
                    values,
                    eta,
                    judged,
                )
            )

    def _judge_run(
        self, runs: Sequence[SweepEntry], run: Session
    ) -> tuple[SweepSummary, dict[str, float | None]]:
        """The points' aggregates so far, and what thresholds read from the run."""
        return self._aggregate(runs), run_values(run, latency_keys(self.options.thresholds))

    def _judge(self, runs: Sequence[SweepEntry]) -> tuple[str, str | None]:
        total = len(self.plan.order)
        if self.stopped:
            return "interrupted", f"stopped after {len(runs)} of {total} runs; what ran is kept"
        failed = sum(1 for entry in runs if entry.session.status != "completed")
        if failed:
            return "failed", f"{failed} of {total} runs failed"
        return "completed", None

    def _eta(self, remaining: Sequence[Slot], cool_downs: int) -> float | None:
        """Seconds until the sweep ends: each remaining run as long as the runs of its point
        took so far, else its planned duration, else the mean of every run so far."""
        every = [s for taken in self._elapsed.values() for s in taken]
        total = self.options.cool_down_s * cool_downs
        for slot in remaining:
            taken = self._elapsed.get(slot.point)
            spec = self.plan.points[slot.point].spec
            if taken:
                total += sum(taken) / len(taken)
            elif spec.planned_s is not None:
                total += spec.planned_s
            elif every:
                total += sum(every) / len(every)
            else:
                return None
        return total
