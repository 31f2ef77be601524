"""Opening the live monitor from the CLI. Importing this module does not import Textual:
`--fps` has to reach the environment before Textual is first imported."""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
from dataclasses import dataclass

from tui_bench.engine.controller import EngineOptions, Listener, RunController
from tui_bench.engine.events import RunFinished
from tui_bench.runners.tools import Tool
from tui_bench.spec import RunSpec

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


async def run_live(
    spec: RunSpec, tool: Tool, engine: EngineOptions, ui: UiOptions
) -> tuple[int, RunFinished | None]:
    """Run the app until the user leaves it: its exit status and how the last run ended."""
    if ui.fps is not None:
        os.environ["TEXTUAL_FPS"] = str(ui.fps)
    from tui_bench.ui.app import TuibenchApp

    def controller(run_spec: RunSpec, listener: Listener) -> RunController:
        return engine.controller(run_spec, tool, listener)

    app = TuibenchApp(
        spec,
        controller,
        tool_label=f"{tool.name} {tool.version or ''}".strip(),
        basic=ui.basic,
        theme=ui.theme,
    )
    loop = asyncio.get_running_loop()
    for sig in STOP_SIGNALS:
        loop.add_signal_handler(sig, app.live.stop_and_quit)
    try:
        code = await app.run_async(mouse=ui.mouse)
    finally:
        for sig in STOP_SIGNALS:
            loop.remove_signal_handler(sig)
    return (code if code is not None else 130), app.finished
