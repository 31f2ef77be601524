"""A sweep started from the run form: the app prepares it as `tuibench sweep` would and opens
the sweep screen; with a scripted sweep, and once with a real one against nginx."""

from __future__ import annotations

import shutil
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Input, Select

from tests.ui import home_form, screen_is, until
from tests.ui.test_run_form import status, toggle_sweep, type_into
from tests.ui.test_sweep_screen import ScriptedSweep, cells, ended, text_of
from tui_bench.analysis.thresholds import parse_slo
from tui_bench.demo.nginx_target import DemoTarget
from tui_bench.engine.generators import Generator
from tui_bench.engine.sweep import SweepOptions, Target
from tui_bench.engine.sweep_state import StateEvent
from tui_bench.errors import ToolMissingError
from tui_bench.jobs import run_job, sweep_job
from tui_bench.jobs.settings import JobSettings
from tui_bench.jobs.sweep_job import SweepJob
from tui_bench.request.sweep_plan import SweepPlan
from tui_bench.runners.tools import Tool
from tui_bench.spec import RunSpec
from tui_bench.storage import store
from tui_bench.ui.app import Launcher, TuibenchApp
from tui_bench.ui.launch import JobLauncher
from tui_bench.ui.screens.home_screen import HomeScreen
from tui_bench.ui.screens.sweep_screen import SweepScreen
from tui_bench.ui.widgets.run_form import RunForm
from tui_bench.ui.widgets.steady_static import SteadyStatic

URL = "http://127.0.0.1:8080/"
SLO = "p99<30ms,errors<1%"
H2LOAD = Tool("h2load", "/opt/h2load", "1.52.0")


class Asked:
    """Stands in for `prepare_fleet` and the sweep's runner: records what the launcher asks
    for and runs a scripted sweep that waits in its second run until stopped."""

    def __init__(self, missing: str | None = None) -> None:
        self.missing = missing
        self.engines: list[tuple[SweepJob, Path | None]] = []
        self.asked_about: list[tuple[str, ...]] = []

    def prepare_fleet(
        self, plan: SweepPlan, generators: Sequence[str]
    ) -> tuple[tuple[Target, ...], tuple[Generator, ...]]:
        if self.missing:
            raise ToolMissingError(self.missing)
        return tuple(Target(H2LOAD, None) for _ in plan.points), ()

    async def target_refused(self, specs: Sequence[RunSpec]) -> str | None:
        self.asked_about = [spec.urls for spec in specs]
        return None

    def runner(
        self, job: SweepJob, listener: Callable[[StateEvent], None], store_dir: Path | None = None
    ) -> ScriptedSweep:
        self.engines.append((job, store_dir))
        return ScriptedSweep(listener, job.plan, hold=1)


@pytest.fixture
def asked(monkeypatch: pytest.MonkeyPatch) -> Asked:
    fake = Asked()
    monkeypatch.setattr(sweep_job, "prepare_fleet", fake.prepare_fleet)
    # No server at URL: the scripted sweep sends it nothing, so nothing is asked of it.
    monkeypatch.setattr(run_job, "target_refused", fake.target_refused)
    monkeypatch.setattr(SweepJob, "runner", lambda job, *args: fake.runner(job, *args))
    return fake


def home(sessions: Path, launcher: Launcher | None) -> TuibenchApp:
    return TuibenchApp(lambda app: HomeScreen(), launcher=launcher, sessions_dir=sessions)


async def fill_sweep(pilot: Pilot[Any], url: str, *fields: tuple[str, str]) -> None:
    """The form at home filled in with `url` and the Sweep group ticked and typed in."""
    form = await home_form(pilot)
    await until(pilot, lambda: form.recent is not None, "the recent configs")
    await type_into(pilot, "urls", url)
    await toggle_sweep(pilot)
    for field, text in fields:
        await type_into(pilot, field, text)
    await until(pilot, lambda: form.valid and "ready: sweep" in status(form), "a valid sweep")


async def test_the_form_opens_the_sweep_screen_on_the_launchers_sweep(
    tmp_path: Path, asked: Asked
) -> None:
    launcher = JobLauncher(JobSettings(tool_paths={"h2load": "/opt/h2load"}, interval_s=0.25))
    app = home(tmp_path, launcher)
    async with app.run_test(size=(120, 40)) as pilot:
        await fill_sweep(
            pilot,
            URL,
            ("name", "ramp"),
            ("vary", "c=2,4"),
            ("repeat", "2"),
            ("cool_down", "0"),
            ("slo", SLO),
        )
        await pilot.press("ctrl+s")
        await screen_is(pilot, SweepScreen, "the sweep screen")
        screen = app.screen
        assert isinstance(screen, SweepScreen)
        assert app.job is screen
        await until(pilot, lambda: screen.state.going is not None, "the second run")
        assert app.run_going
        header = text_of(screen, "#title")
        assert "ramp" in header and "h2load 1.52.0" in header and URL in header
        assert f"c=2,4 · 2 rounds · 2 points, 4 runs · SLO {SLO}" in header
        [(job, store_dir)] = asked.engines
        plan = job.plan
        assert [p.name for p in plan.points] == ["c=2", "c=4"] and plan.repeat == 2
        assert plan.points[0].tool_path == "/opt/h2load"
        assert job.targets == (Target(H2LOAD, None),) * 2
        assert job.options.judge is not None, "judged when it ends, as the CLI's"
        assert replace(job.options, judge=None) == SweepOptions(
            cool_down_s=0.0,
            interval_s=0.25,
            name="ramp",
            slo=tuple(parse_slo(SLO)),
            slo_text=SLO,
        )
        assert store_dir == tmp_path
        # The target is asked about before the load, for every point, as from the CLI.
        assert asked.asked_about == [(URL,), (URL,)]
        await pilot.press("s")
        await until(pilot, lambda: not screen.engine_running, "the sweep to stop")
        assert screen.state.status == "interrupted"
        await pilot.press("q")
        await screen_is(pilot, HomeScreen, "home again")


async def test_a_sweep_the_job_layer_refuses_is_said_on_the_form(
    tmp_path: Path, asked: Asked
) -> None:
    asked.missing = "h2load is not installed"
    app = home(tmp_path, JobLauncher())
    async with app.run_test(size=(120, 40)) as pilot:
        await fill_sweep(pilot, URL, ("vary", "c=2,4"))
        await pilot.press("ctrl+s")
        status = app.screen.query_one("#status", SteadyStatic)
        await until(pilot, lambda: "refused" in str(status.render()), "the refusal")
        assert str(status.render()) == "refused: h2load is not installed"
        assert not list(app._notifications)
        assert isinstance(app.screen, HomeScreen) and app.job is None
    assert asked.engines == []


async def test_a_sweep_that_cannot_start_from_here_is_one_notification(
    tmp_path: Path, asked: Asked
) -> None:
    app = home(tmp_path, None)
    async with app.run_test(size=(120, 40)) as pilot:
        await fill_sweep(pilot, URL, ("vary", "c=2,4"))
        await pilot.press("ctrl+s")
        await until(pilot, lambda: bool(app._notifications), "a notification")
        assert [n.message for n in app._notifications] == ["sweeps cannot be started from here"]
        assert isinstance(app.screen, HomeScreen) and app.job is None
    assert asked.engines == []


@pytest.mark.real
async def test_a_real_sweep_from_the_form(nginx: DemoTarget, tmp_path: Path) -> None:
    if shutil.which("h2load") is None:
        pytest.skip("h2load is not installed")
    app = home(tmp_path, JobLauncher(JobSettings(interval_s=0.1)))
    async with app.run_test(size=(120, 40)) as pilot:
        await fill_sweep(
            pilot,
            nginx.urls["h2c"],
            ("vary", "c=1,2"),
            ("cool_down", "0"),
        )
        form = app.screen.query_one(RunForm)
        form.query_one("#mode", Select).value = "count"
        requests = form.query_one("#requests", Input)
        await until(pilot, lambda: not requests.disabled, "the request count's field")
        await type_into(pilot, "requests", "2000")
        await until(pilot, lambda: "ready: sweep of 2 points ·" in status(form), "-n 2000")
        await pilot.press("ctrl+s")
        await screen_is(pilot, SweepScreen, "the sweep screen")
        screen = await ended(pilot)
        assert screen.state.status == "completed", screen.state.finished
        assert [cells(screen, point)["runs"] for point in (0, 1)] == ["1/1", "1/1"]
        finished = screen.finished
        assert finished is not None
        await pilot.press("q")
        await screen_is(pilot, HomeScreen, "home again")
    assert list(tmp_path.iterdir()) == [finished.session_path], "the runs live in the sweep"
    saved = store.load(finished.session_path)
    assert len(saved.runs) == 2
    assert saved.doc["server"]["pid"] == nginx.pid, "found from the URL's port"
