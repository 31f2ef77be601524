"""The replay screen on saved sessions, its clock a fake: positions never depend on wall time."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import ProgressBar, RichLog, Static

from tests.engine.test_replay import (
    EXAMPLES,
    imported_doc,
    long_session,
    make_session,
    server_cpu,
    session_doc,
    timed_doc,
)
from tui_bench.storage import store
from tui_bench.storage.session import Session
from tui_bench.ui.app import TuibenchApp
from tui_bench.ui.messages import OpenReplay
from tui_bench.ui.screens.replay_screen import LOG_TIMED, LOG_UNTIMED, ReplayScreen
from tui_bench.ui.text import text_lines
from tui_bench.ui.widgets.dialogs import HelpScreen
from tui_bench.ui.widgets.metric_panel import MetricPanel
from tui_bench.ui.widgets.run_chart import RunChart


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def make_app(
    session: Session | None = None, clock: FakeClock | None = None, **kwargs: Any
) -> TuibenchApp:
    shown = session or make_session()
    return TuibenchApp(
        lambda app: ReplayScreen(shown, basic=False, clock=clock or FakeClock()), **kwargs
    )


async def loaded(pilot: Pilot[Any]) -> ReplayScreen:
    """Wait until the session is read and painted once."""
    screen = pilot.app.screen
    assert isinstance(screen, ReplayScreen)
    while screen.player is None and "cannot replay" not in text_of(screen, "#header"):
        await pilot.pause()
    screen.paint(force=True)
    await pilot.pause()
    return screen


async def at(pilot: Pilot[Any], position: float) -> ReplayScreen:
    """Paused at `position`, painted."""
    screen = await loaded(pilot)
    screen.pause()
    screen.seek_to(position)
    screen.paint(force=True)
    await pilot.pause()
    return screen


def text_of(screen: Screen[Any], selector: str) -> str:
    widget = screen.query_one(selector)
    if isinstance(widget, MetricPanel):
        widget = widget.query_one(".body", Static)
    assert isinstance(widget, Static)
    return str(widget.render())


async def test_opens_playing_and_the_clock_moves_the_position_by_the_speed() -> None:
    clock = FakeClock()
    async with make_app(clock=clock).run_test(size=(120, 40)) as pilot:
        screen = await loaded(pilot)
        assert screen.playing and screen.position == 0.0
        clock.now += 1.5
        screen.advance()
        assert screen.position == 1.5
        await pilot.press("5")
        clock.now += 0.5
        screen.advance()
        assert screen.position == 4.0
        screen.paint()
        header = text_of(screen, "#header")
        assert "00:04.0 / 00:06.2" in header and "speed 5x" in header and "playing" in header


async def test_playing_to_the_end_stops_there_with_the_summary() -> None:
    clock = FakeClock()
    async with make_app(clock=clock).run_test(size=(120, 40)) as pilot:
        screen = await loaded(pilot)
        clock.now += 60
        screen.advance()
        assert screen.position == screen.length == pytest.approx(6.2)
        assert not screen.playing
        screen.paint()
        assert screen.query_one("#result").display
        summary = text_of(screen, "#summary")
        assert "completed" in summary and "40,100.00" in summary
        assert "■ completed" in text_of(screen, "#header")
        # Playing again starts over.
        await pilot.press("space")
        assert screen.playing and screen.position == 0.0
        screen.paint()
        assert not screen.query_one("#result").display


async def test_space_pauses_and_a_paused_replay_stands_still() -> None:
    clock = FakeClock()
    async with make_app(clock=clock).run_test(size=(120, 40)) as pilot:
        screen = await loaded(pilot)
        await pilot.press("space")
        assert not screen.playing
        clock.now += 3
        screen.advance()
        assert screen.position == 0.0
        screen.paint()
        assert "paused" in text_of(screen, "#header")
        await pilot.press("space")
        clock.now += 1
        screen.advance()
        assert screen.position == 1.0


async def test_seek_keys_move_by_their_amount_within_the_session() -> None:
    async with make_app().run_test(size=(120, 40)) as pilot:
        screen = await at(pilot, 3.0)
        expected = [
            ("right", 4.0),
            ("left", 3.0),
            ("left", 2.0),
            ("shift+right", 6.2),
            ("shift+left", 0.0),
            ("right_square_bracket", 6.2),
            ("left_square_bracket", 0.0),
            ("left", 0.0),
            ("end", 6.2),
            ("home", 0.0),
        ]
        for key, position in expected:
            await pilot.press(key)
            assert screen.position == pytest.approx(position), key


async def test_minute_and_hour_keys_seek_a_long_session() -> None:
    async with make_app(long_session(hours=2.0, per_second=1)).run_test(size=(120, 40)) as pilot:
        screen = await at(pilot, 0.0)
        assert screen.length == 7200.0
        expected = [
            ("pagedown", 60.0),
            ("greater_than_sign", 120.0),
            ("right_curly_bracket", 3720.0),
            ("right_curly_bracket", 7200.0),
            ("pageup", 7140.0),
            ("less_than_sign", 7080.0),
            ("left_curly_bracket", 3480.0),
            ("left_curly_bracket", 0.0),
        ]
        for key, position in expected:
            await pilot.press(key)
            assert screen.position == pytest.approx(position), key
        screen.paint(force=True)
        assert "0:00:00" in text_of(screen, "#header")


async def test_seek_keys_win_over_a_focused_log() -> None:
    async with make_app().run_test(size=(120, 40)) as pilot:
        screen = await at(pilot, 3.0)
        await pilot.press("l")
        screen.query_one(RichLog).focus()
        await pilot.press("right", "end")
        assert screen.position == pytest.approx(6.2)


async def test_speed_keys() -> None:
    async with make_app().run_test(size=(120, 40)) as pilot:
        screen = await loaded(pilot)
        for key, label in (("2", "2x"), ("5", "5x"), ("0", "10x"), ("m", "max"), ("1", "1x")):
            await pilot.press(key)
            assert screen.speed_label == label
        await pilot.press("plus", "plus")
        assert screen.speed == 5.0
        await pilot.press("minus", "minus", "minus")
        assert screen.speed == 1.0
        await pilot.press("m", "plus")
        assert screen.speed_label == "max"
        # Max: the whole session in a few seconds, never slower than 20x.
        assert screen.speed == 20.0


async def test_panels_are_in_step_with_the_position_both_ways() -> None:
    async with make_app().run_test(size=(120, 40)) as pilot:
        screen = await at(pilot, 0.0)
        assert "no sample yet" in text_of(screen, "#server")
        for position in (0.6, 2.2, 5.5, 1.1, 3.0, 0.5):
            screen.seek_to(position)
            screen.paint()
            sample_t = position // 0.5 * 0.5
            server = text_of(screen, "#server")
            assert f"cpu {text_lines.pct(server_cpu(sample_t))}" in server, position
            rows = int(position)
            assert len(screen.state.rows) == rows
            throughput = text_of(screen, "#throughput")
            if rows:
                assert f"now     {38000 + 800 * (rows - 1):,} req/s" in throughput, position
            else:
                assert throughput == "waiting for the first second", position
            assert screen.query_one(ProgressBar).progress == pytest.approx(position / 6.2)


async def test_warnings_and_errors_arrive_when_they_did() -> None:
    async with make_app().run_test(size=(120, 40)) as pilot:
        screen = await at(pilot, 2.5)
        assert "errors 0" in text_of(screen, "#status")
        assert "share this machine" in text_of(screen, "#warnings")
        assert "3 of 240,600" not in text_of(screen, "#warnings")
        screen.seek_to(3.0)
        screen.paint()
        assert "errors 3" in text_of(screen, "#status")
        await pilot.press("end")
        screen.paint()
        assert "3 of 240,600" in text_of(screen, "#warnings")


async def test_log_chart_expand_theme_and_help() -> None:
    app = make_app(theme="textual-dark")
    async with app.run_test(size=(160, 48)) as pilot:
        screen = await at(pilot, 2.0)
        log = screen.query_one(RichLog)
        chart = screen.query_one(RunChart)
        assert chart.display and not log.display
        await pilot.press("l")
        assert log.display and [line.text for line in log.lines] == [
            "starting benchmark...",
            "finished in 6.00s",
            "a warning",
        ]
        # Moving back rebuilds the state: the log is written afresh, not twice.
        screen.seek_to(1.0)
        screen.paint()
        assert len(log.lines) == 3
        await pilot.press("c")
        assert not chart.display
        screen.query_one("#server").focus()
        await pilot.press("e")
        assert [p.id for p in screen.query(MetricPanel) if p.display] == ["server"]
        await pilot.press("e")
        assert all(p.display for p in screen.query(MetricPanel))
        await pilot.press("t")
        assert app.theme != "textual-dark"
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        help_text = text_of(app.screen, "#help")
        for words in ("play / pause", "1 s", "10 s", "to the start", "slower", "speed 1x"):
            assert words in help_text
        await pilot.press("escape")
        assert app.screen is screen


async def test_q_from_the_command_line_ends_the_app_with_0() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot)
        await pilot.press("q")
        await pilot.pause()
    assert app.return_value == 0


async def test_opened_by_a_request_it_reads_the_file_and_q_goes_back(tmp_path: Path) -> None:
    path = tmp_path / "demo.json"
    path.write_bytes(make_session().to_json())
    app = TuibenchApp(lambda app: Screen(), sessions_dir=tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        first = app.screen
        app.post_message(OpenReplay(path))
        while not isinstance(app.screen, ReplayScreen):
            await pilot.pause()
        screen = await loaded(pilot)
        assert "demo" in text_of(screen, "#header")
        await pilot.press("q")
        while app.screen is not first:
            await pilot.pause()
    assert app.return_value is None  # still running when the test left it


async def test_a_session_without_series_shows_its_result_and_nothing_to_play() -> None:
    async with make_app(Session(imported_doc())).run_test(size=(120, 40)) as pilot:
        screen = await loaded(pilot)
        assert not screen.playing
        assert "nothing to play" in text_of(screen, "#header")
        assert screen.query_one("#result").display
        assert "imported" in text_of(screen, "#summary")
        await pilot.press("space", "right", "end")
        assert not screen.playing and screen.position == 0.0
        assert screen.check_action("seek", (1,)) is None  # greyed out in the footer


async def test_a_damaged_session_says_so_in_one_line() -> None:
    doc = session_doc()
    doc["samples"] = [{"t_s": "soon"}]
    app = make_app(Session(doc))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await loaded(pilot)
        assert screen.player is None
        assert "cannot replay" in text_of(screen, "#header")
        assert "damaged (bad 'samples')" in text_of(screen, "#header")
        assert any("damaged" in str(n.message) for n in app._notifications)


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: p.stem)
async def test_example_sessions_play_through(example: Path, tmp_path: Path) -> None:
    copy = Path(shutil.copy(example, tmp_path))
    session = store.load(copy)
    clock = FakeClock()
    async with make_app(session, clock).run_test(size=(80, 24)) as pilot:
        screen = await loaded(pilot)
        assert screen.playing
        clock.now += 30
        screen.advance()
        screen.paint()
        assert not screen.playing and screen.state.finished is not None
        assert f"■ {session.status}" in text_of(screen, "#header")
        assert session.status in text_of(screen, "#summary")


async def _midway(pilot: Pilot[Any]) -> None:
    await at(pilot, 3.4)


# The theme is named so that these pictures change only with this screen.
def test_snapshot_midway_80x24(snap_compare: Any) -> None:
    app = make_app(theme="textual-dark")
    assert snap_compare(app, terminal_size=(80, 24), run_before=_midway)


def test_snapshot_midway_160x48(snap_compare: Any) -> None:
    app = make_app(theme="textual-dark")
    assert snap_compare(app, terminal_size=(160, 48), run_before=_midway)


def test_snapshot_ended_80x24(snap_compare: Any) -> None:
    async def ended(pilot: Pilot[Any]) -> None:
        await at(pilot, 99.0)

    app = make_app(theme="textual-dark")
    assert snap_compare(app, terminal_size=(80, 24), run_before=ended)


@pytest.mark.parametrize(
    ("session", "title"),
    [(make_session(), LOG_UNTIMED), (Session(timed_doc()), LOG_TIMED)],
    ids=["untimed", "timed"],
)
async def test_the_log_title_says_whether_lines_are_timed(session: Session, title: str) -> None:
    async with make_app(session).run_test(size=(120, 40)) as pilot:
        screen = await loaded(pilot)
        assert screen.query_one(RichLog).border_title == title


async def test_z_spans_the_chart_over_the_whole_run_or_its_last_minutes() -> None:
    app = make_app()
    async with app.run_test(size=(160, 48)) as pilot:
        screen = await at(pilot, 5.0)
        chart = screen.query_one(RunChart)
        titles = [str(chart.border_title)]
        for _ in range(3):
            await pilot.press("z")
            await pilot.pause()
            titles.append(str(chart.border_title))
        assert titles == [
            "req/s and p99 over the run (s)",
            "req/s and p99, the last 10 minutes",
            "req/s and p99, the last minute",
            "req/s and p99 over the run (s)",
        ]
        await pilot.press("question_mark")
        assert "its last minute" in text_of(app.screen, "#help")
