"""The live screen and the sweep screen of a prepared job, for the command line and the run
form alike."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from tui_bench.engine.events import Listener
from tui_bench.engine.fleet import Controller
from tui_bench.engine.sweep_state import SweepState, SweepTitle
from tui_bench.jobs.capacity_job import CapacityJob
from tui_bench.jobs.run_job import RunJob
from tui_bench.jobs.sweep_job import SweepJob
from tui_bench.spec import RunSpec
from tui_bench.ui.screens.live_screen import LiveScreen
from tui_bench.ui.screens.sweep_screen import SweepScreen


def live_screen(job: RunJob, *, basic: bool, note: str | None = None) -> LiveScreen:
    """The screen that runs `job`; `note`: a line under its header (what the demo loads)."""

    def controller(spec: RunSpec, listener: Listener) -> Controller:
        # The spec is the job's own.
        return job.controller(listener)

    return LiveScreen(
        job.spec,
        controller,
        tool_label=job.label,
        basic=basic,
        baseline=job.baseline,
        note=note,
    )


def job_screen(
    job: RunJob | SweepJob | CapacityJob,
    *,
    basic: bool,
    note: str | None = None,
    store_dir: Path | None = None,
) -> LiveScreen | SweepScreen:
    """The screen that runs `job`, a run's (`note` under its header) or a sweep's or a
    capacity search's (saving into `store_dir`)."""
    if isinstance(job, SweepJob | CapacityJob):
        return sweep_screen(job, store_dir, basic=basic)
    return live_screen(job, basic=basic, note=note)


def sweep_screen(
    job: SweepJob | CapacityJob, store_dir: Path | None = None, *, basic: bool
) -> SweepScreen:
    """The screen that runs `job`, saving into `store_dir` (the store's default if None): a
    capacity search is its sweep, growing a step at a time."""
    sweep = job.sweep if isinstance(job, CapacityJob) else job
    options = sweep.options
    # A search's plan grows as it goes: kept as the session keeps it, so the state knows.
    plan = replace(sweep.plan.record(), search=options.search)
    return SweepScreen(
        SweepState(plan, slo=options.slo, slo_text=options.slo_text),
        SweepTitle.of_plan(plan, options.name, sweep.tool_labels),
        lambda listener: job.runner(listener, store_dir),
        basic=basic,
        baseline=sweep.baseline,
    )
