"""The home screen: recent sessions beside the run form, and what each opens."""

from __future__ import annotations

import fcntl
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from textual import events
from textual.pilot import Pilot
from textual.widgets import Input

from tests.ui import (
    EXAMPLES,
    example_store,
    footer_keys,
    home_form,
    screen_is,
    until,
    utc_clock,
)
from tests.ui.test_live_screen import ScriptedEngine, script
from tui_bench.engine.events import Event
from tui_bench.errors import UsageError
from tui_bench.request.run import RunRequest
from tui_bench.spec import RunSpec
from tui_bench.storage.index import indexed_rows
from tui_bench.ui.app import TuibenchApp
from tui_bench.ui.screens.home_screen import HomeScreen
from tui_bench.ui.screens.live_screen import LiveScreen
from tui_bench.ui.screens.replay_screen import ReplayScreen
from tui_bench.ui.screens.sessions_screen import SessionsScreen
from tui_bench.ui.screens.sweep_screen import SweepScreen
from tui_bench.ui.widgets.dialogs import HelpScreen
from tui_bench.ui.widgets.run_form import RunForm
from tui_bench.ui.widgets.session_table import SessionTable
from tui_bench.ui.widgets.steady_static import SteadyStatic

NEWEST = "c-sweep"


@pytest.fixture(autouse=True)
def utc() -> Iterator[None]:
    yield from utc_clock()


@pytest.fixture(autouse=True)
def config_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Remembered run configs go to a fresh directory, never the user's."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))


class Launches:
    """A launcher that records requests and runs a scripted engine that ends by itself."""

    def __init__(self) -> None:
        self.requests: list[RunRequest] = []

    async def __call__(self, request: RunRequest) -> ScriptedJob:
        self.requests.append(request)
        return ScriptedJob(request.spec)


@dataclass(frozen=True)
class ScriptedJob:
    """Stands in for a prepared RunJob: a scripted engine that ends by itself."""

    spec: RunSpec
    label: str = "h2load 1.52.0"
    baseline: None = None
    notes: tuple[str, ...] = ()

    def controller(self, listener: Callable[[Event], None]) -> ScriptedEngine:
        return ScriptedEngine(listener, script(), hold=False)


FIRST_FRAME = """
import sys
from pathlib import Path

import tui_bench.cli.cmd_home, tui_bench.cli.main, tui_bench.ui.app, tui_bench.ui.launch
import tui_bench.ui.screens.home_screen
from tui_bench.storage.index import indexed_rows
from tui_bench.ui.themes import load_themes
from tui_bench.ui.widgets.session_table import FIRST_ROWS

load_themes()  # as the app does before its first frame
print(*sorted(sys.modules))
directory = Path(sys.argv[1])
print(len(indexed_rows(directory, FIRST_ROWS)), len(indexed_rows(directory)))
print(*sorted(sys.modules))
"""
# The plain names of the analysis, the run counts `--help` quotes and the job settings: light.
LIGHT = {"tui_bench.analysis.names", "tui_bench.analysis.run_counts", "tui_bench.jobs.settings"}
HEAVY = ("tui_bench.histogram", "tui_bench.storage.session", "tui_bench.engine")
# Loaded after the first frame, when they are needed: the command line's grammar (`tuibench`
# alone builds none), the run form (mounted once the frame is up), the help, the verdicts and
# what reads a session file into the index, the redaction rules, and the distributions' metadata
# (the built-in themes of a source tree are found without them).
AFTER_FIRST_FRAME = {
    "tui_bench.cli.args",
    "tui_bench.cli.run_args",
    "tui_bench.ui.widgets.run_form",
    "tui_bench.ui.widgets.dialogs",
    "tui_bench.validity",
    "tui_bench.result",
    "tui_bench.spec",
    "tui_bench.storage.history_facts",
    "tui_bench.storage.journal",
    "tui_bench.redaction",
    "importlib.metadata",
}


def heavy_of(modules: set[str]) -> set[str]:
    return {
        m
        for m in modules
        if m.split(".")[0] == "numpy"
        or any(m == h or m.startswith(f"{h}.") for h in HEAVY)
        or (m.startswith(("tui_bench.analysis.", "tui_bench.jobs.")) and m not in LIGHT)
    }


def test_the_first_frame_imports_no_sessions_engine_or_numpy(tmp_path: Path) -> None:
    """The home screen's module and its rows (the newest first, then all), from an index
    that knows the files, load no session document, histogram, engine, analysis or numpy:
    those come with what needs them (a session opened, a run started), not in a thread that
    would compete with the first frame; nor anything of AFTER_FIRST_FRAME. Checked by what a
    fresh interpreter loaded, never by a timing."""
    directory = example_store(tmp_path)
    everything = indexed_rows(directory)  # the index learns every file
    out = subprocess.run(
        [sys.executable, "-c", FIRST_FRAME, str(directory)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    imported, listed = set(out[0].split()), set(out[2].split())
    assert "tui_bench.ui.screens.home_screen" in imported and "textual.app" in imported
    assert heavy_of(imported) == set()
    assert imported & AFTER_FIRST_FRAME == set()
    assert out[1].split() == [str(len(everything))] * 2 and len(everything) > 1
    assert heavy_of(listed) == set()
    assert listed & AFTER_FIRST_FRAME == set()


def home(directory: Path, launcher: Launches | None = None, **options: Any) -> TuibenchApp:
    return TuibenchApp(
        lambda app: HomeScreen(), launcher=launcher, sessions_dir=directory, **options
    )


async def url_field(pilot: Pilot[Any]) -> Input:
    """The recent list up, then `n`: the form's URL field, once it has the focus."""
    await recent_table(pilot)
    await pilot.press("n")
    urls = pilot.app.screen.query_one("#urls", Input)
    await until(pilot, lambda: pilot.app.focused is urls, "the URL field focused")
    return urls


async def start_from_the_form(pilot: Pilot[Any], url: str = "http://127.0.0.1:8080/") -> RunForm:
    """The home form's URL typed in, then ctrl+s: the form, as the run is asked for."""
    form = await home_form(pilot)
    urls = form.query_one("#urls", Input)
    urls.focus()
    urls.value = url
    await pilot.pause()
    await pilot.press("ctrl+s")
    return form


async def recent_table(pilot: Pilot[Any]) -> SessionTable:
    def loaded() -> bool:
        tables = pilot.app.screen.query(SessionTable)
        return bool(tables) and tables.first().loaded

    await until(pilot, loaded, "the recent sessions")
    # The form comes after the first frame; a test that ends before it would end the app in
    # the middle of its mounting, which no user's way out does (they wait for it).
    await home_form(pilot)
    return pilot.app.screen.query_one(SessionTable)


async def test_recent_sessions_are_listed_newest_first(tmp_path: Path) -> None:
    async with home(example_store(tmp_path)).run_test(size=(120, 40)) as pilot:
        table = await recent_table(pilot)
        assert table.row_count == 8  # seven examples (one a sweep) and the corrupt file
        assert table.shown_rows[0].name == NEWEST


async def test_enter_replays_and_s_opens_the_browser(tmp_path: Path) -> None:
    app = home(example_store(tmp_path))
    async with app.run_test(size=(120, 40)) as pilot:
        table = await recent_table(pilot)
        table.focus()
        await pilot.press("enter")
        await screen_is(pilot, SweepScreen, "the saved sweep")
        await pilot.press("q")
        await screen_is(pilot, HomeScreen, "home again")
        table.focus()
        await pilot.press("down", "enter")
        await screen_is(pilot, ReplayScreen, "the replay")
        await pilot.press("q")
        await screen_is(pilot, HomeScreen, "home again")
        table.focus()
        await pilot.press("s")
        await screen_is(pilot, SessionsScreen, "the browser")


async def test_starting_the_form_runs_and_q_comes_back_home(tmp_path: Path) -> None:
    launcher = Launches()
    app = home(example_store(tmp_path), launcher)
    async with app.run_test(size=(120, 40)) as pilot:
        await recent_table(pilot)
        await start_from_the_form(pilot)
        await screen_is(pilot, LiveScreen, "the live screen")
        assert launcher.requests[0].spec.urls == ("http://127.0.0.1:8080/",)
        live = app.screen
        assert isinstance(live, LiveScreen)
        await until(pilot, lambda: not live.engine_running, "the run to end")
        await pilot.press("q")
        await screen_is(pilot, HomeScreen, "home again")


async def test_back_from_a_run_q_quits_and_the_url_is_kept(tmp_path: Path) -> None:
    """Back from a run the focus is where the first start puts it, on the recent sessions:
    `q` quits rather than replacing the URL the run was started with."""
    app = home(example_store(tmp_path), Launches())
    async with app.run_test(size=(120, 40)) as pilot:
        urls = await url_field(pilot)
        urls.value = "http://127.0.0.1:8080/"
        await pilot.pause()
        await pilot.press("ctrl+s")
        live = await screen_is(pilot, LiveScreen, "the live screen")
        await until(pilot, lambda: not live.engine_running, "the run to end")
        await pilot.press("q")
        await screen_is(pilot, HomeScreen, "home again")
        await until(pilot, lambda: isinstance(app.focused, SessionTable), "the recent list")
        await pilot.press("q")
        await until(pilot, lambda: app.return_code is not None, "the app quitting")
    assert urls.value == "http://127.0.0.1:8080/"


async def test_help_from_the_form_gives_the_focus_back_to_its_field(tmp_path: Path) -> None:
    """A dialog over the home screen is no leaving it: the field asked from keeps the focus."""
    app = home(example_store(tmp_path))
    async with app.run_test(size=(120, 40)) as pilot:
        urls = await url_field(pilot)
        await pilot.press("f1")
        await screen_is(pilot, HelpScreen, "the help from the form")
        await pilot.press("escape")
        await screen_is(pilot, HomeScreen, "home again")
        await pilot.pause()
        assert app.focused is urls


async def test_a_run_cannot_start_without_a_launcher(tmp_path: Path) -> None:
    app = home(example_store(tmp_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await start_from_the_form(pilot)
        await until(pilot, lambda: bool(app._notifications), "a notification")
        assert isinstance(app.screen, HomeScreen)


async def test_help_and_quit(tmp_path: Path) -> None:
    app = home(example_store(tmp_path))
    async with app.run_test(size=(120, 40)) as pilot:
        table = await recent_table(pilot)
        table.focus()
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        await pilot.press("q")
    assert app.return_value == 0


class Refuses(Launches):
    """A launcher whose job layer refuses every run, as `target_refused` does an h2c run of
    an HTTP/1.1 server."""

    async def __call__(self, request: RunRequest) -> ScriptedJob:
        self.requests.append(request)
        raise UsageError(
            "127.0.0.1:8080 speaks HTTP/1.1 only, not h2c (h2load's default for http://): "
            "run with --h1"
        )


async def test_a_refused_start_says_why_on_the_form_points_at_the_field_and_is_not_kept(
    tmp_path: Path,
) -> None:
    app = home(example_store(tmp_path), Refuses())
    async with app.run_test(size=(120, 40)) as pilot:
        form = await start_from_the_form(pilot)
        protocol = form.query_one("#protocol")
        await until(pilot, lambda: app.focused is protocol, "the protocol field focused")
        status = str(form.query_one("#status", SteadyStatic).render())
        assert status == (
            "refused: 127.0.0.1:8080 speaks HTTP/1.1 only, not h2c (h2load's default for "
            "http://): choose protocol h1"
        )
        assert form.query_one("#status").has_class("-invalid")
        # Said where the form said ready, not in a toast that goes away.
        assert isinstance(app.screen, HomeScreen) and not list(app._notifications)
        await app.workers.wait_for_complete()
        assert not (tmp_path / "config" / "tuibench" / "recent.json").exists()


async def test_a_toast_said_on_a_screen_goes_when_it_is_left(tmp_path: Path) -> None:
    launcher = Launches()
    app = home(example_store(tmp_path), launcher)
    async with app.run_test(size=(120, 40)) as pilot:
        await start_from_the_form(pilot)
        await screen_is(pilot, LiveScreen, "the live screen")
        live = app.screen
        assert isinstance(live, LiveScreen)
        await until(pilot, lambda: not live.engine_running, "the run to end")
        live.notify("about this run")
        await pilot.press("q")
        await screen_is(pilot, HomeScreen, "home again")
        assert not list(app._notifications)


async def test_ctrl_c_with_nothing_running_leaves_even_from_the_form(tmp_path: Path) -> None:
    app = home(example_store(tmp_path))
    async with app.run_test(size=(80, 24)) as pilot:
        (await home_form(pilot)).query_one("#urls", Input).focus()
        await pilot.press("ctrl+c")
        await pilot.pause()
        assert not app.is_running
    assert app.return_value == 0


async def test_an_empty_store_says_so_until_a_session_is_saved(tmp_path: Path) -> None:
    store_dir = tmp_path / "none"
    async with home(store_dir).run_test(size=(120, 40)) as pilot:
        table = await recent_table(pilot)
        box = pilot.app.screen.query_one("#recent-box")
        await until(pilot, lambda: "none yet" in str(box.border_subtitle), "the empty note")
        store_dir.mkdir()
        shutil.copy(next(EXAMPLES.glob("*h2c-m10.json")), store_dir)
        table.reload()
        await until(pilot, lambda: "enter replay" in str(box.border_subtitle), "the usual hint")


async def _loaded(pilot: Pilot[Any]) -> None:
    await recent_table(pilot)
    form = await home_form(pilot)
    await until(pilot, lambda: form.recent is not None, "the recent configs")
    # A field that gets the focus must not blink: the cursor would differ from shot to shot.
    for field in form.query(Input):
        field.cursor_blink = False
    await pilot.pause()


@pytest.fixture
def snapshot_root() -> Iterator[Path]:
    """The store the snapshots show. The title names it, so it is one fixed path from run to
    run; held under a lock while a snapshot uses it, since the other xdist worker or another
    run of the suite on this machine may want it at the same moment, and each empties it."""
    root = Path("/tmp/tuibench-home-snapshot")
    with Path(f"{root}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        shutil.rmtree(root, ignore_errors=True)
        root.mkdir()
        yield root


@pytest.mark.parametrize("size", [(80, 24), (120, 40), (160, 48)])
def test_snapshot(snap_compare: Any, snapshot_root: Path, size: tuple[int, int]) -> None:
    app = home(example_store(snapshot_root), theme="textual-dark")
    assert snap_compare(app, terminal_size=size, run_before=_loaded)


@pytest.mark.parametrize(("first", "then"), [((116, 40), (124, 40)), ((124, 40), (116, 40))])
def test_snapshot_after_a_resize_at_launch(
    snap_compare: Any, snapshot_root: Path, first: tuple[int, int], then: tuple[int, int]
) -> None:
    """Resized while it starts (a terminal that tells its size late): the frame is that of
    the last size, the form's layout too (its two groups side by side only when it is as
    wide as the screen), even when the form last heard of its size before (Textual leaves
    out a Resize when a layout and a scroll fall in one frame)."""
    app = home(example_store(snapshot_root), theme="textual-dark")

    async def resized(pilot: Pilot[Any]) -> None:
        def laid_out() -> bool:
            forms = pilot.app.screen.query(RunForm)
            return bool(forms) and forms.first().size.width > 0

        await until(pilot, laid_out, "the form laid out")
        form = pilot.app.screen.query_one(RunForm)
        before = form.size
        await pilot.resize_terminal(*then)
        await pilot.pause()
        form.post_message(events.Resize(before, before))
        await _loaded(pilot)

    assert snap_compare(app, terminal_size=first, run_before=resized)


def shown_keys(pilot: Pilot[Any]) -> set[str]:
    """The keys the footer shows now, every one inside the terminal."""
    return {shown.split()[0] for shown in footer_keys(pilot)}


async def test_a_newcomers_first_question_mark_opens_help_and_q_quits(tmp_path: Path) -> None:
    app = home(tmp_path / "empty")
    async with app.run_test(size=(80, 24)) as pilot:
        await recent_table(pilot)
        # The first focus is no text field: the keys are the screen's.
        assert isinstance(app.focused, SessionTable)
        await until(pilot, lambda: {"?", "q", "n"} <= shown_keys(pilot), "the footer's keys")
        await pilot.press("question_mark")
        await screen_is(pilot, HelpScreen, "the help")
        await pilot.press("escape")
        await screen_is(pilot, HomeScreen, "home again")
        assert app.screen.query_one("#urls", Input).value == ""
        await pilot.press("q")
        await until(pilot, lambda: app.return_code is not None, "the app quitting")


async def test_n_leads_to_the_url_marked_by_more_than_colour_and_f1_helps_there(
    tmp_path: Path,
) -> None:
    app = home(example_store(tmp_path))
    async with app.run_test(size=(120, 40)) as pilot:
        urls = await url_field(pilot)
        label = app.screen.query_one("#row-urls > Label")
        assert label.styles.text_style.reverse
        box = app.screen.query_one("#form-box")
        assert box.styles.border_top[0] == "double"
        assert app.screen.query_one("#recent-box").styles.border_top[0] == "round"
        # In a field `?` is text; the footer still says how to get help.
        await pilot.press("question_mark")
        await pilot.pause()
        assert urls.value == "?" and isinstance(app.screen, HomeScreen)
        await until(pilot, lambda: "f1" in shown_keys(pilot), "f1 in the footer")
        assert "?" not in shown_keys(pilot)
        await pilot.press("f1")
        await screen_is(pilot, HelpScreen, "the help from the form")


async def test_n_as_the_screen_opens_waits_for_the_form(tmp_path: Path) -> None:
    app = home(example_store(tmp_path))
    async with app.run_test(size=(120, 40)) as pilot:
        # Before the form is mounted (it comes after the first frame).
        await pilot.press("n")
        await until(
            pilot,
            lambda: app.focused is not None and app.focused.id == "urls",
            "the URL field focused",
        )


async def test_a_refused_start_points_at_the_field_and_letters_stay_text(tmp_path: Path) -> None:
    launcher = Launches()
    app = home(example_store(tmp_path), launcher)
    async with app.run_test(size=(120, 40)) as pilot:
        await recent_table(pilot)
        form = await home_form(pilot)
        # From a drop-down, not a text field: as after a Tab past the URL.
        form.query_one("#tool").focus()
        await pilot.press("ctrl+s")
        urls = form.query_one("#urls", Input)
        await until(pilot, lambda: app.focused is urls, "the URL field focused")
        error = form.query_one("#urls-error")
        assert error.display and "no URL given" in str(error.render())
        await pilot.press("1", "s", "q")
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen) and urls.value == "1sq"
        # A letter on a drop-down of the form is not the screen's key either.
        form.query_one("#tool").focus()
        await pilot.press("s")
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)
        # Escape leads out of the form, where the letters are keys again.
        await pilot.press("escape")
        assert isinstance(app.focused, SessionTable)
        await pilot.press("s")
        await screen_is(pilot, SessionsScreen, "the browser")
        assert launcher.requests == []


async def test_threads_over_connections_points_at_threads(tmp_path: Path) -> None:
    app = home(example_store(tmp_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await recent_table(pilot)
        form = await home_form(pilot)
        await pilot.press("n")
        form.query_one("#urls", Input).value = "http://127.0.0.1:8080/"
        form.query_one("#connections", Input).value = "2"
        form.query_one("#threads", Input).value = "4"
        await pilot.pause()
        await pilot.press("ctrl+s")
        threads = form.query_one("#threads", Input)
        await until(pilot, lambda: app.focused is threads, "the threads field focused")
        assert "-t 4 is more than -c 2" in str(form.query_one("#threads-error").render())


async def test_the_recent_list_shows_when_where_and_whether_to_trust(tmp_path: Path) -> None:
    store_dir = example_store(tmp_path)
    for width in (80, 120, 160):
        async with home(store_dir).run_test(size=(width, 40)) as pilot:
            table = await recent_table(pilot)
            await pilot.pause()
            shown = [str(c.key.value) for c in table.ordered_columns]
            # A failed or stopped run says INVALID, and when it ran, at any width.
            assert {"url", "date", "validity"} <= set(shown), (width, shown)
