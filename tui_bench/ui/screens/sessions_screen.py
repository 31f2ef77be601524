"""The sessions browser: every saved session, filtered as you type, sorted, marked A and B
for a comparison, replayed, exported or deleted.

Opening a replay, a comparison or the run form is asked of the app with a message.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Input, Label, Static

from tui_bench.errors import TuibenchError
from tui_bench.printable import printable
from tui_bench.report.export import export_to_file
from tui_bench.report.export_formats import FORMATS, RUN_ONLY
from tui_bench.storage import store
from tui_bench.storage.catalog import SessionRow
from tui_bench.ui.messages import OpenCompare, OpenHistory, OpenReplay, OpenRunForm, leave
from tui_bench.ui.text.session_cells import local_time
from tui_bench.ui.tones import Tones, follow_theme, tones_of
from tui_bench.ui.widgets.dialogs import Confirm, HelpScreen
from tui_bench.ui.widgets.save_dialog import SaveChoice, SaveDialog, Writer
from tui_bench.ui.widgets.session_table import COLUMNS, SessionTable

MARKS = ("A", "B")


def row_title(row: SessionRow) -> str:
    return printable(row.name or row.id) if row.readable else row.path.name


class ConfirmDelete(Confirm):
    def __init__(self, row: SessionRow) -> None:
        super().__init__(
            Text.assemble(
                "Delete the session ",
                (row_title(row), "bold"),
                f"?\n\nIts file {row.path.name} is removed for good.",
            )
        )
        self.row = row


def export_dialog(row: SessionRow, write: Writer) -> SaveDialog:
    if row.kind == "sweep":
        hint = (
            "json the whole sweep · csv its runs and points · md its tables · "
            "openmetrics its runs' seconds for Prometheus"
        )
        formats = tuple(f for f in FORMATS if f not in RUN_ONLY)
    else:
        hint = (
            "json all · csv the series · md the result · minutes each minute's latency · "
            "segments each load · openmetrics for Prometheus · hlog for HdrHistogram"
        )
        formats = FORMATS
    title = Text.assemble("Export ", (row_title(row), "bold"))
    return SaveDialog(title, formats, f"./{row.id}", hint, write)


class SessionsScreen(Screen[None]):
    DEFAULT_CSS = """
    SessionsScreen { layout: vertical; }
    SessionsScreen #filter-bar { height: 1; padding: 0 1; background: $boost; }
    SessionsScreen #filter-bar > Label { width: auto; color: $text-muted; padding-right: 1; }
    SessionsScreen #filter { width: 1fr; }
    SessionsScreen SessionTable { height: 1fr; }
    SessionsScreen #empty { display: none; height: 1fr; padding: 1 2; }
    SessionsScreen.-empty SessionTable { height: auto; }
    SessionsScreen.-empty #empty { display: block; }
    SessionsScreen #info { height: 1; padding: 0 1; background: $boost; }
    SessionsScreen #detail { height: 1; padding: 0 1; color: $text-muted; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "slash",
            "focus_filter",
            "Filter",
            show=False,
            key_display="/",
            tooltip="filter as you type (name, tool, URL, tag, id, status)",
        ),
        Binding("a", "mark('A')", "Mark A", tooltip="mark as A, the baseline (again: unmark)"),
        Binding("b", "mark('B')", "Mark B", tooltip="mark as B, compared with A (again: unmark)"),
        Binding("c", "compare", "Compare", tooltip="compare B with A (a sweep asks which point)"),
        Binding(
            "s", "sort", "Sort", show=False, tooltip="sort by the next column (or click a header)"
        ),
        Binding("S", "reverse", "Reverse", show=False, tooltip="reverse the order"),
        # Only in the help: the footer has no room for it at 80 columns, and a key that
        # destroys is not one to offer at a glance.
        Binding(
            "d", "delete", "Delete", show=False, tooltip="delete the session's file (asks first)"
        ),
        Binding("x", "export", "Export", tooltip="export as json, csv or md into a file"),
        Binding(
            "h", "history", "History", tooltip="every run of the highlighted benchmark (--name)"
        ),
        Binding("r", "reload", "Reload", show=False, tooltip="read the sessions again"),
        Binding("n", "new_run", "New run", show=False, tooltip="set up a new run"),
        Binding("question_mark", "help", "Help", key_display="?", tooltip="this help"),
        Binding("q", "leave", "Back", tooltip="back (quit when this is the first screen)"),
        Binding("escape", "escape", "Back", show=False, tooltip="clear the filter, else back"),
    ]

    def __init__(self, directory: Path | None) -> None:
        super().__init__()
        self.directory = directory

    @property
    def table(self) -> SessionTable:
        return self.query_one(SessionTable)

    def compose(self) -> ComposeResult:
        with Horizontal(id="filter-bar"):
            yield Label("/ filter")
            yield Input(placeholder="name, tool, URL, tag, id or status", compact=True, id="filter")
        yield SessionTable(self.directory, id="sessions")
        yield Static(id="empty")
        yield Static(id="info")
        yield Static(id="detail")
        yield Footer()

    def on_mount(self) -> None:
        follow_theme(self, self._retone)
        self.table.focus()

    def _retone(self, _tones: Tones) -> None:
        self._paint_detail()

    def on_screen_resume(self) -> None:
        # Back from a run, a replay or a comparison: a session may have been saved meanwhile.
        self.table.reload_if_changed()

    # What the table says

    def on_session_table_loaded(self, event: SessionTable.Loaded) -> None:
        self._paint()

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        self._paint_detail()

    @on(Input.Changed, "#filter")
    def _filter_changed(self, event: Input.Changed) -> None:
        self.table.set_filter(event.value)
        self._paint()

    @on(Input.Submitted, "#filter")
    def _filter_done(self) -> None:
        self.table.focus()

    def on_session_table_picked(self, event: SessionTable.Picked) -> None:
        event.stop()
        self.post_message(OpenReplay(event.path))

    def _paint(self) -> None:
        table = self.table
        self.refresh_bindings()
        empty = table.loaded and not table.shown_rows
        self.set_class(empty, "-empty")
        if empty:
            self.query_one("#empty", Static).update(self._empty_text())
        self._paint_info()
        self._paint_detail()

    def _empty_text(self) -> Text:
        table = self.table
        if table.all_rows:
            return Text.assemble(
                "No session matches ", (repr(table.filter_text), "bold"), ". escape clears it."
            )
        where = self.directory or store.sessions_dir()
        return Text.assemble(
            "No sessions yet. They are looked for in\n",
            (str(where), "bold"),
            "\n(set TUIBENCH_SESSIONS to look elsewhere).\n\n"
            "Every run saves one there: press n for a new run, or run\n"
            "tuibench run URL (tuibench demo runs one against a built-in server).",
        )

    def _paint_info(self) -> None:
        table = self.table
        shown, total = len(table.shown_rows), len(table.all_rows)
        count = f"{shown} of {total} sessions" if shown != total else f"{total} sessions"
        arrow = "▼" if table.descending else "▲"
        text = Text.assemble(
            count, ("  sorted by ", "dim"), f"{COLUMNS[table.sort_column].label} {arrow}"
        )
        if not table.marks:
            text.append("  a / b mark two sessions to compare", "dim")
            self.query_one("#info", Static).update(text)
            return
        names = {row.path: row_title(row) for row in table.all_rows}
        for label in MARKS:
            path = table.marks.get(label)
            text.append(f"  {label} ", "bold reverse" if path else "dim")
            text.append(f" {names.get(path, '–') if path else '–'}")
        self.query_one("#info", Static).update(text)

    def _paint_detail(self) -> None:
        row = self.table.current
        detail = self.query_one("#detail", Static)
        if row is None:
            detail.update("")
        elif not row.readable:
            detail.update(Text(f"{row.path.name}: {row.error}", tones_of(self).error))
        else:
            parts = [
                local_time(row.started, year=True),
                row.status,
                row.tool,
                row.url,
                *(f"#{tag}" for tag in row.tags),
                row.path.name,
            ]
            # Text, not markup: a tag or a URL may hold `[`.
            detail.update(Text(printable("  ".join(part for part in parts if part))))

    # Actions

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # Shown but greyed while no row is there to act on.
        if action in ("mark", "delete", "export", "history"):
            tables = self.query(SessionTable)
            return True if tables and tables.first().current is not None else None
        return True

    def _row(self, doing: str, *, readable: bool = True) -> SessionRow | None:
        """The highlighted row, or None after saying why there is nothing to do."""
        row = self.table.current
        if row is None:
            self.notify(f"no session to {doing}", severity="warning")
            return None
        if readable and not row.readable:
            self.notify(
                printable(f"cannot {doing} {row.path.name}: not a readable session"),
                severity="error",
                markup=False,
            )
            return None
        return row

    def action_focus_filter(self) -> None:
        self.query_one("#filter", Input).focus()

    def action_mark(self, label: str) -> None:
        if self._row("mark") is not None:
            self.table.toggle_mark(label)
            self._paint_info()

    def action_compare(self) -> None:
        marks = self.table.marks
        if "A" not in marks or "B" not in marks:
            missing = " and ".join(label for label in MARKS if label not in marks)
            self.notify(
                f"mark {missing} first: a on the baseline, b on the session to compare",
                severity="warning",
            )
            return
        self.post_message(OpenCompare(marks["A"], marks["B"]))

    def action_sort(self) -> None:
        self.table.cycle_sort()
        self._paint_info()

    def action_reverse(self) -> None:
        self.table.reverse_sort()
        self._paint_info()

    def action_reload(self) -> None:
        self.table.reload()

    def action_history(self) -> None:
        row = self._row("show the history of")
        if row is None:
            return
        if not row.name:
            self.notify(
                "this session has no name: a benchmark's history is its runs with one --name",
                severity="warning",
            )
            return
        self.post_message(OpenHistory(row.name))

    def action_new_run(self) -> None:
        self.post_message(OpenRunForm())

    def action_help(self) -> None:
        keys = [*SessionTable.BINDINGS, *self.BINDINGS]
        self.app.push_screen(HelpScreen(b for b in keys if isinstance(b, Binding)))

    def action_delete(self) -> None:
        row = self._row("delete", readable=False)
        if row is None:
            return

        def answered(yes: bool | None) -> None:
            if yes:
                self.run_worker(self._delete(row), group="sessions-io")

        self.app.push_screen(ConfirmDelete(row), answered)

    async def _delete(self, row: SessionRow) -> None:
        try:
            await asyncio.to_thread(store.delete, row.path, self.directory)
        except TuibenchError as exc:
            self.notify(str(exc), severity="error", timeout=10)
            return
        self.notify(printable(f"deleted {row.path.name}"), markup=False)
        self.table.reload()

    def action_export(self) -> None:
        row = self._row("export")
        if row is None:
            return

        async def write(choice: SaveChoice) -> Path:
            return await asyncio.to_thread(
                export_to_file,
                row.path,
                choice.fmt,
                choice.path,
                self.directory,
                force=choice.overwrite,
            )

        def written(path: Path | None) -> None:
            if path is not None:
                self.notify(printable(f"wrote {path}"), timeout=10, markup=False)

        self.app.push_screen(export_dialog(row, write), written)

    def action_escape(self) -> None:
        field = self.query_one("#filter", Input)
        if field.has_focus or field.value:
            field.value = ""
            self.table.focus()
        else:
            self.action_leave()

    def action_leave(self) -> None:
        leave(self)
