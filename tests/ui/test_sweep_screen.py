"""The sweep screen driven by a scripted sweep: no tool, no sleeps, no wall clock; and once
by a real sweep of h2load against nginx."""

from __future__ import annotations

import asyncio
import io
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from rich.text import Text
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import DataTable, RichLog, Static

from tests.engine.test_sweep_state import (
    COOL_DOWN_S,
    SESSION,
    SLO,
    URL,
    entries,
    plan_of,
    run_end,
    run_start,
    state_of,
    sweep_document,
)
from tests.factories import rate_sweep_doc
from tests.ui import help_text, until
from tests.ui.test_tones import styles_at
from tui_bench.analysis.verdicts import Verdicts
from tui_bench.demo.nginx_target import DemoTarget
from tui_bench.engine.events import OutputLine
from tui_bench.engine.sweep import (
    CoolingDown,
    SweepFinished,
    SweepStarted,
)
from tui_bench.engine.sweep_state import StateEvent, SweepTitle
from tui_bench.jobs.settings import JobSettings
from tui_bench.jobs.sweep_job import prepare_sweep
from tui_bench.request.run import RunRequest
from tui_bench.request.sweep_plan import SweepPlan, Variant, build_plan, parse_vary
from tui_bench.spec import RunSpec
from tui_bench.storage import store
from tui_bench.storage.session import Session
from tui_bench.ui.app import TuibenchApp
from tui_bench.ui.job_parts import sweep_screen
from tui_bench.ui.messages import OpenReplay
from tui_bench.ui.screens.sweep_screen import SweepScreen
from tui_bench.ui.tones import tones_of
from tui_bench.ui.widgets.dialogs import ConfirmQuit
from tui_bench.ui.widgets.run_chart import READABLE_HEIGHT
from tui_bench.ui.widgets.sweep_chart import SweepChart

TITLE = SweepTitle("ramp", "h2load 1.52.0", URL)
# The run going in the mid-sweep views: run 7 of 8, c=4 in the second round, which goes
# backwards (c=16 c=8 c=4 c=2): c=16 and c=8 have both their runs, c=2 waits for its second.
HOLD = 6
FIXTURE_SWEEP = Path(__file__).parents[1] / "fixtures" / "sweep-c-repeat2.json"


class ScriptedSweep:
    """Posts a sweep's events at once; with `hold`, waits in that run until stopped, which
    then ends as interrupted, like SweepRunner."""

    def __init__(
        self, listener: Callable[[StateEvent], None], plan: SweepPlan, hold: int | None
    ) -> None:
        self.listener = listener
        self.plan = plan
        self.hold = hold
        self.stopped = asyncio.Event()

    async def run(self) -> SweepFinished:
        plan, post = self.plan, self.listener
        post(SweepStarted("sweep-1", plan))
        ran = 0
        for index in range(len(plan.order)):
            if index:
                post(CoolingDown(COOL_DOWN_S))
            if self.stopped.is_set():
                break
            for event in run_start(plan, index):
                post(event)
            if index == self.hold:
                await self.stopped.wait()
            status = "interrupted" if self.stopped.is_set() else "completed"
            for event in run_end(plan, index, status):
                post(event)
            ran += 1
        if self.stopped.is_set():
            status, message = "interrupted", f"stopped after {ran} of 8 runs; what ran is kept"
        else:
            status, message = "completed", None
        document = sweep_document(plan, entries(plan, ran, status), status, message)
        judged = Verdicts(Session(document).thresholds)
        finished = SweepFinished(status, message, SESSION, Session(document), judged)
        post(finished)
        return finished

    def stop(self) -> None:
        self.stopped.set()


def make_app(
    *, hold: int | None = HOLD, basic: bool = False, plan: SweepPlan | None = None
) -> TuibenchApp:
    plan = plan or plan_of()

    def factory(listener: Callable[[StateEvent], None]) -> ScriptedSweep:
        return ScriptedSweep(listener, plan, hold)

    return TuibenchApp(
        lambda app: SweepScreen(state_of(plan), TITLE, factory, basic=basic), theme="textual-dark"
    )


def screen_of(pilot: Pilot[Any]) -> SweepScreen:
    screen = pilot.app.screen
    assert isinstance(screen, SweepScreen)
    return screen


async def settle(pilot: Pilot[Any], runs: int = HOLD) -> SweepScreen:
    """Wait until `runs` runs have ended (their aggregates come with them), then paint once."""
    screen = screen_of(pilot)
    state = screen.state
    while state.done < runs or (runs == HOLD and not state.going):
        await pilot.pause()
    screen.paint(force=True)
    await pilot.pause()
    return screen


async def ended(pilot: Pilot[Any]) -> SweepScreen:
    screen = screen_of(pilot)
    while screen.state.finished is None or screen.engine_running:
        await pilot.pause()
    screen.paint(force=True)
    await pilot.pause()
    return screen


def text_of(screen: Screen[Any], selector: str) -> str:
    """What the widget shows, as plain text (wide enough for nothing to wrap)."""
    console = Console(width=200, record=True, file=io.StringIO())
    console.print(screen.query_one(selector, Static).content)
    return " ".join(console.export_text().split())


def cells(screen: SweepScreen, point: int) -> dict[str, str]:
    table = screen.query_one(DataTable)
    row = table.get_row(str(point))
    keys = [str(column.key.value) for column in table.columns.values()]
    texts = [v.plain if isinstance(v, Text) else str(v) for v in row]
    return {k: v.strip() for k, v in zip(keys, texts, strict=True)}


async def test_the_focused_panel_is_framed_not_only_coloured_and_short_stays_borderless() -> None:
    app = make_app()
    async with app.run_test(size=(160, 48)) as pilot:
        screen = await settle(pilot)
        points = screen.query_one("#points")
        assert app.focused is points
        assert points.styles.border_top[0] == "double"
        assert points.styles.border_title_style.reverse
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert points.styles.border_top[0] == ""


async def test_rows_exist_from_the_start_and_fill_in_as_runs_end() -> None:
    async with make_app().run_test(size=(120, 40)) as pilot:
        screen = screen_of(pilot)
        table = screen.query_one(DataTable)
        assert table.row_count == 4
        screen = await settle(pilot)
        assert cells(screen, 2)["runs"] == "2/2" and cells(screen, 2)["rps"] == "18,050 ±0.4%"
        assert cells(screen, 2)["p99"].startswith("16.0") and cells(screen, 2)["cpu"] == "60%"
        assert cells(screen, 1)["v:c"].split() == ["▶", "4"], "c=4 is going"
        assert cells(screen, 2)["v:c"] == "8" and cells(screen, 1)["runs"] == "1/2"
        assert cells(screen, 1)["rps"] == "14,000", "one run has no spread"
        assert cells(screen, 0)["runs"] == "1/2" and cells(screen, 0)["rps"] == "12,000"
        assert cells(screen, 3)["slo"] == "✗", "p99 32 ms misses p99<30ms"
        assert cells(screen, 2)["slo"] == "★ ✓", "the knee: most req/s within the SLO"
        assert table.row_count == 4, "no row added or removed"


async def test_header_says_which_run_of_how_many_and_the_going_runs_numbers() -> None:
    async with make_app().run_test(size=(120, 40)) as pilot:
        screen = await settle(pilot)
        header = text_of(screen, "#title")
        assert "SWEEP" in header and "ramp" in header and "h2load 1.52.0" in header
        assert URL in header and "c=2,4,8,16" in header and f"SLO {SLO}" in header
        # ETA: 2 runs of 7 s and a cool-down of 2 s, less the 3 s the going run has gone.
        assert text_of(screen, "#where") == "run 7/8 · c=4 rep 2 · ETA 00:13 · running"
        now = text_of(screen, "#now")
        assert "14,020 req/s" in now and "p99 8.00 ms" in now and "errors 0" in now


async def test_cooling_down_shows_the_last_run() -> None:
    async with make_app().run_test(size=(120, 40)) as pilot:
        screen = await settle(pilot)
        state = screen.state
        for event in run_end(plan_of(), HOLD):
            state.apply(event)
        state.apply(CoolingDown(COOL_DOWN_S))
        screen.paint()
        assert text_of(screen, "#where") == "7/8 runs · ETA 00:07 · cooling down 2 s"
        assert text_of(screen, "#now").startswith("last run 7/8 c=4 rep 2: 14,100 req/s p99 8")


async def test_stop_ends_the_sweep_keeps_it_and_stays_until_q() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await settle(pilot)
        await pilot.press("s")
        screen = await ended(pilot)
        assert screen.state.status == "interrupted"
        summary = text_of(screen, "#ending")
        assert "interrupted — stopped after 7 of 8 runs" in summary
        assert str(SESSION) in summary and "★ c=8" in summary
        assert "load generator and target share" in summary
        assert screen.query_one("#ending").display and not screen.query_one("#now").display
        assert cells(screen, 1)["runs"] == "2/2", "the stopped run is kept"
        assert app.screen is screen, "the sweep stays on screen"
        await pilot.press("q")
    assert app.return_value == 130


@pytest.mark.parametrize("key", ["q", "ctrl+q"])
async def test_quit_asks_while_the_sweep_goes_and_no_keeps_it_going(key: str) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await settle(pilot)
        await pilot.press(key)
        assert isinstance(app.screen, ConfirmQuit)
        await pilot.press("n")
        assert screen_of(pilot) is screen and screen.engine_running


async def test_a_signal_stops_the_sweep_and_lets_it_save() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await settle(pilot)
        app.stop_and_quit()  # what SIGTERM and SIGHUP call
        await app.workers.wait_for_complete()
        await pilot.pause()
    assert app.return_value == 130 and screen.finished is not None


async def test_quit_confirmed_stops_saves_and_exits_130() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await settle(pilot)
        await pilot.press("q", "y")
        await app.workers.wait_for_complete()
        await pilot.pause()
    assert app.return_value == 130
    assert screen.finished is not None and screen.finished.status == "interrupted"


async def test_a_failed_threshold_exits_99_as_headless() -> None:
    app = make_app(hold=None)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ended(pilot)
        assert "threshold p99<20ms at c=16: FAIL" in text_of(screen, "#ending")
        assert "★ c=8: 18,050 req/s for p99<30ms,errors<1%" in text_of(screen, "#ending")
        await pilot.press("q")
    assert app.return_value == 99


class BrokenSweep(ScriptedSweep):
    """Breaks after its first run, as a sweep whose store went away would."""

    async def run(self) -> SweepFinished:
        plan, post = self.plan, self.listener
        post(SweepStarted("sweep-1", plan))
        for event in [*run_start(plan, 0), *run_end(plan, 0)]:
            post(event)
        raise OSError("no space left on device")


async def test_a_broken_sweep_says_so_stays_and_exits_1() -> None:
    plan = plan_of()

    def factory(listener: Callable[[StateEvent], None]) -> ScriptedSweep:
        return BrokenSweep(listener, plan, None)

    app = TuibenchApp(lambda app: SweepScreen(state_of(plan), TITLE, factory))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = screen_of(pilot)
        while screen.engine_running or not app._notifications:
            await pilot.pause()
        [note] = list(app._notifications)
        assert note.message == "the sweep failed: no space left on device"
        assert app.screen is screen and cells(screen, 0)["runs"] == "1/2"
        await pilot.press("q")
    assert app.return_value == 1


async def test_charts_toggle_and_show_the_points() -> None:
    async with make_app().run_test(size=(160, 48)) as pilot:
        screen = await settle(pilot)
        assert screen.has_class("-charts"), "tall enough: charts from the start"
        charts = list(screen.query(SweepChart))
        assert [c.border_title for c in charts] == ["req/s", "latency (ms)", "server CPU (%)"]
        assert all(c.display and c.size.height > 5 for c in charts)
        subtitle = str(charts[1].border_subtitle)
        assert "p50" in subtitle and "p99" in subtitle and "★knee" in subtitle, "shortened to fit"
        assert "p99<30ms" in subtitle, "the SLO's level"
        await pilot.press("c")
        assert not screen.has_class("-charts")
        assert not screen.query_one("#charts").display


async def test_a_new_theme_repaints_the_marks_in_its_colours() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await settle(pilot)
        table = screen.query_one(DataTable)

        def styles(point: int, mark: str) -> list[str]:
            cell = table.get_cell(str(point), "slo")
            assert isinstance(cell, Text)
            return styles_at(cell, mark)

        dark = tones_of(screen)
        assert f"bold {dark.error}" in styles(3, "✗") and dark.success in styles(2, "✓")
        app.theme = "textual-light"
        light = tones_of(screen)
        assert light != dark
        # The sweep waits in its run: only the theme changes.
        await until(pilot, lambda: f"bold {light.error}" in styles(3, "✗"), "the light ✗")
        assert light.success in styles(2, "✓") and f"bold {light.warning}" in styles(2, "★")


async def test_the_table_takes_the_width_and_the_charts_the_rows_left() -> None:
    async with make_app().run_test(size=(160, 48)) as pilot:
        screen = await settle(pilot)
        await pilot.pause()
        table = screen.query_one(DataTable)
        assert table.outer_size.width == 160, "boxed as wide as the screen"
        assert sum(c.get_render_width(table) for c in table.columns.values()) == 158
    async with make_app().run_test(size=(80, 24)) as pilot:
        screen = await settle(pilot)
        await pilot.pause()
        assert screen.has_class("-charts"), "room for a chart below the table"
        assert screen.query_one("#charts").size.height >= READABLE_HEIGHT
        for chart in screen.query(SweepChart):
            legend = Text.from_markup(str(chart.border_subtitle)).plain
            assert "…" not in legend and len(legend) <= chart.size.width - 4, legend
        latency = screen.query_one("#latency-chart", SweepChart)
        assert latency.border_title == "p99 (ms)", "too narrow for three latencies' legend"
        assert "─p99<30ms" in str(latency.border_subtitle)
        await pilot.press("s")
        await ended(pilot)
        assert not screen.has_class("-charts"), "the summary takes the charts' room"


async def test_small_terminals_and_basic_mode_start_without_charts() -> None:
    async with make_app().run_test(size=(80, 20)) as pilot:
        screen = await settle(pilot)
        assert not screen.has_class("-charts")
        await pilot.press("c")
        assert screen.has_class("-charts") and screen.query_one("#charts").display
    async with make_app(basic=True).run_test(size=(160, 48)) as pilot:
        screen = await settle(pilot)
        await pilot.press("c")
        assert not screen.has_class("-charts")


async def test_log_shows_the_going_runs_output() -> None:
    async with make_app().run_test(size=(120, 40)) as pilot:
        screen = await settle(pilot)
        log = screen.query_one(RichLog)
        assert not log.display
        await pilot.press("l")
        assert log.display and log.lines == []
        screen.state.apply(OutputLine("stdout", "progress: 10% done\n"))
        screen.paint()
        assert [line.text for line in log.lines] == ["progress: 10% done"]


async def test_help_lists_every_key() -> None:
    async with make_app().run_test(size=(120, 40)) as pilot:
        screen = await settle(pilot)
        text = await help_text(pilot)
        for words in ("stop the sweep", "quit", "charts", "raw output"):
            assert words in text
        await pilot.press("escape")
        assert screen_of(pilot) is screen


async def test_a_plain_repeat_is_one_row() -> None:
    plain = build_plan([Variant(None, RunRequest(RunSpec(urls=(URL,), duration_s=5.0)), {})], [], 3)
    app = make_app(hold=None, plan=plain)
    async with app.run_test(size=(160, 48)) as pilot:
        screen = await ended(pilot)
        assert "nothing varies · 3 rounds · 1 point, 3 runs" in text_of(screen, "#title")
        assert cells(screen, 0)["point"] == "all" and cells(screen, 0)["runs"] == "3/3"
        assert "━━" not in str(screen.query_one("#rps-chart", SweepChart).border_subtitle)


def saved_sweep(directory: Path) -> Path:
    plan = plan_of()
    path = directory / SESSION.name
    session = Session(sweep_document(plan, entries(plan, 8), "completed"))
    path.write_bytes(session.to_json())
    return path


async def test_a_saved_sweep_opens_as_it_ended(tmp_path: Path) -> None:
    path = saved_sweep(tmp_path)
    app = TuibenchApp(lambda app: Screen())
    async with app.run_test(size=(120, 40)) as pilot:
        app.post_message(OpenReplay(path))
        while not isinstance(app.screen, SweepScreen):
            assert not app._notifications, list(app._notifications)
            await pilot.pause()
        screen = app.screen
        await pilot.pause()
        assert not screen.engine_running and screen.state.status == "completed"
        assert "ramp" in text_of(screen, "#title")
        assert str(path) in text_of(screen, "#ending")
        await pilot.press("l")
        assert not screen.query_one(RichLog).display, "a saved sweep keeps no output"
        assert cells(screen, 2)["slo"] == "★ ✓" and cells(screen, 3)["runs"] == "2/2"
        await pilot.press("q")
        assert not isinstance(app.screen, SweepScreen), "back to where it was opened"


async def test_a_damaged_sweep_is_a_notification(tmp_path: Path) -> None:
    path = saved_sweep(tmp_path)
    doc = dict(store.load(path).doc)
    doc["sweep"] = {**doc["sweep"], "points": [{"index": 0}]}
    path.write_bytes(Session(doc).to_json())
    app = TuibenchApp(lambda app: Screen())
    async with app.run_test(size=(120, 40)) as pilot:
        app.post_message(OpenReplay(path))
        while not app._notifications:
            await pilot.pause()
        [note] = list(app._notifications)
        assert "sweep session file is damaged" in note.message
        assert not isinstance(app.screen, SweepScreen)


# ---- what it looks like


async def _mid_sweep(pilot: Pilot[Any]) -> None:
    await settle(pilot)


async def _ended(pilot: Pilot[Any]) -> None:
    await settle(pilot)
    await pilot.press("s")
    await ended(pilot)


def test_snapshot_mid_sweep_80x24(snap_compare: Any) -> None:
    # The charts in the rows below the table, their legends shortened, latency as p99 alone.
    assert snap_compare(make_app(), terminal_size=(80, 24), run_before=_mid_sweep)


def test_snapshot_mid_sweep_160x48(snap_compare: Any) -> None:
    assert snap_compare(make_app(), terminal_size=(160, 48), run_before=_mid_sweep)


def test_snapshot_ended_80x24(snap_compare: Any) -> None:
    assert snap_compare(make_app(), terminal_size=(80, 24), run_before=_ended)


def test_snapshot_ended_120x40(snap_compare: Any) -> None:
    # The table as tall as its rows, the charts side by side in the rest.
    assert snap_compare(make_app(), terminal_size=(120, 40), run_before=_ended)


def test_snapshot_ended_160x48(snap_compare: Any) -> None:
    assert snap_compare(make_app(), terminal_size=(160, 48), run_before=_ended)


# ---- a real sweep


def samples_of(screen: SweepScreen, point: int) -> list[Any]:
    """What a run of `point` sampled: said when its CPU is missing."""
    finished = screen.finished
    if finished is None:
        return ["no session yet"]
    runs = store.load(finished.session_path).runs
    return [
        (r.doc.get("resources"), [(s["t_s"], s.get("server_cpu_pct")) for s in r.samples or []])
        for r in runs
        if r.doc.get("point") == point or len(runs) == 1
    ] or [[r.doc.get("resources") for r in runs]]


@pytest.mark.real
async def test_a_real_sweep_fills_the_table(nginx: DemoTarget, sessions: Path) -> None:
    if shutil.which("h2load") is None:
        pytest.skip("h2load is not installed")
    request = RunRequest(
        RunSpec(urls=(nginx.urls["h2c"],), requests=20_000, streams=4),
        server_mode="pid",
        server_pid=nginx.pid,
    )
    plan = build_plan([Variant(None, request, {})], [parse_vary("c=2,4")])
    named = RunRequest(request.spec, name="tiny")
    job = await prepare_sweep(plan, named, JobSettings(interval_s=0.1), cool_down_s=0.0)
    screen = sweep_screen(job, sessions, basic=False)
    app = TuibenchApp(lambda app: screen)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ended(pilot)
        assert screen.state.status == "completed", screen.state.finished
        for point in (0, 1):
            row = cells(screen, point)
            assert row["runs"] == "1/1" and row["rps"] not in ("", "–")
            assert row["p99"].endswith(("ms", "µs"))
            assert row["cpu"].endswith("%"), samples_of(screen, point)
        assert cells(screen, 0)["v:c"] == "2" and cells(screen, 1)["v:c"] == "4"
        await pilot.press("q")
    assert app.return_value == 0
    finished = screen.finished
    assert finished is not None
    assert list(sessions.iterdir()) == [finished.session_path], "the runs live in the sweep"
    assert len(store.load(finished.session_path).runs) == 2


async def test_a_rate_sweep_adds_its_latency_throughput_chart() -> None:
    doc = rate_sweep_doc(store.load(FIXTURE_SWEEP).doc)
    app = TuibenchApp(lambda app: SweepScreen.of_session(Session(doc)))
    async with app.run_test(size=(120, 50)) as pilot:
        await pilot.pause()
        curve = app.screen.query_one("#curve-chart", SweepChart)
        legend = str(curve.border_subtitle)
        assert "p50" in legend and "p99.9" in legend and "knee" in legend
    by_c = store.load(FIXTURE_SWEEP)
    app = TuibenchApp(lambda app: SweepScreen.of_session(by_c))
    async with app.run_test(size=(120, 50)) as pilot:
        await pilot.pause()
        assert not app.screen.query("#curve-chart")
