"""Comparing points of a sweep from the TUI: the app asks which point a sweep of several
points stands for, with a picker of its points (the names `tuibench compare ID@POINT`
takes), then opens the compare screen on it; two points of one sweep compare too."""

from __future__ import annotations

import shutil
import threading
from pathlib import Path
from typing import Any

import pytest
from rich.text import Text
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import DataTable

from tests.analysis.test_significance import run, runs, sweep
from tests.ui import EXAMPLES, screen_is, until
from tui_bench.analysis.significance import point_refs
from tui_bench.storage import store
from tui_bench.storage.session import Session
from tui_bench.ui.app import TuibenchApp
from tui_bench.ui.messages import OpenCompare
from tui_bench.ui.screens.compare_screen import CompareScreen
from tui_bench.ui.widgets import point_picker
from tui_bench.ui.widgets.point_picker import PointPicker, point_choices

SWEEP = "20261121-114906-878-sweep-c-sweep"
SINGLE = "20261121-112059-024-ab-ab-keepalive"


@pytest.fixture
def store_dir(tmp_path: Path) -> Path:
    directory = tmp_path / "sessions"
    directory.mkdir()
    for name in (SWEEP, SINGLE):
        shutil.copy(EXAMPLES / f"{name}.json", directory)
    return directory


def app_in(directory: Path) -> TuibenchApp:
    return TuibenchApp(lambda app: Screen(), sessions_dir=directory)


def write(directory: Path, session: Session) -> Path:
    path = directory / f"{session.id}.json"
    path.write_bytes(session.to_json())
    return path


async def picker(pilot: Pilot[Any], letter: str) -> PointPicker:
    screen = await screen_is(pilot, PointPicker, "a picker")
    if screen.letter != letter:
        await until(pilot, lambda: pilot.app.screen is not screen, f"the picker of {letter}")
        screen = await screen_is(pilot, PointPicker, f"the picker of {letter}")
    assert screen.letter == letter
    return screen


async def picker_of_b(pilot: Pilot[Any], sweep: Path, *keys: str) -> PointPicker:
    """Compare `sweep` with itself: pick A's point with `keys` and enter, then B's picker."""
    pilot.app.post_message(OpenCompare(sweep, sweep))
    await picker(pilot, "A")
    await pilot.press(*keys, "enter")
    return await picker(pilot, "B")


async def compare_screen(pilot: Pilot[Any]) -> CompareScreen:
    await screen_is(pilot, CompareScreen, "the compare screen")
    screen = pilot.app.screen
    assert isinstance(screen, CompareScreen)
    return screen


def rows(screen: PointPicker) -> list[list[str]]:
    table: DataTable[Text] = screen.query_one(DataTable)
    return [[cell.plain for cell in table.get_row_at(i)] for i in range(table.row_count)]


# What the picker lists


def test_points_are_named_as_the_command_line_names_them() -> None:
    example = store.load(EXAMPLES / f"{SWEEP}.json")
    assert point_refs(example) == ["c=4", "c=32"]
    assert point_refs(store.load(EXAMPLES / f"{SINGLE}.json")) == []
    # The one point of a plain --repeat has no name: its number stands for it.
    assert point_refs(Session(sweep({"": runs(2, 1000)}))) == ["1"]


def test_a_point_shows_the_medians_of_its_completed_runs() -> None:
    failed = run(10, 2000, status="failed")
    points = {
        "c=10": runs(3, 1000),
        "c=20": [failed, *runs(2, 2000, start=11, p99=0.020)],
        "c=40": runs(1, 3000, start=20),
    }
    choices = point_choices(Session(sweep(points)))
    assert [c.ref for c in choices] == ["c=10", "c=20", "c=40"]
    assert [c.side.point for c in choices] == ["c=10", "c=20", "c=40"]
    assert [c.side.runs_label for c in choices] == ["3 runs", "2 runs, 1 left out", "1 run"]
    # The runs wobble by at most 2 %.
    for choice, rps, p99 in zip(choices, (1000, 2000, 3000), (0.010, 0.020, 0.010), strict=True):
        assert choice.rps == pytest.approx(rps, rel=0.02)
        assert choice.p99_s == pytest.approx(p99, rel=0.02)


# The app asks, then compares


async def test_a_sweep_of_several_points_asks_which_point(store_dir: Path) -> None:
    app = app_in(store_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        app.post_message(OpenCompare(store_dir / f"{SWEEP}.json", store_dir / f"{SINGLE}.json"))
        screen = await picker(pilot, "A")
        # The figures the sweep table and the browser show for the same points.
        assert rows(screen) == [
            ["c=4", "22,662", "5.49 ms", "2 runs"],
            ["c=32", "29,008", "11.17 ms", "2 runs"],
        ]
        await pilot.press("down", "enter")
        compare = await compare_screen(pilot)
    assert compare.a.label == f"{SWEEP}@c=32" and len(compare.a.runs) == 2
    assert compare.b.label == SINGLE


async def test_a_sweep_as_b_asks_too(store_dir: Path) -> None:
    app = app_in(store_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        app.post_message(OpenCompare(store_dir / f"{SINGLE}.json", store_dir / f"{SWEEP}.json"))
        await picker(pilot, "B")
        await pilot.press("enter")
        compare = await compare_screen(pilot)
    assert compare.a.label == SINGLE
    assert compare.b.label == f"{SWEEP}@c=4"


async def test_two_points_of_one_sweep(store_dir: Path) -> None:
    path = store_dir / f"{SWEEP}.json"
    app = app_in(store_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await picker_of_b(pilot, path)
        # A's point is marked, and B starts on the next one.
        assert [row[0] for row in rows(screen)] == ["A", ""]
        assert screen.query_one(DataTable).cursor_row == 1
        await pilot.press("enter")
        compare = await compare_screen(pilot)
    assert (compare.a.point, compare.b.point) == ("c=4", "c=32")
    assert compare.a.session.id == compare.b.session.id == SWEEP


async def test_b_starts_after_a_and_wraps_round(store_dir: Path) -> None:
    path = store_dir / f"{SWEEP}.json"
    app = app_in(store_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await picker_of_b(pilot, path, "down")
        assert [row[0] for row in rows(screen)] == ["", "A"]
        assert screen.query_one(DataTable).cursor_row == 0


async def test_b_cannot_be_the_point_a_is(store_dir: Path) -> None:
    path = store_dir / f"{SWEEP}.json"
    app = app_in(store_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await picker_of_b(pilot, path)
        await pilot.press("up", "enter")
        await until(pilot, lambda: bool(app._notifications), "a notification")
        (note,) = app._notifications
        assert note.message == "c=4 is A already: pick another point for B"
        assert app.screen is screen
        await pilot.press("down", "enter")
        compare = await compare_screen(pilot)
    assert compare.b.point == "c=32"


@pytest.mark.parametrize("letter", ["A", "B"])
async def test_escape_cancels_the_comparison(store_dir: Path, letter: str) -> None:
    path = store_dir / f"{SWEEP}.json"
    app = app_in(store_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        first = app.screen
        app.post_message(OpenCompare(path, path))
        if letter == "B":
            await picker(pilot, "A")
            await pilot.press("enter")
        await picker(pilot, letter)
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is first, "the first screen back")
        await app.workers.wait_for_complete()
        assert app.screen is first
        assert not app._notifications


async def test_runs_and_a_sweep_of_one_point_need_no_picker(store_dir: Path) -> None:
    repeated = Session(sweep({"": runs(3, 1000)}, "20260102-120000-000-sweep-repeat"))
    path = write(store_dir, repeated)
    app = app_in(store_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        app.post_message(OpenCompare(store_dir / f"{SINGLE}.json", path))
        compare = await compare_screen(pilot)
        assert not any(isinstance(s, PointPicker) for s in app.screen_stack)
    assert compare.b.label == repeated.id and len(compare.b.runs) == 3


@pytest.mark.parametrize("which", ["sweep of one point", "run"])
async def test_the_same_run_or_one_point_sweep_as_both_sides_is_refused(
    store_dir: Path, which: str
) -> None:
    path = store_dir / f"{SINGLE}.json"
    if which == "sweep of one point":
        path = write(store_dir, Session(sweep({"": runs(3, 1000)}, "20260102-120000-000-sweep-r")))
    app = app_in(store_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        first = app.screen
        app.post_message(OpenCompare(path, path))
        await until(pilot, lambda: bool(app._notifications), "a notification")
        (note,) = app._notifications
        assert "comparing it with itself says nothing" in note.message
        assert app.screen is first


async def test_a_sweep_without_points_says_so(store_dir: Path) -> None:
    document = sweep({"c=10": runs(1, 1000)}, "20260102-120000-000-sweep-empty")
    document["sweep"]["points"], document["runs"] = [], []
    path = write(store_dir, Session(document))
    app = app_in(store_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        first = app.screen
        app.post_message(OpenCompare(path, store_dir / f"{SINGLE}.json"))
        await until(pilot, lambda: bool(app._notifications), "a notification")
        (note,) = app._notifications
        assert note.message == "20260102-120000-000-sweep-empty is a sweep without points"
        assert note.severity == "error" and app.screen is first


async def test_the_points_are_read_off_the_event_loop(
    store_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    threads: list[threading.Thread] = []

    def recorded(session: Session) -> list[point_picker.PointChoice]:
        threads.append(threading.current_thread())
        return point_choices(session)

    monkeypatch.setattr(point_picker, "point_choices", recorded)
    path = store_dir / f"{SWEEP}.json"
    app = app_in(store_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        app.post_message(OpenCompare(path, store_dir / f"{SINGLE}.json"))
        await picker(pilot, "A")
    assert threads and threads[0] is not threading.main_thread()


# Snapshots: B's picker on the sweep A is a point of


def _b_picker(directory: Path) -> Any:
    async def run_before(pilot: Pilot[Any]) -> None:
        path = directory / f"{SWEEP}.json"
        pilot.app.post_message(OpenCompare(path, path))
        await picker(pilot, "A")
        await pilot.press("enter")
        await picker(pilot, "B")
        await pilot.pause()

    return run_before


def test_snapshot_80x24(snap_compare: Any, store_dir: Path) -> None:
    app = app_in(store_dir)
    assert snap_compare(app, terminal_size=(80, 24), run_before=_b_picker(store_dir))


def test_snapshot_160x48(snap_compare: Any, store_dir: Path) -> None:
    app = app_in(store_dir)
    assert snap_compare(app, terminal_size=(160, 48), run_before=_b_picker(store_dir))
