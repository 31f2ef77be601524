"""The capacity search, live: the sweep screen growing a step at a time, its bracket and its
answer, for real (h2load against the shared nginx)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.ui.test_sweep_screen import cells, ended, text_of
from tui_bench.demo.nginx_target import DemoTarget
from tui_bench.formats import fmt_count
from tui_bench.jobs.capacity_job import prepare_capacity
from tui_bench.jobs.settings import JobSettings
from tui_bench.report.capacity_report import capacity_payload
from tui_bench.request.run import RunRequest
from tui_bench.spec import RunSpec
from tui_bench.ui.app import TuibenchApp
from tui_bench.ui.job_parts import job_screen
from tui_bench.ui.screens.sweep_screen import SweepScreen
from tui_bench.ui.text.sweep_text import where


@pytest.mark.real
async def test_a_live_search_says_its_bracket_and_the_capacity_headless_gives(
    nginx: DemoTarget, sessions: Path
) -> None:
    if shutil.which("h2load") is None:
        pytest.skip("h2load is not installed")
    request = RunRequest(RunSpec(urls=(nginx.urls["h2c"],), connections=4, duration_s=1.0))
    job = await prepare_capacity(
        request, JobSettings(interval_s=0.1), slo="p99<1s", resolution=0.5, cool_down_s=0.0
    )
    screen = job_screen(job, basic=True, store_dir=sessions)
    assert isinstance(screen, SweepScreen)
    brackets: list[str] = []
    app = TuibenchApp(lambda app: screen)
    async with app.run_test(size=(120, 40)) as pilot:
        while screen.state.finished is None:
            said = where(screen.state, stopping=False).plain
            if "held" in said:
                brackets.append(said)
            await pilot.pause(0.05)
        screen = await ended(pilot)
        assert text_of(screen, "#title").startswith("CAPACITY")
        # Every step has its row, the search's steps appended as they were chosen.
        steps = screen.state.points
        assert len(steps) >= 2
        assert cells(screen, len(steps) - 1)["runs"] == "1/1"
        shown = where(screen.state, stopping=False).plain
        await pilot.press("q")
    finished = screen.finished
    assert finished is not None
    payload = capacity_payload(finished)
    # The answer on the screen is the one `capacity --headless` prints for the same search
    # (on a busy machine even the lowest step may not be held: then both say so).
    if payload["found"]:
        assert f"capacity {fmt_count(payload['capacity_rps'])} req/s" in shown
    else:
        assert "capacity not found" in shown
    # While it searched, the bracket was said: the highest rate held, the lowest not.
    assert brackets and all(" · not held " in b for b in brackets)
