"""`b` at the end of a run or sweep started with --baseline: the compare view, the baseline as
A."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from tests.ui import example_store, footer_keys, help_text, screen_is
from tests.ui.test_live_screen import H1_EXAMPLE, H2C_EXAMPLE, SPEC, ScriptedEngine, script
from tui_bench.engine.events import Event
from tui_bench.spec import RunSpec
from tui_bench.storage import store
from tui_bench.storage.refs import Located
from tui_bench.ui.app import TuibenchApp
from tui_bench.ui.screens.compare_screen import CompareScreen
from tui_bench.ui.screens.live_screen import LiveScreen
from tui_bench.ui.screens.sweep_screen import SweepScreen
from tui_bench.ui.widgets.point_picker import PointPicker


def app_with(baseline: Located | None, saved: Path, *, hold: bool) -> TuibenchApp:
    def factory(spec: RunSpec, listener: Callable[[Event], None]) -> ScriptedEngine:
        return ScriptedEngine(listener, script(), hold, saved)

    return TuibenchApp(
        lambda app: LiveScreen(SPEC, factory, tool_label="h2load", basic=True, baseline=baseline)
    )


async def test_b_compares_the_ended_run_with_its_baseline(tmp_path: Path) -> None:
    directory = example_store(tmp_path)
    baseline = Located(directory / f"{H2C_EXAMPLE}.json")
    app = app_with(baseline, directory / f"{H1_EXAMPLE}.json", hold=True)
    async with app.run_test(size=(120, 40)) as pilot:
        live = app.job
        assert isinstance(live, LiveScreen)
        # While the run goes there is nothing to compare yet.
        assert live.check_action("compare_baseline", ()) is False
        await pilot.press("b")
        await pilot.press("s")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert live.check_action("compare_baseline", ()) is True
        await pilot.press("b")
        screen = await screen_is(pilot, CompareScreen, "the comparison with the baseline")
        assert (screen.a.session.name, screen.b.session.name) == ("h2c-m10", "h1-duration-warmup")


async def test_at_80_columns_the_ended_runs_footer_fits_and_help_keeps_the_rest(
    tmp_path: Path,
) -> None:
    directory = example_store(tmp_path)
    baseline = Located(directory / f"{H2C_EXAMPLE}.json")
    app = app_with(baseline, directory / f"{H1_EXAMPLE}.json", hold=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        keys = footer_keys(pilot)
        assert {"b Baseline", "v Compare", "r Again", "? Help"} <= set(keys)
        shown = await help_text(pilot)
        assert "expand the focused panel" in shown and "next colour theme" in shown


async def test_a_baseline_point_is_taken_without_asking(tmp_path: Path) -> None:
    directory = example_store(tmp_path)
    sweep = next(directory.glob("*-sweep-*.json"))
    app = app_with(Located(sweep, "c=32"), directory / f"{H1_EXAMPLE}.json", hold=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        await pilot.press("b")
        screen = await screen_is(pilot, CompareScreen, "the comparison with the point")
        assert (screen.a.point, screen.b.session.name) == ("c=32", "h1-duration-warmup")


async def test_without_a_baseline_there_is_no_key(tmp_path: Path) -> None:
    directory = example_store(tmp_path)
    app = app_with(None, directory / f"{H1_EXAMPLE}.json", hold=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        live = app.job
        assert isinstance(live, LiveScreen)
        assert live.check_action("compare_baseline", ()) is False
        await pilot.press("b")
        await pilot.pause()
        assert app.screen is live


async def test_b_on_the_ended_sweep_view_compares_with_the_baseline(tmp_path: Path) -> None:
    directory = example_store(tmp_path)
    path = next(directory.glob("*-sweep-*.json"))
    screen = SweepScreen.of_session(store.load(path))
    screen.baseline = Located(directory / f"{H2C_EXAMPLE}.json")
    app = TuibenchApp(lambda app: screen, sessions_dir=directory)
    async with app.run_test(size=(120, 40)) as pilot:
        assert screen.check_action("compare_baseline", ()) is True
        await pilot.press("b")
        # The new sweep has two points: which one is compared with the baseline run?
        picker = await screen_is(pilot, PointPicker, "the picker of B's point")
        assert picker.letter == "B"
        await pilot.press("enter")
        compare = await screen_is(pilot, CompareScreen, "the comparison")
        assert (compare.a.session.name, compare.b.label) == ("h2c-m10", f"{path.stem}@c=4")
