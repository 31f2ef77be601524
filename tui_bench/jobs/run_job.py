"""A run, prepared (tool and hosts found, load split across generators, server found and
checked, baseline gate checked) before any load, and judged when it ends."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass

from tui_bench.engine.events import Listener
from tui_bench.engine.fleet import Controller
from tui_bench.engine.fleet_check import find_fleet
from tui_bench.engine.generators import version_warning
from tui_bench.engine.load_split import split_spec
from tui_bench.engine.options import EngineOptions
from tui_bench.engine.reach import target_refused
from tui_bench.errors import UsageError
from tui_bench.jobs.baseline_gate import BaselineGate, Planned, prepare_gate
from tui_bench.jobs.judge import judged
from tui_bench.jobs.settings import JobSettings
from tui_bench.remote.server import check
from tui_bench.request.run import LOCAL_GENERATOR, RunRequest
from tui_bench.runners.file_limit import fit_file_limit
from tui_bench.runners.tools import Tool
from tui_bench.spec import RunSpec
from tui_bench.storage.refs import Located


@dataclass(frozen=True)
class RunJob:
    request: RunRequest
    tool: Tool
    engine: EngineOptions
    gate: BaselineGate | None
    # What the user should know before the load starts, one line each.
    notes: tuple[str, ...] = ()

    @property
    def spec(self) -> RunSpec:
        return self.request.spec

    @property
    def label(self) -> str:
        """The tool as the screens name it."""
        return self.tool.label

    @property
    def baseline(self) -> Located | None:
        return self.gate.located if self.gate else None

    def controller(self, listener: Listener) -> Controller:
        return self.engine.controller(self.spec, self.tool, listener)


async def prepare_run(request: RunRequest, settings: JobSettings) -> RunJob:
    """`request` ready to run; UsageError, ToolMissingError or SessionError (one line,
    exit 2) for anything that would make it fail or be refused, before any load. Blocking
    look-ups (tool versions, socket tables, the store, SSH) run off the event loop."""
    judging = request.judging
    judging.check()
    spec = request.spec
    # The first generator's share is what its session's argv will say.
    first = split_spec(spec, len(request.generators))[0] if request.generators else spec
    tools, generators = await asyncio.to_thread(
        find_fleet, request.generators, [spec.tool], settings.find_here
    )
    tool = tools[spec.tool]
    gate = await asyncio.to_thread(prepare_gate, judging, [Planned(None, first, tool)])
    # Finding the server walks every process's sockets.
    server = await asyncio.to_thread(request.server)
    await refuse_unfit_target(request, [spec])
    raised = local_file_limit(request, [spec])
    on_host = request.on_host()
    if on_host is not None:
        await check(on_host, settings.interval_s)
    notes = [f"warning: {n}" for n in (version_warning(generators),) if n]
    notes += [f"note: {raised}"] if raised else []
    notes += [f"baseline: {n}" for n in gate.notes] if gate else []
    thresholds = judging.parsed_thresholds()
    engine = EngineOptions(
        server,
        settings.interval_s,
        request.name,
        request.tags,
        settings.live_hook,
        max_errors=judging.max_errors,
        server_host=on_host,
        generators=generators,
        judge=judged(thresholds, gate),
        remote_write=settings.remote_write,
    )
    return RunJob(request, tool, engine, gate, tuple(notes))


async def refuse_unfit_target(request: RunRequest, specs: Sequence[RunSpec]) -> None:
    """UsageError when nothing answers at the target, or it does not speak the protocol the
    run would: every request would fail, no session would be worth keeping and the tool would
    not say why. Asked from here, so only when the load is sent from here (another host may
    reach another server by the same URL, or reach one this one cannot)."""
    if any(g.strip() != LOCAL_GENERATOR for g in request.generators):
        return
    refused = await target_refused(specs)
    if refused is not None:
        raise UsageError(refused)


def local_file_limit(request: RunRequest, specs: Sequence[RunSpec]) -> str | None:
    """Fit the open-file limit to the connections the tool opens here (a line saying it was
    raised); UsageError when the hard limit cannot hold them. A generator on another host
    has a limit of its own."""
    if any(g.strip() != LOCAL_GENERATOR for g in request.generators):
        return None
    return fit_file_limit(specs)
