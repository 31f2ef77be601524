"""A sweep, prepared (every point's tool and server, the generators, the servers on other
hosts, the baseline gate per point) before any load, and judged when it ends: each
threshold against each point, the points against the baseline's."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tui_bench.analysis.thresholds import parse_slo
from tui_bench.engine.generators import version_warning
from tui_bench.engine.load_split import split_spec
from tui_bench.engine.sweep import SweepListener, SweepOptions, SweepRunner, Target, prepare_fleet
from tui_bench.errors import UsageError
from tui_bench.jobs.baseline_gate import BaselineGate, Planned, prepare_gate
from tui_bench.jobs.judge import judged
from tui_bench.jobs.run_job import local_file_limit, refuse_unfit_target
from tui_bench.jobs.settings import JobSettings
from tui_bench.remote.server import check
from tui_bench.request.run import RunRequest
from tui_bench.request.sweep_plan import SweepPlan
from tui_bench.request.sweep_settings import DEFAULT_COOL_DOWN_S
from tui_bench.storage.refs import Located


@dataclass(frozen=True)
class SweepJob:
    plan: SweepPlan
    targets: tuple[Target, ...]
    options: SweepOptions
    gate: BaselineGate | None
    notes: tuple[str, ...] = field(default=())

    @property
    def baseline(self) -> Located | None:
        return self.gate.located if self.gate else None

    @property
    def tool_labels(self) -> str:
        return ", ".join(dict.fromkeys(t.tool.label for t in self.targets))

    def runner(self, listener: SweepListener, store_dir: Path | None = None) -> SweepRunner:
        return SweepRunner(
            self.plan, self.targets, self.options, store_dir=store_dir, listener=listener
        )


async def prepare_sweep(
    plan: SweepPlan,
    request: RunRequest,
    settings: JobSettings,
    *,
    cool_down_s: float = DEFAULT_COOL_DOWN_S,
    slo: str | None = None,
    argv: Sequence[str] = (),
    search: Mapping[str, Any] | None = None,
) -> SweepJob:
    """`plan` ready to run; `request` gives what every point shares (its name, tags,
    generators and how it is judged); `search`, what a search that grows the plan is
    (capacity), kept in the session. UsageError, ToolMissingError or SessionError (one
    line, exit 2) before any load."""
    judging = request.judging
    judging.check()
    slo_clauses = tuple(parse_slo(slo)) if slo else ()
    # Each point's first generator's share is what its runs' argv will say.
    firsts = []
    for point in plan.points:
        try:
            shares = split_spec(point.spec, len(request.generators)) if request.generators else []
        except UsageError as exc:
            raise point.usage_error(exc) from None
        firsts.append(shares[0] if shares else point.spec)
    # Tool versions, socket tables, SSH round trips: not on the event loop.
    targets, generators = await asyncio.to_thread(prepare_fleet, plan, request.generators)
    await refuse_unfit_target(request, [point.spec for point in plan.points])
    raised = local_file_limit(request, [point.spec for point in plan.points])
    planned = [
        Planned(point.name or str(point.index + 1), first, target.tool, plan.repeat)
        for point, first, target in zip(plan.points, firsts, targets, strict=True)
    ]
    gate = await asyncio.to_thread(prepare_gate, judging, planned)
    for on_host in dict.fromkeys(t.server_host for t in targets if t.server_host):
        await check(on_host, settings.interval_s)
    thresholds = judging.parsed_thresholds()
    options = SweepOptions(
        cool_down_s=cool_down_s,
        interval_s=settings.interval_s,
        name=request.name,
        tags=request.tags,
        live_hook=settings.live_hook,
        remote_write=settings.remote_write,
        slo=slo_clauses,
        slo_text=slo,
        thresholds=thresholds,
        argv=tuple(argv),
        max_errors=judging.max_errors,
        generators=generators,
        judge=judged(thresholds, gate),
        search=search,
    )
    notes = [f"warning: {n}" for n in (version_warning(generators),) if n]
    notes += [f"note: {raised}"] if raised else []
    notes += [f"baseline: {n}" for n in gate.notes] if gate else []
    return SweepJob(plan, targets, options, gate, tuple(notes))
