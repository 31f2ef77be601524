"""Opening the app from the CLI. Importing this module does not import Textual: `--fps` has
to reach the environment before Textual is first imported."""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from tui_bench.engine.events import Listener, RunFinished
from tui_bench.engine.fleet import Controller
from tui_bench.engine.fleet_check import find_fleet
from tui_bench.engine.load_split import split_spec
from tui_bench.engine.options import EngineOptions
from tui_bench.engine.sweep import SweepFinished, SweepOptions, SweepRunner, Target, prepare_fleet
from tui_bench.engine.sweep_state import StateEvent, SweepState, SweepTitle
from tui_bench.remote.server import check
from tui_bench.request.run import RunRequest
from tui_bench.request.sweep_plan import SweepPlan
from tui_bench.request.sweep_settings import SweepSettings
from tui_bench.runners.tools import Tool, find_tool
from tui_bench.spec import RunSpec
from tui_bench.storage.refs import Located
from tui_bench.storage.session import Session

if TYPE_CHECKING:
    from textual.screen import Screen

    from tui_bench.analysis.history import History
    from tui_bench.analysis.significance import Side
    from tui_bench.ui.app import TuibenchApp
    from tui_bench.ui.screens.live_screen import EngineFactory
    from tui_bench.ui.screens.sweep_screen import SweepEngineFactory, SweepScreen

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
class RunLauncher:
    """Launches the runs the run form asks for, observed as `tuibench run` would."""

    tool_paths: Mapping[str, str | None] = field(default_factory=dict)
    interval_s: float = EngineOptions.interval_s
    live_hook: bool = True

    async def __call__(self, request: RunRequest) -> tuple[EngineFactory, str]:
        split_specs(request, [request.spec])
        tools, generators = await asyncio.to_thread(
            find_fleet, request.generators, [request.spec.tool], self._find_here
        )
        tool = tools[request.spec.tool]
        # Finding the server walks every process's sockets: not on the event loop.
        server = await asyncio.to_thread(request.server)
        on_host = request.on_host()
        if on_host is not None:
            await check(on_host, self.interval_s)
        engine = EngineOptions(
            server,
            self.interval_s,
            request.name,
            request.tags,
            self.live_hook,
            server_host=on_host,
            generators=generators,
        )
        return controller_factory(engine, tool), tool.label

    async def sweep(
        self, request: RunRequest, sweep: SweepSettings, store_dir: Path | None = None
    ) -> tuple[SweepState, SweepTitle, SweepEngineFactory]:
        """What a sweep screen needs for `request` swept so, run as `tuibench sweep` runs it;
        UsageError or ToolMissingError (naming the point) before anything runs."""
        plan = sweep.plan(request, self.tool_paths)
        split_specs(request, [p.spec for p in plan.points])
        # Tool versions, socket tables, SSH round trips: not on the event loop.
        targets, generators = await asyncio.to_thread(prepare_fleet, plan, request.generators)
        options = SweepOptions(
            cool_down_s=sweep.cool_down_s,
            interval_s=self.interval_s,
            name=request.name,
            tags=request.tags,
            live_hook=self.live_hook,
            slo=sweep.slo_clauses(),
            slo_text=sweep.slo,
            generators=generators,
        )
        return sweep_screen_parts(plan, targets, options, store_dir)

    def _find_here(self, name: str) -> Tool:
        return find_tool(name, self.tool_paths.get(name))


def split_specs(request: RunRequest, specs: Sequence[RunSpec]) -> None:
    """UsageError when a spec's load cannot be split across the form's generators."""
    for spec in specs if request.generators else ():
        split_spec(spec, len(request.generators))


def sweep_screen_parts(
    plan: SweepPlan,
    targets: Sequence[Target],
    options: SweepOptions,
    store_dir: Path | None = None,
) -> tuple[SweepState, SweepTitle, SweepEngineFactory]:
    """What a sweep screen is built from, for the command line and the run form alike."""
    tools = ", ".join(dict.fromkeys(t.tool.label for t in targets))
    return (
        SweepState(plan.to_dict(), slo=options.slo, slo_text=options.slo_text),
        SweepTitle.of_plan(plan.to_dict(), options.name, tools),
        sweep_engine(plan, targets, options, store_dir),
    )


def controller_factory(
    engine: EngineOptions, tool: Tool
) -> Callable[[RunSpec, Listener], Controller]:
    def controller(spec: RunSpec, listener: Listener) -> Controller:
        return engine.controller(spec, tool, listener)

    return controller


async def run_live(
    spec: RunSpec,
    tool: Tool,
    engine: EngineOptions,
    ui: UiOptions,
    baseline: Located | None = None,
    *,
    note: str | None = None,
) -> tuple[int, RunFinished | None]:
    """The live screen on one run until the user leaves: the exit status and how it ended.
    `note`: a line under the header (what the demo loads)."""

    def first(app: TuibenchApp) -> Screen[None]:
        from tui_bench.ui.screens.live_screen import LiveScreen

        factory = controller_factory(engine, tool)
        label = tool.label
        return LiveScreen(
            spec, factory, tool_label=label, basic=ui.basic, baseline=baseline, note=note
        )

    return await open_app(ui, first)


async def run_home(ui: UiOptions, launcher: RunLauncher) -> tuple[int, RunFinished | None]:
    def first(app: TuibenchApp) -> Screen[None]:
        from tui_bench.ui.screens.home_screen import HomeScreen

        return HomeScreen()

    return await open_app(ui, first, launcher)


async def run_replay(session: Session, ui: UiOptions) -> tuple[int, RunFinished | None]:
    """A run played back; a sweep shown as it ended (it has no series of its own to play)."""

    def first(app: TuibenchApp) -> Screen[None]:
        if session.is_sweep:
            from tui_bench.ui.screens.sweep_screen import SweepScreen

            return SweepScreen.of_session(session, basic=ui.basic)
        from tui_bench.ui.screens.replay_screen import ReplayScreen

        return ReplayScreen(session, basic=ui.basic)

    return await open_app(ui, first)


def sweep_engine(
    plan: SweepPlan,
    targets: Sequence[Target],
    options: SweepOptions,
    store_dir: Path | None = None,
) -> Callable[[Callable[[StateEvent], None]], SweepRunner]:
    """What the sweep screen runs: the sweep, its events to the screen's listener."""

    def engine(listener: Callable[[StateEvent], None]) -> SweepRunner:
        return SweepRunner(plan, targets, options, store_dir=store_dir, listener=listener)

    return engine


async def run_sweep(
    plan: SweepPlan,
    targets: Sequence[Target],
    options: SweepOptions,
    ui: UiOptions,
    store_dir: Path | None = None,
    baseline: Located | None = None,
) -> tuple[int, SweepFinished | None]:
    """The sweep screen on one sweep until the user leaves: the exit status `sweep
    --headless` would give, and how the sweep ended (None when it never did)."""
    shown: list[SweepScreen] = []

    def first(app: TuibenchApp) -> Screen[None]:
        from tui_bench.ui.screens.sweep_screen import SweepScreen

        parts = sweep_screen_parts(plan, targets, options, store_dir)
        screen = SweepScreen(*parts, basic=ui.basic, baseline=baseline)
        shown.append(screen)
        return screen

    await open_app(ui, first)
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
    launcher: RunLauncher | None = None,
) -> tuple[int, RunFinished | None]:
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
    return (code if code is not None else 130), app.finished
