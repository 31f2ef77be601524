"""Opening the app from the CLI. Importing this module does not import Textual: `--fps` has
to reach the environment before Textual is first imported."""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from tui_bench.errors import EXIT_INTERRUPTED
from tui_bench.jobs.settings import JobSettings

# The engine and the job layer are imported once the first frame is up (`PreparingScreen`).
if TYPE_CHECKING:
    from textual.screen import Screen

    from tui_bench.analysis.history import History
    from tui_bench.analysis.significance import Side
    from tui_bench.engine.events import RunFinished
    from tui_bench.engine.sweep import SweepFinished
    from tui_bench.jobs.capacity_job import CapacityJob
    from tui_bench.jobs.run_job import RunJob
    from tui_bench.jobs.sweep_job import SweepJob
    from tui_bench.request.run import RunRequest
    from tui_bench.request.sweep_settings import SweepSettings
    from tui_bench.storage.session import Session
    from tui_bench.ui.app import FirstScreen, TuibenchApp
    from tui_bench.ui.screens.preparing_screen import Prepare

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
        from tui_bench.jobs.run_job import prepare_run

        return await prepare_run(request, self.settings)

    async def sweep(self, request: RunRequest, sweep: SweepSettings) -> SweepJob | CapacityJob:
        """`request` swept so (or its capacity searched); UsageError or ToolMissingError
        (naming the point) before anything runs."""
        if sweep.capacity:
            from tui_bench.jobs.capacity_job import prepare_capacity

            return await prepare_capacity(
                request,
                self.settings,
                slo=sweep.slo or "",
                step_s=request.spec.duration_s,
                repeat=sweep.repeat,
                cool_down_s=sweep.cool_down_s,
            )
        from tui_bench.jobs.sweep_job import prepare_sweep

        plan = sweep.plan(request, self.settings.tool_paths)
        return await prepare_sweep(
            plan, request, self.settings, cool_down_s=sweep.cool_down_s, slo=sweep.slo
        )


async def run_live(
    request: RunRequest, settings: JobSettings, ui: UiOptions, *, note: str | None = None
) -> tuple[int, RunFinished | None]:
    """The live screen on one run until the user leaves: the exit status and how it ended;
    what the job layer refuses is raised once the app has left."""
    return await open_app(ui, live_run(request, settings, basic=ui.basic, note=note))


def live_run(
    request: RunRequest, settings: JobSettings, *, basic: bool, note: str | None = None
) -> FirstScreen:
    """The app's first screen for one run: what runs, at once; the run prepared once that
    frame is up, then its live screen. `note`: a line under the header (what the demo loads)."""

    def first(app: TuibenchApp) -> Screen[None]:
        def prepare() -> Awaitable[Screen[None]]:
            return app.prepared_screen(
                lambda: JobLauncher(settings)(request), basic=basic, note=note
            )

        return preparing(request.spec.tool, request.spec.urls, prepare, note)

    return first


def preparing(
    what: str, urls: Sequence[str], prepare: Prepare, note: str | None = None
) -> Screen[None]:
    from tui_bench.ui.screens.preparing_screen import PreparingScreen, preparing_text

    return PreparingScreen(preparing_text(what, urls, note), prepare)


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
    prepare: Callable[[], Awaitable[SweepJob | CapacityJob]],
    what: str,
    urls: Sequence[str],
    ui: UiOptions,
) -> tuple[int, SweepFinished | None]:
    """The sweep screen on the sweep `prepare` gives (once the app's first frame is up) until
    the user leaves: the exit status `sweep --headless` would give, and how the sweep ended
    (None when it never did). What the job layer refuses is raised once the app has left."""

    def first(app: TuibenchApp) -> Screen[None]:
        return preparing(what, urls, lambda: app.prepared_screen(prepare, basic=ui.basic))

    code, app = await run_app(ui, first)
    if app.job is None:
        return code, None
    from tui_bench.ui.screens.sweep_screen import SweepScreen

    sweep = app.job
    return (sweep.exit_code, sweep.finished) if isinstance(sweep, SweepScreen) else (code, None)


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
) -> tuple[int, RunFinished | None]:
    """The app until the user leaves: its exit status and how its last run ended. A run the
    job layer refused while the first screen prepared it is raised here, once the terminal
    is back."""
    code, app = await run_app(ui, first, launcher)
    return code, app.finished


async def run_app(
    ui: UiOptions,
    first: Callable[[TuibenchApp], Screen[None]],
    launcher: JobLauncher | None = None,
) -> tuple[int, TuibenchApp]:
    """`open_app`, with the app it ran (its last job screen)."""
    if ui.fps is not None:
        os.environ["TEXTUAL_FPS"] = str(ui.fps)
    from tui_bench.ui.app import TuibenchApp

    app = TuibenchApp(first, launcher=launcher, basic=ui.basic, theme=ui.theme)
    loop = asyncio.get_running_loop()
    for sig in STOP_SIGNALS:
        loop.add_signal_handler(sig, app.stop_and_quit)
    try:
        code = await app.run_async(mouse=ui.mouse)
    finally:
        for sig in STOP_SIGNALS:
            loop.remove_signal_handler(sig)
    if app.refusal is not None:
        raise app.refusal
    return (code if code is not None else EXIT_INTERRUPTED), app
