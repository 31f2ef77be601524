"""A run started from the command line: its first frame says what runs before the job layer
has prepared it; a refusal leaves the app and is said once the terminal is back."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from rich.text import Text

from tests.ui import screen_is, until
from tui_bench.demo.content import describe
from tui_bench.errors import EXIT_INTERRUPTED, ToolMissingError
from tui_bench.jobs.settings import JobSettings
from tui_bench.request.run import RunRequest
from tui_bench.spec import RunSpec
from tui_bench.ui.app import TuibenchApp
from tui_bench.ui.launch import live_run
from tui_bench.ui.screens.preparing_screen import PreparingScreen, preparing_text

URL = "http://127.0.0.1:9/"
# The job layer refuses a run whose tool is not there.
NO_TOOL = JobSettings(tool_paths={"h2load": "/nonexistent/h2load"})


async def test_a_refused_run_leaves_the_app_with_its_reason(tmp_path: Path) -> None:
    request = RunRequest(RunSpec(urls=(URL,), requests=10).validate(), server_mode="none")
    app = TuibenchApp(live_run(request, NO_TOOL, basic=True), sessions_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        first = await screen_is(pilot, PreparingScreen, "the first frame")
        shown = str(first.query_one("#header").render())
        assert "h2load" in shown and URL in shown and "preparing" in shown
        # The app leaves by itself: waited for without a pilot, which needs a screen.
        async with asyncio.timeout(30):
            while app.refusal is None:
                await asyncio.sleep(0.05)
    assert isinstance(app.refusal, ToolMissingError)
    assert "/nonexistent/h2load" in str(app.refusal)
    assert app.return_value == app.refusal.exit_code != 0
    assert not any(tmp_path.iterdir()), "nothing is saved for a refused run"


@pytest.mark.parametrize("how", ["q", "ctrl+q", "signal"])
async def test_leaving_while_preparing_is_interrupted_and_starts_nothing(how: str) -> None:
    started, cancelled = asyncio.Event(), asyncio.Event()

    async def never() -> PreparingScreen:
        started.set()
        try:
            await asyncio.Event().wait()
        finally:
            cancelled.set()
        raise AssertionError("never prepared")

    app = TuibenchApp(lambda app: PreparingScreen(Text("h2load"), never))
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, started.is_set, "the preparation")
        if how == "signal":
            app.stop_and_quit()  # what SIGTERM and SIGHUP call
        else:
            await pilot.press(how)
        async with asyncio.timeout(10):
            await cancelled.wait()
    # As Ctrl-C before any load: never 0, which would read as a run completed.
    assert app.return_value == EXIT_INTERRUPTED
    assert app.refusal is None and app.job is None


def test_the_first_frame_imports_no_engine() -> None:
    """What the first frame needs is Textual and the app: the engine, the job layer and numpy
    are imported once it is up."""
    code = (
        "import sys;"
        "import tui_bench.ui.launch, tui_bench.ui.app, tui_bench.ui.screens.preparing_screen;"
        "print(' '.join(sorted(sys.modules)))"
    )
    loaded = set(
        subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True
        ).stdout.split()
    )
    heavy = {"numpy", "psutil", "tui_bench.engine", "tui_bench.jobs.run_job", "tui_bench.analysis"}
    assert loaded & heavy == set()
    assert "textual.app" in loaded


def test_snapshot(snap_compare: Any) -> None:
    async def never() -> PreparingScreen:
        await asyncio.Event().wait()
        raise AssertionError("never prepared")

    demo = describe("nginx", {"h2c": URL, "h1": "http://127.0.0.1:10/"})
    shown = preparing_text("h2load", (URL,), demo)
    app = TuibenchApp(lambda app: PreparingScreen(shown, never), theme="textual-dark")
    assert snap_compare(app, terminal_size=(80, 24))
