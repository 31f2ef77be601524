"""The history screen, opened with h from the sessions browser and on its own; Pilot and
snapshots over generated sessions (TZ=UTC, so dates do not depend on the machine)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from rich.text import Text
from textual.coordinate import Coordinate
from textual.message import Message
from textual.pilot import Pilot
from textual.widgets import DataTable, Static

from tests.analysis.test_history import api_history
from tests.history_sessions import run_doc, save
from tests.ui import screen_is, until, utc_clock
from tui_bench.analysis.history import History, history_of
from tui_bench.storage.index import indexed
from tui_bench.ui import app as app_module
from tui_bench.ui.app import TuibenchApp
from tui_bench.ui.messages import OpenReplay
from tui_bench.ui.screens.history_screen import APART, HistoryScreen
from tui_bench.ui.screens.sessions_screen import SessionsScreen
from tui_bench.ui.widgets.history_chart import HistoryChart, run_ticks
from tui_bench.ui.widgets.session_table import SessionTable


@pytest.fixture(autouse=True)
def utc() -> Iterator[None]:
    yield from utc_clock()


class ReplayKeeper(TuibenchApp):
    """Keeps the replays asked for instead of opening them."""

    # A relative CSS path is read beside the module of the class that names it.
    CSS_PATH = str(Path(app_module.__file__).with_name(TuibenchApp.CSS_PATH))

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.requests: list[Message] = []

    async def on_open_replay(self, message: OpenReplay) -> None:
        message.prevent_default()
        self.requests.append(message)


def table_of(screen: HistoryScreen) -> DataTable[Text]:
    return screen.query_one("#runs", DataTable)


async def test_h_on_a_named_row_opens_its_history(tmp_path: Path) -> None:
    api_history(tmp_path)
    save(tmp_path, run_doc("", 30, 5_000, 0.01))  # the newest, without a name
    app = ReplayKeeper(lambda app: SessionsScreen(tmp_path), sessions_dir=tmp_path)
    async with app.run_test(size=(160, 48)) as pilot:
        await until(pilot, lambda: app.screen.query_one(SessionTable).loaded, "the sessions")
        await pilot.press("h")
        await until(pilot, lambda: bool(app._notifications), "the warning")
        assert "has no name" in str(list(app._notifications)[-1].message)
        assert isinstance(app.screen, SessionsScreen)
        await pilot.press("down", "h")
        screen = await screen_is(pilot, HistoryScreen, "the history")
        assert screen.history.name == "api"
        table = table_of(screen)
        # 13 that count, the separator, the invalid one.
        assert table.row_count == 15
        assert table.ordered_rows[13].key.value == APART
        assert "interrupted" in str(screen.history.runs[screen.rows[-1].run].status)
        steps = str(screen.query_one("#steps", Static).render())
        assert "req/s −10.2 %: 10,025 → 9,000 from 2026-03-08 09:00" in steps
        # The cursor starts on the newest run that counts; enter replays it.
        await pilot.press("enter")
        await until(pilot, lambda: bool(app.requests), "the replay")
        (asked,) = app.requests
        assert isinstance(asked, OpenReplay)
        assert asked.path == screen.history.runs[-1].path
        await pilot.press("q")
        await screen_is(pilot, SessionsScreen, "the browser again")


async def test_the_charts_mark_set_up_changes_invalid_runs_and_change_points(
    tmp_path: Path,
) -> None:
    history = api_history(tmp_path)
    app = TuibenchApp(lambda app: HistoryScreen(history))
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.pause()
        rps = app.screen.query_one("#chart-rps", HistoryChart)
        p99 = app.screen.query_one("#chart-p99", HistoryChart)
        legend = str(rps.border_subtitle)
        assert "invalid" in legend and "set-up" in legend and "change" in legend
        # p99 never moved: no change point on its chart.
        assert "change[" not in str(p99.border_subtitle).replace("set-up", "")


async def test_runs_made_in_one_minute_are_told_apart_by_the_second(tmp_path: Path) -> None:
    # Four runs ten seconds apart, as a script of repeats makes them.
    for i, rps in enumerate((10_000, 10_100, 9_900, 10_050)):
        save(tmp_path, run_doc("burst", i * 10 / 86_400, rps, 0.010))
    history = history_of("burst", indexed(tmp_path))
    assert run_ticks(history, 60) == (
        [0, 1, 2, 3],
        ["09:00:00", "09:00:10", "09:00:20", "09:00:30"],
    )
    app = TuibenchApp(lambda app: HistoryScreen(history))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await screen_is(pilot, HistoryScreen, "the history")
        dates = [str(table_of(screen).get_cell_at(Coordinate(i, 0))) for i in range(4)]
        assert dates == [f"2026-03-02 09:00:{s:02}" for s in (0, 10, 20, 30)]
        headline = str(screen.query_one("#headline", Static).render())
        assert headline.endswith("2026-03-02 09:00:00 to 2026-03-02 09:00:30")


def history_app(tmp_path: Path) -> TuibenchApp:
    history: History = api_history(tmp_path)
    return TuibenchApp(lambda app: HistoryScreen(history))


async def _settled(pilot: Pilot[Any]) -> None:
    # The charts are drawn again at each resize: let the layout settle first.
    await pilot.pause()
    await pilot.wait_for_scheduled_animations()
    await pilot.pause(0.2)


def test_snapshot_80x24(snap_compare: Any, tmp_path: Path) -> None:
    assert snap_compare(history_app(tmp_path), terminal_size=(80, 24), run_before=_settled)


def test_snapshot_160x48(snap_compare: Any, tmp_path: Path) -> None:
    assert snap_compare(history_app(tmp_path), terminal_size=(160, 48), run_before=_settled)
