"""Opening the app from the CLI. Importing this module does not import Textual: `--fps` has
to reach the environment before Textual is first imported."""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from tui_bench.engine.events import RunFinished
from tui_bench.engine.sweep import SweepFinished
from tui_bench.jobs.run_job import RunJob, prepare_run
from tui_bench.jobs.settings import JobSettings
from tui_bench.jobs.sweep_job import SweepJob, prepare_sweep
from tui_bench.request.run import RunRequest
from tui_bench.request.sweep_settings import SweepSettings
from tui_bench.storage.session import Session
from tui_bench.ui.job_parts import controller_factory, sweep_screen_parts

if TYPE_CHECKING:
    from textual.screen import Screen

    from tui_bench.analysis.history import History
    from tui_bench.analysis.significance import Side
    from tui_bench.ui.app import TuibenchApp
    from tui_bench.ui.screens.sweep_screen import SweepScreen

# A dropped SSH connection or a kill ends the run as Ctrl-C would: saved, then quit.
STOP_SIGNALS = (signal.SIGTERM, signal.SIGHUP)


@dataclass(frozen=True)
class UiOptions:
    theme: str | None = None
    mouse: bool = True
    fps: int | None = None
    basic: bool = False

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> UiOptions:
        return cls(theme=args.theme, mouse=not args.no_mouse, fps=args.fps, basic=args.basic)


@dataclass(frozen=True)
class JobLauncher:
    """Prepares the runs and sweeps the run form asks for, through the job layer as the
    command line does: same checks, same refusals, same verdicts."""

    settings: JobSettings = field(default_factory=JobSettings)

    async def __call__(self, request: RunRequest) -> RunJob:
        return await prepare_run(request, self.settings)

    async def sweep(self, request: RunRequest, sweep: SweepSettings) -> SweepJob:
        """`request` swept so; UsageError or ToolMissingError (naming the point) before
        anything runs."""
        plan = sweep.plan(request, self.settings.tool_paths)
        return await prepare_sweep(
            plan, request, self.settings, cool_down_s=sweep.cool_down_s, slo=sweep.slo
        )


async def run_live(
    job: RunJob, ui: UiOptions, *, note: str | None = None
) -> tuple[int, RunFinished | None]:
    """The live screen on one run until the user leaves: the exit status and how it ended.
    `note`: a line under the header (what the demo loads)."""

    def first(app: TuibenchApp) -> Screen[None]:
        from tui_bench.ui.screens.live_screen import LiveScreen

        return LiveScreen(
            job.spec,
            controller_factory(job),
            tool_label=job.label,
            basic=ui.basic,
            baseline=job.baseline,
            note=note,
        )

    return await open_app(ui, first, notes=job.notes)


async def run_home(ui: UiOptions, settings: JobSettings) -> tuple[int, RunFinished | None]:
    def first(app: TuibenchApp) -> Screen[None]:
        from tui_bench.ui.screens.home_screen import HomeScreen

        return HomeScreen()

    return await open_app(ui, first, JobLauncher(settings))


async def run_replay(session: Session, ui: UiOptions) -> tuple[int, RunFinished | None]:
    """A run played back; a sweep shown as it ended (it has no series of its own to play)."""

    def first(app: TuibenchApp) -> Screen[None]:
        if session.is_sweep:
            from tui_bench.ui.screens.sweep_screen import SweepScreen

            return SweepScreen.of_session(session, basic=ui.basic)
        from tui_bench.ui.screens.replay_screen import ReplayScreen

        return ReplayScreen(session, basic=ui.basic)

    return await open_app(ui, first)


async def run_sweep(
    job: SweepJob, ui: UiOptions, store_dir: Path | None = None
) -> tuple[int, SweepFinished | None]:
    """The sweep screen on one sweep until the user leaves: the exit status `sweep
    --headless` would give, and how the sweep ended (None when it never did)."""
    shown: list[SweepScreen] = []

    def first(app: TuibenchApp) -> Screen[None]:
        from tui_bench.ui.screens.sweep_screen import SweepScreen

        screen = SweepScreen(
            *sweep_screen_parts(job, store_dir), basic=ui.basic, baseline=job.baseline
        )
        shown.append(screen)
        return screen

    await open_app(ui, first, notes=job.notes)
    return shown[0].exit_code, shown[0].finished


async def run_compare(a: Side, b: Side, ui: UiOptions) -> tuple[int, RunFinished | None]:
    def first(app: TuibenchApp) -> Screen[None]:
        from tui_bench.ui.screens.compare_screen import CompareScreen

        return CompareScreen(a, b)

    return await open_app(ui, first)


async def run_history(history: History, ui: UiOptions) -> tuple[int, RunFinished | None]:
    def first(app: TuibenchApp) -> Screen[None]:
        from tui_bench.ui.screens.history_screen import HistoryScreen

        return HistoryScreen(history)

    return await open_app(ui, first)


async def open_app(
    ui: UiOptions,
    first: Callable[[TuibenchApp], Screen[None]],
    launcher: JobLauncher | None = None,
    notes: Sequence[str] = (),
) -> tuple[int, RunFinished | None]:
    if ui.fps is not None:
        os.environ["TEXTUAL_FPS"] = str(ui.fps)
    from tui_bench.ui.app import TuibenchApp

    app = TuibenchApp(first, launcher=launcher, basic=ui.basic, theme=ui.theme, notes=notes)
    loop = asyncio.get_running_loop()
    for sig in STOP_SIGNALS:
        loop.add_signal_handler(sig, app.stop_and_quit)
    try:
        code = await app.run_async(mouse=ui.mouse)
    finally:
        for sig in STOP_SIGNALS:
            loop.remove_signal_handler(sig)
    return (code if code is not None else 130), app.finished
