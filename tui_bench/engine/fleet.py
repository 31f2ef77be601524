"""Several load generators as one run: the load split across them (engine/load_split.py),
each run by its own RunController (here, or on its host through engine/streamed.py), all
started together, and what they measure merged as it comes (engine/merge.py).

The run's session is the merged one, as any single run's, plus `generators`: each
generator's own session document (argv, raw output, result, its CPU and verdict) with its
host, start skew, clock offset and share of the req/s. The generators' journals live in
`<id>.runs/` while the run goes.
"""

from __future__ import annotations

import asyncio
import shutil
from collections.abc import Sequence
from dataclasses import asdict, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import psutil

from tui_bench.analysis.warnings import run_warnings
from tui_bench.engine.events import (
    Event,
    GeneratorsSeen,
    GeneratorView,
    Listener,
    OutputLine,
    Progress,
    ResourcesSampled,
    RunFinished,
    RunStarted,
    SecondClosed,
)
from tui_bench.engine.fleet_latency import merged_histogram, merged_service
from tui_bench.engine.fleet_parts import (
    Child,
    ChildFactory,
    child_session,
    child_warnings,
    describe,
    lost_of,
)

# What runs a run, one generator's or several's: where the front ends and jobs find it.
from tui_bench.engine.fleet_parts import Controller as Controller
from tui_bench.engine.fleet_server import FleetServer
from tui_bench.engine.generators import (
    Generator,
    labels,
    saved_views,
    shares_of_run,
    version_warning,
)
from tui_bench.engine.kept_seconds import KeptSeconds
from tui_bench.engine.load_split import split_spec
from tui_bench.engine.merge import SecondMerger, merged_result
from tui_bench.engine.recorder import Judge, end_of_run
from tui_bench.engine.series import rate_figures
from tui_bench.engine.streamed import StreamedLauncher
from tui_bench.engine.tool_start import LocalLauncher, StartGate
from tui_bench.records.warning import Warning
from tui_bench.remote.server import ServerOnHost
from tui_bench.sampling.host import host_facts
from tui_bench.sampling.samples import ResourceSample
from tui_bench.spec import RunSpec
from tui_bench.storage import store as sessions
from tui_bench.storage.journal import JournalWriter
from tui_bench.storage.session_records import RunEnd, SessionDraft
from tui_bench.validity import judge_run

LOST = "generator-lost"
VERSIONS = "generator-versions"
# Warnings a run's result gives (analysis/warnings.py).
_OF_RESULT = frozenset({"few-samples", "errors", "all-failed", "protocol-mismatch"})


class FleetController:
    def __init__(
        self,
        spec: RunSpec,
        generators: Sequence[Generator],
        listener: Listener,
        store: Path,
        child: ChildFactory,
        *,
        name: str = "",
        tags: Sequence[str] = (),
        interval_s: float = 0.5,
        max_errors: float,
        judge: Judge | None = None,
        server: psutil.Process | None = None,
        server_host: ServerOnHost | None = None,
    ) -> None:
        self.spec = spec
        self.store = store
        self.name = name
        self.tags = list(tags)
        self.max_errors = max_errors
        self._judge = judge
        self._listener = listener
        self._make_child = child
        gate = self._gate = StartGate(len(generators))
        self._children = [
            Child(
                generator,
                label,
                part,
                StreamedLauncher(generator.host, gate, interval_s)
                if generator.host is not None
                else LocalLauncher(gate=gate),
            )
            for generator, label, part in zip(
                generators, labels(generators), split_spec(spec, len(generators)), strict=True
            )
        ]
        self._merger = SecondMerger(len(generators))
        self._merged_seconds = KeptSeconds()
        self._journal: JournalWriter | None = None
        self._session_id = ""
        self._started_at: str | None = None
        self._stopped = False
        self._elapsed = 0.0
        self._warned: set[str] = set()
        self._announced = False
        # Sampled by the run itself: the server's series depends on no one generator.
        self._server = FleetServer(server, server_host, interval_s, self._warn, self._sampled)
        # The rows the last generator's end flushes wait for the server's closing sample.
        self._last_rows: list[Any] = []

    def stop(self) -> None:
        self._stopped = True
        for child in self._children:
            if child.controller is not None:
                child.controller.stop()

    def steer(self, change: str, value: float | None = None) -> str | None:
        """Each generator's tool would restart on its own: the load's change would not be
        the same moment on every one."""
        return "a run of several generators cannot be steered: run from one"

    async def run(self) -> RunFinished:
        started = datetime.now(UTC)
        self._started_at = started.isoformat()
        self._session_id = sessions.new_session_id(started.astimezone(), self.spec.tool, self.name)
        first = self._children[0].generator
        draft = SessionDraft(
            id=self._session_id,
            spec=self.spec,
            argv=[],
            tool=asdict(first.tool),
            host=host_facts(),
            started_at=self._started_at,
            name=self.name,
            tags=self.tags,
        )
        header = {**draft.header(), "generator_hosts": [c.label for c in self._children]}
        path = sessions.journal_path(self.store, self._session_id)
        journal = self._journal = JournalWriter(path, header)
        work = sessions.runs_dir(path)
        versions = version_warning([c.generator for c in self._children])
        if versions is not None:
            # Said at once; kept in the session with the others at the end.
            self._warn(Warning(VERSIONS, versions))
        for index, child in enumerate(self._children):
            child.controller = self._make_child(
                child.spec,
                child.generator.tool,
                self._on_event(index),
                work,
                name=sessions.generator_name(self.name, index, child.label),
                launcher=child.launcher,
                observe_server=False,
            )
            if self._stopped:
                child.controller.stop()
        await self._server.start(self._gate)
        try:
            outcomes = await asyncio.gather(
                *(self._run_child(c.controller) for c in self._children if c.controller),
                return_exceptions=True,
            )
        finally:
            await self._server.stop()
        self._rows(self._last_rows)
        for outcome in outcomes:
            if isinstance(outcome, BaseException) and not isinstance(outcome, Exception):
                raise outcome
        failures = [o for o in outcomes if isinstance(o, Exception)]
        if len(failures) == len(outcomes):
            # Nothing ran (a generator could not get ready, so none started): no session.
            journal.close()
            path.unlink(missing_ok=True)
            shutil.rmtree(work, ignore_errors=True)
            raise failures[0]
        return await self._finish(journal)

    async def _run_child(self, controller: Controller) -> RunFinished:
        try:
            return await controller.run()
        except BaseException as exc:
            # One that fails before the start releases the others waiting for it.
            self._gate.cancel(exc)
            raise

    def _on_event(self, index: int) -> Listener:
        child = self._children[index]
        label = child.label

        def listen(event: Event) -> None:
            assert self._journal is not None
            if isinstance(event, RunStarted):
                if not self._announced:
                    self._announced = True
                    server = self._server.describe()
                    self._emit(
                        replace(
                            event,
                            session_id=self._session_id,
                            server=server,
                            started_at=self._started_at,
                        )
                    )
            elif isinstance(event, OutputLine):
                text = f"[{label}] {event.text}"
                self._journal.write("out", {"s": event.stream, "l": text, "t": self._elapsed})
                self._emit(replace(event, text=text))
            elif isinstance(event, Progress):
                child.done = event.done
                if event.elapsed_s >= self._elapsed:
                    self._elapsed = event.elapsed_s
                    self._emit(self._progress(event))
            elif isinstance(event, SecondClosed):
                child.rps = event.row.get("rps")
                self._rows(self._merger.add(index, event.row, event.histogram, event.service))
            elif isinstance(event, ResourcesSampled):
                child.sample = event.sample
            elif isinstance(event, Warning) and event.code not in _OF_RESULT:
                # Said of the merged result at the end, as the session keeps it.
                self._warn(Warning(event.code, f"{label}: {event.message}"))
            elif isinstance(event, RunFinished):
                child.finished = event
                rows = self._merger.end(index)
                if all(c.finished is not None for c in self._children):
                    self._last_rows += rows
                else:
                    self._rows(rows)
                self._emit(self._views())

        return listen

    def _emit(self, event: Event) -> None:
        self._listener(event)

    def _warn(self, warning: Warning) -> None:
        if warning.code not in self._warned:
            self._warned.add(warning.code)
            self._emit(warning)

    def _rows(self, rows: Sequence[Any]) -> None:
        assert self._journal is not None
        for merged in rows:
            row = {**merged, **self._server.columns(int(merged["t_s"]))}
            self._merged_seconds.add(row)
            self._journal.write("second", row)
            self._emit(SecondClosed(row))
        if rows:
            self._emit(self._views())

    def _sampled(self, sample: ResourceSample) -> None:
        """The server's sample, with the busiest running generator's CPU beside it (as the
        series' rows have it)."""
        assert self._journal is not None
        running = [c.sample for c in self._children if c.sample and c.finished is None]
        sample = replace(
            sample,
            client_cpu_pct=_most([s.client_cpu_pct for s in running]),
            client_thread_max_pct=_most([s.client_thread_max_pct for s in running]),
        )
        self._server.record(sample)
        self._journal.write("sample", asdict(sample))
        self._emit(ResourcesSampled(sample))

    def _views(self) -> GeneratorsSeen:
        rates = [c.rps for c in self._children if c.rps is not None]
        total = sum(rates)
        return GeneratorsSeen(
            tuple(
                GeneratorView(
                    label=c.label,
                    tool=c.generator.tool.name,
                    version=c.generator.tool.version,
                    rps=c.rps,
                    share=c.rps / total if c.rps is not None and total else None,
                    cpu_pct=c.sample.client_cpu_pct if c.sample else None,
                    busiest_thread_pct=c.sample.client_thread_max_pct if c.sample else None,
                    lost=lost_of(c),
                    ended=c.finished is not None,
                )
                for c in self._children
            )
        )

    def _progress(self, first: Progress) -> Progress:
        counts = [c.done for c in self._children]
        done = sum(d for d in counts if d is not None) if any(counts) else None
        fraction = first.fraction
        if self.spec.count_mode and done is not None and self.spec.requests:
            fraction = min(1.0, done / self.spec.requests)
        return Progress(first.elapsed_s, fraction, done, first.phase)

    async def _finish(self, journal: JournalWriter) -> RunFinished:
        own = [child_session(c) for c in self._children]
        entries = [describe(c, s) for c, s in zip(self._children, own, strict=True)]
        # What a generator's own result says of its share (too few requests for a p99, ...)
        # is said again of the merged result below, not of each share.
        warnings = [
            w
            for c, s in zip(self._children, own, strict=True)
            for w in child_warnings(c, s)
            if w.code not in _OF_RESULT
        ]
        lost = [e.run.lost for e in entries if e.run.lost]
        warnings += [Warning(LOST, f"{message}: the run went on without it") for message in lost]
        warnings += self._server.warnings
        versions = version_warning([c.generator for c in self._children])
        if versions is not None:
            warnings.append(Warning(VERSIONS, versions))
        results = [r for r in (s.result for s in own if s) if r is not None]
        histogram, approx = merged_histogram(own)
        service = merged_service(own)
        connections = [c.spec.connections for c in self._children]
        result = (
            merged_result(results, histogram, connections, service, approx=approx)
            if results
            else None
        )
        rate = rate_figures(self.spec, self._merged_seconds.rows())
        if result is not None and rate is not None:
            result = result.with_(rate=rate)
        warnings += run_warnings(self.spec, result, [], "", same_machine=False, client_bound=False)
        if result is not None:
            done = [s.result.requests.done if s and s.result else None for s in own]
            shared = shares_of_run([e.run for e in entries], done, result)
            entries = [replace(e, run=run) for e, run in zip(entries, shared, strict=True)]
        status, message = self._status(lost)
        stdout = "".join(str(s.part("raw").get("stdout") or "") for s in own if s)
        unreachable = next(
            (
                r.message
                for s in own
                if s and s.validity
                for r in s.validity.reasons
                if r.code == "unreachable"
            ),
            None,
        )
        validity = judge_run(
            self.spec,
            status,
            unreachable or message,
            result,
            [asdict(w) for w in warnings],
            stdout,
            max_errors=self.max_errors,
            unreachable=unreachable is not None,
        )
        end = RunEnd(
            status="failed" if unreachable else status,
            exit_code=0 if status == "completed" else 1,
            ended_at=datetime.now(UTC).isoformat(),
            result=result,
            resources=self._server.resources(),
            message=unreachable or message,
            validity=validity,
            max_errors=self.max_errors,
            histogram=histogram,
            approx=approx,
            service_histogram=service,
            generators=entries,
            server=self._server.describe(),
            argv=list(entries[0].run.argv or []),
        )
        finished, recorded = await end_of_run(journal, end, warnings, self._judge, self._warn)
        # Once ended, the panel shows the whole run's figures, as the saved run does.
        views = saved_views(recorded.session)
        if views is not None:
            self._emit(views)
        self._emit(finished)
        return finished

    def _status(self, lost: Sequence[str]) -> tuple[str, str | None]:
        if self._stopped:
            return "interrupted", "stopped before the end; what was measured is kept"
        ended = [c.finished for c in self._children]
        failed = [
            (c.label, f.message if f is not None else "it could not start")
            for c, f in zip(self._children, ended, strict=True)
            if f is None or (f.status == "failed" and not lost_of(c))
        ]
        if failed:
            label, why = failed[0]
            return "failed", f"{label}: {why or 'the generator failed'}"
        if len(lost) == len(self._children):
            return "failed", "every generator was lost"
        if any(f is not None and f.status == "interrupted" for f in ended):
            return "interrupted", "a generator was stopped before the end"
        return "completed", None


def _most(values: Sequence[float | None]) -> float | None:
    return max((v for v in values if v is not None), default=None)
