"""The sessions browser over copies of the example sessions, driven with Pilot.

Dates are shown in local time: every test here runs with TZ=UTC, so the snapshots do not
depend on the time zone of the machine that runs them.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from rich.text import Text
from textual.app import App, ComposeResult
from textual.message import Message
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import Input, RadioButton, RadioSet, Static
from textual.widgets.data_table import ColumnKey

from tests.ui import BAD_NAME, example_store, footer_keys, help_text, until, utc_clock
from tests.ui.test_tones import styles_at
from tui_bench.report.column_fit import COMPACT_DROP_ORDER
from tui_bench.ui import app as app_module
from tui_bench.ui.app import FirstScreen, TuibenchApp
from tui_bench.ui.messages import OpenCompare, OpenReplay, OpenRunForm
from tui_bench.ui.screens.sessions_screen import ConfirmDelete, SessionsScreen
from tui_bench.ui.text.session_cells import elide_middle, short_url
from tui_bench.ui.tones import tones_of
from tui_bench.ui.widgets.dialogs import HelpScreen
from tui_bench.ui.widgets.save_dialog import ConfirmOverwrite, SaveDialog
from tui_bench.ui.widgets.session_table import COMPACT_COLUMNS, SessionTable

# The example sweep, then the newest single run.
NEWEST = "20261121-114906-878-sweep-c-sweep"
SECOND = "20261121-112059-395-h2load-server-closes-connections"


@pytest.fixture(autouse=True)
def utc() -> Iterator[None]:
    yield from utc_clock()


@pytest.fixture
def store_dir(tmp_path: Path) -> Path:
    return example_store(tmp_path)


class RecordingApp(TuibenchApp):
    """Keeps what the screens ask of the app instead of opening other screens."""

    # A relative CSS path is read beside the module of the class that names it.
    CSS_PATH = str(Path(app_module.__file__).with_name(TuibenchApp.CSS_PATH))

    def __init__(self, first: FirstScreen) -> None:
        super().__init__(first)
        self.requests: list[Message] = []

    def _keep(self, message: Message) -> None:
        message.prevent_default()
        self.requests.append(message)

    async def on_open_replay(self, message: OpenReplay) -> None:
        self._keep(message)

    async def on_open_compare(self, message: OpenCompare) -> None:
        self._keep(message)

    async def on_open_run_form(self, message: OpenRunForm) -> None:
        self._keep(message)


def browser(directory: Path) -> RecordingApp:
    return RecordingApp(lambda app: SessionsScreen(directory))


async def loaded(pilot: Pilot[Any]) -> SessionTable:
    def ready() -> bool:
        tables = pilot.app.screen.query(SessionTable)
        return bool(tables) and tables.first().loaded

    await until(pilot, ready, "the sessions to load")
    await pilot.pause()
    return pilot.app.screen.query_one(SessionTable)


def notes(app: App[Any]) -> list[str]:
    return [str(n.message) for n in app._notifications]


def shown_ids(table: SessionTable) -> list[str]:
    return [row.id for row in table.shown_rows]


def text_of(app: App[Any], selector: str) -> str:
    return str(app.screen.query_one(selector, Static).render())


async def test_lists_every_file_newest_first_with_the_unreadable_one(store_dir: Path) -> None:
    async with browser(store_dir).run_test(size=(160, 48)) as pilot:
        table = await loaded(pilot)
        assert table.row_count == 8
        assert shown_ids(table)[:2] == [NEWEST, SECOND]
        bad = table.shown_rows[-1]
        assert bad.path.name == BAD_NAME and not bad.readable
        assert [str(c) for c in table.get_row(str(bad.path))][-1] == "unreadable"
        # The sweep reads as one: its tool marked, the figures of its knee (c=4).
        keys = [str(column.key.value) for column in table.ordered_columns]
        sweep = dict(zip(keys, map(str, table.get_row_at(0)), strict=True))
        assert (sweep["name"], sweep["tool"], sweep["c"]) == ("sweep c-sweep", "h2load sweep", "4")
        assert (sweep["rps"], sweep["p99"]) == ("22,662", "5.49 ms")
        assert "server-closes-connections" in str(table.get_row_at(1)[2])
        assert "2026-11-21 11:49:06  completed  h2load sweep" in text_of(pilot.app, "#detail")
        assert "8 sessions" in text_of(pilot.app, "#info")
        await pilot.press("ctrl+end")
        assert BAD_NAME in text_of(pilot.app, "#detail")
        assert "corrupt JSON" in text_of(pilot.app, "#detail")


async def test_a_new_theme_repaints_the_unreadable_file_in_its_colours(store_dir: Path) -> None:
    app = browser(store_dir)
    async with app.run_test(size=(160, 48)) as pilot:
        table = await loaded(pilot)
        await pilot.press("ctrl+end")
        bad = str(table.shown_rows[-1].path)

        def styles() -> tuple[str, str]:
            status, detail = table.get_cell(bad, "status"), app.screen.query_one("#detail", Static)
            assert isinstance(status, Text) and isinstance(detail.content, Text)
            return styles_at(status, "unreadable")[0], styles_at(detail.content, BAD_NAME)[0]

        dark = tones_of(table)
        assert styles() == (f"bold {dark.error}", dark.error)
        app.theme = "tuibench-light"
        light = tones_of(table)
        assert light.error != dark.error
        await until(pilot, lambda: styles() == (f"bold {light.error}", light.error), "new colours")
        assert table.current is not None and str(table.current.path) == bad, "the cursor stays"


async def test_a_narrow_table_gives_up_the_less_needed_columns(store_dir: Path) -> None:
    async with browser(store_dir).run_test(size=(80, 24)) as pilot:
        table = await loaded(pilot)
        keys = [str(c.key.value) for c in table.ordered_columns]
        assert "tags" not in keys and "url" not in keys
        assert {"date", "name", "rps", "p99", "errors", "validity"} <= set(keys)
        width = sum(c.get_render_width(table) for c in table.ordered_columns)
        assert width <= 80
        await pilot.resize_terminal(160, 48)
        await until(pilot, lambda: "tags" in table.columns, "the wide layout")


async def test_typing_filters_and_escape_clears(store_dir: Path) -> None:
    app = browser(store_dir)
    async with app.run_test(size=(120, 30)) as pilot:
        table = await loaded(pilot)
        await pilot.press("slash")
        assert isinstance(app.focused, Input)
        await pilot.press(*"WRK")
        assert shown_ids(table) == ["20261121-112055-632-wrk-wrk-h1"]
        assert "1 of 8 sessions" in text_of(app, "#info")
        await pilot.press("space", "z")
        assert table.row_count == 0
        assert "No session matches" in text_of(app, "#empty")
        await pilot.press("escape")
        assert table.row_count == 8 and table.has_focus
        await pilot.press("slash", "e", "x", "enter")
        assert table.has_focus and table.row_count == 7  # "ex": the example tag
        await pilot.press("escape")  # on the table: clears the filter first
        assert table.row_count == 8 and isinstance(app.screen, SessionsScreen)
        await pilot.press("escape")
    assert app.return_value == 0


async def test_enter_asks_for_a_replay_of_the_highlighted_session(store_dir: Path) -> None:
    app = browser(store_dir)
    async with app.run_test(size=(120, 30)) as pilot:
        table = await loaded(pilot)
        await pilot.press("down", "enter")
        await until(pilot, lambda: bool(app.requests), "a request")
        (request,) = app.requests
        assert isinstance(request, OpenReplay) and request.path == table.shown_rows[1].path
        await pilot.press("ctrl+end", "enter")
        await until(pilot, lambda: bool(notes(app)), "a notification")
        assert len(app.requests) == 1
        assert any(BAD_NAME in note for note in notes(app))


async def test_marks_a_and_b_then_compare(store_dir: Path) -> None:
    app = browser(store_dir)
    async with app.run_test(size=(120, 30)) as pilot:
        table = await loaded(pilot)
        first, second = table.shown_rows[0].path, table.shown_rows[1].path
        await pilot.press("c")
        assert any("mark A and B first" in note for note in notes(app))
        await pilot.press("a", "down", "b")
        assert str(table.get_cell(str(first), "mark")) == "A"
        assert str(table.get_cell(str(second), "mark")) == "B"
        assert "server-closes-connections" in text_of(app, "#info")
        await pilot.press("c")
        await until(pilot, lambda: bool(app.requests), "the compare request")
        (request,) = app.requests
        assert isinstance(request, OpenCompare)
        assert (request.a, request.b) == (first, second)
        # Marking the same row again unmarks it; then compare only says what is missing.
        await pilot.press("b")
        assert str(table.get_cell(str(second), "mark")) == ""
        await pilot.press("c")
        assert any(note.startswith("mark B first") for note in notes(app))
        assert len(app.requests) == 1
        # A on B's row moves the mark: one mark per row.
        await pilot.press("b", "a")
        assert table.marks == {"A": second}
        assert str(table.get_cell(str(first), "mark")) == ""


async def test_a_sweep_row_can_be_both_a_and_b(store_dir: Path) -> None:
    app = browser(store_dir)
    async with app.run_test(size=(120, 30)) as pilot:
        table = await loaded(pilot)
        index = next(i for i, row in enumerate(table.shown_rows) if row.kind == "sweep")
        sweep = table.shown_rows[index].path
        table.move_cursor(row=index)
        await pilot.press("b", "a")
        assert table.marks == {"A": sweep, "B": sweep}
        assert str(table.get_cell(str(sweep), "mark")) == "AB"
        await pilot.press("c")
        await until(pilot, lambda: bool(app.requests), "the compare request")
        (request,) = app.requests
        assert isinstance(request, OpenCompare) and request.a == request.b == sweep


async def test_the_unreadable_file_cannot_be_marked(store_dir: Path) -> None:
    app = browser(store_dir)
    async with app.run_test(size=(120, 30)) as pilot:
        table = await loaded(pilot)
        await pilot.press("ctrl+end", "a")
        assert table.marks == {}
        assert any("not a readable session" in note for note in notes(app))


async def test_s_cycles_the_sort_column_and_shift_s_reverses(store_dir: Path) -> None:
    async with browser(store_dir).run_test(size=(160, 48)) as pilot:
        table = await loaded(pilot)
        assert (table.sort_column, table.descending) == ("date", True)
        await pilot.press("s")
        assert (table.sort_column, table.descending) == ("name", False)
        assert str(table.columns[ColumnKey("name")].label).endswith("▲")
        await pilot.press("S")
        assert table.descending
        assert "sorted by name ▼" in text_of(pilot.app, "#info")
        names = [row.name for row in table.shown_rows if row.readable]
        assert names == sorted(names, reverse=True)


async def test_clicking_a_header_sorts_by_it_and_again_reverses(store_dir: Path) -> None:
    async with browser(store_dir).run_test(size=(160, 48)) as pilot:
        table = await loaded(pilot)
        x = 1
        for column in table.ordered_columns:
            if column.key.value == "rps":
                break
            x += column.get_render_width(table)
        await pilot.click(SessionTable, offset=(x, 0))
        assert (table.sort_column, table.descending) == ("rps", False)
        assert table.shown_rows[0].name == "server-closes-connections"
        await pilot.click(SessionTable, offset=(x, 0))
        assert table.descending and table.shown_rows[0].name == "ab-keepalive"


async def test_delete_asks_and_no_keeps_the_file(store_dir: Path) -> None:
    app = browser(store_dir)
    async with app.run_test(size=(120, 30)) as pilot:
        table = await loaded(pilot)
        await pilot.press("d")
        assert isinstance(app.screen, ConfirmDelete)
        await pilot.press("n")
        assert isinstance(app.screen, SessionsScreen)
        assert (store_dir / f"{NEWEST}.json").exists() and table.row_count == 8


async def test_delete_confirmed_removes_the_file_and_the_row(store_dir: Path) -> None:
    app = browser(store_dir)
    async with app.run_test(size=(120, 30)) as pilot:
        table = await loaded(pilot)
        await pilot.press("a", "d", "y")
        await until(pilot, lambda: table.row_count == 7, "the row to go")
        assert not (store_dir / f"{NEWEST}.json").exists()
        assert NEWEST not in shown_ids(table)
        assert table.marks == {}  # the mark went with its session
        assert table.current is not None and table.current.id == SECOND
        assert any(f"deleted {NEWEST}.json" in note for note in notes(app))


async def test_export_writes_the_default_file_in_the_current_directory(
    store_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    app = browser(store_dir)
    async with app.run_test(size=(120, 30)) as pilot:
        await loaded(pilot)
        await pilot.press("x")
        assert isinstance(app.screen, SaveDialog)
        assert app.screen.query_one("#path", Input).value == f"./{NEWEST}.json"
        await pilot.press("enter")
        written = tmp_path / f"{NEWEST}.json"
        await until(pilot, written.exists, "the export")
        await app.workers.wait_for_complete()
        assert written.read_text().lstrip().startswith("{")
        assert any(f"wrote {written}" in note for note in notes(app))


async def test_export_format_follows_the_choice_and_the_extension(
    store_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    app = browser(store_dir)
    async with app.run_test(size=(120, 30)) as pilot:
        await loaded(pilot)
        await pilot.press("down", "x")  # a single run: its series goes to CSV
        dialog = app.screen
        assert isinstance(dialog, SaveDialog)
        path = dialog.query_one("#path", Input)
        dialog.query_one("#format-minutes", RadioButton).value = True
        await until(pilot, lambda: path.value == f"./{SECOND}.minutes.csv", "a CSV of minutes")
        dialog.query_one("#format-md", RadioButton).value = True
        await until(pilot, lambda: path.value == f"./{SECOND}.md", "the md extension")
        path.value = "series.csv"
        await until(pilot, lambda: dialog.fmt == "csv", "the csv choice")
        assert dialog.query_one(RadioSet).pressed_index == 1
        path.focus()
        await pilot.press("enter")
        await until(pilot, (tmp_path / "series.csv").exists, "the csv export")
        await app.workers.wait_for_complete()
        assert (tmp_path / "series.csv").read_text().startswith("t_s,window_s,requests,rps,")


async def test_export_asks_before_writing_over_a_file(
    store_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    earlier = tmp_path / f"{SECOND}.md"
    earlier.write_text("an earlier export\n")
    app = browser(store_dir)
    async with app.run_test(size=(120, 30)) as pilot:
        await loaded(pilot)
        await pilot.press("down", "x")
        dialog = app.screen
        assert isinstance(dialog, SaveDialog)
        dialog.query_one("#format-md", RadioButton).value = True
        path = dialog.query_one("#path", Input)
        await until(pilot, lambda: path.value == f"./{SECOND}.md", "the md extension")
        path.focus()
        await pilot.press("enter")
        assert isinstance(app.screen, ConfirmOverwrite)
        assert str(earlier) in str(app.screen.query_one("#question", Static).render())
        await pilot.press("n")
        assert app.screen is dialog and path.has_focus
        assert earlier.read_text() == "an earlier export\n"
        await pilot.press("enter", "y")
        await until(pilot, lambda: earlier.read_text().startswith("# "), "the md export")
        await app.workers.wait_for_complete()
        assert isinstance(app.screen, SessionsScreen)
        assert any(f"wrote {earlier}" in note for note in notes(app))
        # Nothing but the md file: the name followed the format.
        assert [p.name for p in tmp_path.glob(f"{SECOND}.*")] == [earlier.name]


async def test_export_errors_and_escape(store_dir: Path, tmp_path: Path) -> None:
    app = browser(store_dir)
    async with app.run_test(size=(120, 30)) as pilot:
        await loaded(pilot)
        await pilot.press("x", "escape")
        assert isinstance(app.screen, SessionsScreen)
        await pilot.press("x")
        dialog = app.screen
        assert isinstance(dialog, SaveDialog)
        # The format has the focus: arrows and space pick it, the path stays as it was.
        assert isinstance(app.focused, RadioSet)
        path = dialog.query_one("#path", Input)
        await pilot.press("right", "space")
        await until(pilot, lambda: dialog.fmt == "csv", "csv picked")
        assert path.value == f"./{NEWEST}.csv"
        target = tmp_path / "missing" / "out.json"
        path.value = str(target)
        await pilot.press("enter")
        # A path that cannot be written keeps the dialog, the reason under the field.
        error = dialog.query_one("#path-error", Static)
        await until(pilot, lambda: error.display, "the reason under the path")
        reason = str(error.render())
        assert reason == f"cannot write {target}: No such file or directory"
        assert app.screen is dialog and path.has_focus
        assert not any("cannot write" in n for n in notes(app))
        path.value = str(tmp_path / "out.json")
        await until(pilot, lambda: not error.display, "the reason gone once typed on")
        await pilot.press("escape", "ctrl+end", "x")
        assert isinstance(app.screen, SessionsScreen)
        assert any("cannot export" in n for n in notes(app))


async def test_export_of_a_vanished_file_or_onto_itself_is_refused(store_dir: Path) -> None:
    app = browser(store_dir)
    async with app.run_test(size=(120, 30)) as pilot:
        table = await loaded(pilot)
        source = table.shown_rows[0].path
        await pilot.press("x")
        dialog = app.screen
        dialog.query_one("#path", Input).value = str(source)
        await pilot.press("enter", "y")  # it exists: even a yes does not write over it
        await until(pilot, lambda: "session file itself" in said(dialog), "no")
        assert source.read_text().lstrip().startswith("{")
        source.unlink()
        dialog.query_one("#path", Input).value = str(source.with_name("out.json"))
        await pilot.press("enter")
        await until(pilot, lambda: "no such session file" in said(dialog), "no")


def said(dialog: Screen[Any]) -> str:
    """What the export dialog says under its file's field."""
    error = dialog.query_one("#path-error", Static)
    return str(error.render()) if error.display else ""


async def test_r_reloads_the_store(store_dir: Path) -> None:
    async with browser(store_dir).run_test(size=(120, 30)) as pilot:
        table = await loaded(pilot)
        (store_dir / f"{NEWEST}.json").unlink()
        await pilot.press("r")
        await until(pilot, lambda: table.row_count == 7, "the reload")


async def test_n_asks_for_the_run_form_and_question_mark_shows_the_keys(store_dir: Path) -> None:
    app = browser(store_dir)
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot)
        await pilot.press("n")
        await until(pilot, lambda: bool(app.requests), "the run form request")
        assert isinstance(app.requests[0], OpenRunForm)
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        help_text = text_of(app, "#help")
        for words in ("replay", "filter", "mark as A", "mark as B", "compare", "sort", "reverse"):
            assert words in help_text
        for words in ("delete", "export", "read the sessions again", "new run", "back"):
            assert words in help_text
        await pilot.press("escape")
        assert isinstance(app.screen, SessionsScreen)


async def test_q_goes_back_to_the_screen_below(store_dir: Path) -> None:
    class Below(Screen[None]):
        def compose(self) -> ComposeResult:
            yield Static("below")

    app = RecordingApp(lambda app: Below())
    async with app.run_test(size=(120, 30)) as pilot:
        app.push_screen(SessionsScreen(store_dir))
        await loaded(pilot)
        await pilot.press("q")
        assert isinstance(app.screen, Below)


async def test_coming_back_reads_the_store_again_if_it_changed(store_dir: Path) -> None:
    app = browser(store_dir)
    async with app.run_test(size=(120, 30)) as pilot:
        table = await loaded(pilot)
        await app.push_screen(Screen())
        shutil.copy(store_dir / f"{NEWEST}.json", store_dir / "20261122-000000-000-copy.json")
        app.pop_screen()
        await until(pilot, lambda: table.row_count == 9, "the new session")


async def test_q_on_the_first_screen_quits(store_dir: Path) -> None:
    app = browser(store_dir)
    async with app.run_test(size=(120, 30)) as pilot:
        await loaded(pilot)
        await pilot.press("q")
    assert app.return_value == 0


async def test_an_empty_store_says_where_sessions_are_looked_for(tmp_path: Path) -> None:
    app = browser(tmp_path / "none-yet")
    async with app.run_test(size=(80, 24)) as pilot:
        table = await loaded(pilot)
        assert table.row_count == 0
        text = text_of(app, "#empty")
        assert str(tmp_path / "none-yet") in text and "press n" in text
        await pilot.press("a", "d", "x")  # nothing to act on: no dialog opens
        assert isinstance(app.screen, SessionsScreen)


async def test_compact_table_shows_the_latest_few(store_dir: Path) -> None:
    picked: list[Path] = []

    class Home(App[None]):
        def compose(self) -> ComposeResult:
            yield SessionTable(store_dir, columns=COMPACT_COLUMNS, drop=COMPACT_DROP_ORDER, limit=3)

        def on_session_table_picked(self, message: SessionTable.Picked) -> None:
            picked.append(message.path)

    app = Home()
    async with app.run_test(size=(120, 20)) as pilot:
        table = await loaded(pilot)
        shown = [str(c.key.value) for c in table.ordered_columns]
        # Too narrow for all: what ran where stays, the rest goes in its order.
        assert {"name", "tool", "url", "rps", "p99"} <= set(shown) < set(COMPACT_COLUMNS)
        assert table.row_count == 3 and shown_ids(table)[:2] == [NEWEST, SECOND]
        table.focus()
        await pilot.press("enter")
        await until(pilot, lambda: bool(picked), "the pick")
        assert picked == [store_dir / f"{NEWEST}.json"]


def test_short_url() -> None:
    assert short_url("http://127.0.0.1:8080/") == "127.0.0.1:8080"
    assert short_url("https://127.0.0.1:8443/") == "https://127.0.0.1:8443"
    assert short_url("http://h:1/a?b=c") == "h:1/a?b=c"
    assert short_url("http://h:1/ http://h:2/ http://h:3/") == "h:1 +2"
    assert short_url("") == ""


async def test_at_80_columns_the_footer_fits_and_help_keeps_delete(tmp_path: Path) -> None:
    app = browser(example_store(tmp_path))
    async with app.run_test(size=(80, 24)) as pilot:
        await loaded(pilot)
        assert {"c Compare", "? Help", "q Back"} <= set(footer_keys(pilot))
        assert "delete the session's file" in await help_text(pilot)


# Snapshots


async def _loaded(pilot: Pilot[Any]) -> None:
    await loaded(pilot)


async def _marked(pilot: Pilot[Any]) -> None:
    await loaded(pilot)
    # Two single runs, below the example sweep.
    await pilot.press("down", "a", "down", "down", "b")


def test_snapshot_80x24(snap_compare: Any, tmp_path: Path) -> None:
    app = browser(example_store(tmp_path))
    assert snap_compare(app, terminal_size=(80, 24), run_before=_marked)


def test_snapshot_120x40(snap_compare: Any, tmp_path: Path) -> None:
    app = browser(example_store(tmp_path))
    assert snap_compare(app, terminal_size=(120, 40), run_before=_marked)


def test_snapshot_160x48(snap_compare: Any, tmp_path: Path) -> None:
    app = browser(example_store(tmp_path))
    assert snap_compare(app, terminal_size=(160, 48), run_before=_marked)


def test_snapshot_export_dialog_80x24(snap_compare: Any, tmp_path: Path) -> None:
    async def export(pilot: Pilot[Any]) -> None:
        await loaded(pilot)
        await pilot.press("x")

    app = browser(example_store(tmp_path))
    assert snap_compare(app, terminal_size=(80, 24), run_before=export)


def test_long_names_give_up_their_middle_not_the_end_that_tells_them_apart() -> None:
    old, new = Text("sweep c-ramp-nginx-old"), Text("sweep c-ramp-nginx-new")
    assert elide_middle(old, 12).plain == "sweep …x-old"
    assert elide_middle(new, 12).plain == "sweep …x-new"
    assert elide_middle(old, 12).plain.endswith("old") and elide_middle(old, 12).cell_len == 12
    assert elide_middle(old, 40) is old, "room enough: as it is"


async def test_a_damaged_journal_is_listed_and_hides_nothing(store_dir: Path) -> None:
    # A run that died as its journal's header was being written.
    journal = store_dir / "20200101-000000-000-h2load-died.journal"
    journal.write_bytes(b'{"k":"header","sch')
    async with browser(store_dir).run_test(size=(160, 48)) as pilot:
        table = await loaded(pilot)
        assert table.row_count == 9
        assert shown_ids(table)[:2] == [NEWEST, SECOND]
        died = next(row for row in table.shown_rows if row.path == journal)
        assert not died.readable
        assert [str(c) for c in table.get_row(str(journal))][-1] == "unreadable"
        assert not notes(pilot.app), "no error instead of the list"
