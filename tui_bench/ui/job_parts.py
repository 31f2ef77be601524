"""What a live screen and a sweep screen are built from a prepared job, for the command
line and the run form alike."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from tui_bench.engine.events import Listener
from tui_bench.engine.fleet import Controller
from tui_bench.engine.sweep_state import SweepState, SweepTitle
from tui_bench.jobs.run_job import RunJob
from tui_bench.jobs.sweep_job import SweepJob
from tui_bench.spec import RunSpec

if TYPE_CHECKING:
    from tui_bench.ui.screens.sweep_screen import SweepEngineFactory


def sweep_screen_parts(
    job: SweepJob, store_dir: Path | None = None
) -> tuple[SweepState, SweepTitle, SweepEngineFactory]:
    """What a sweep screen is built from, for the command line and the run form alike."""
    options = job.options
    plan = job.plan.to_dict()
    return (
        SweepState(plan, slo=options.slo, slo_text=options.slo_text),
        SweepTitle.of_plan(plan, options.name, job.tool_labels),
        lambda listener: job.runner(listener, store_dir),
    )


def controller_factory(job: RunJob) -> Callable[[RunSpec, Listener], Controller]:
    """What a live screen starts: the job's controller (the spec is the job's own)."""

    def controller(spec: RunSpec, listener: Listener) -> Controller:
        return job.controller(listener)

    return controller
