"""The history of one benchmark: its trend of req/s and p99 run after run, the table of its
runs (invalid ones apart, at the end: the trend and the change points leave them out) and
the change points found in it."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Static

from tui_bench.analysis.history import METHOD, History
from tui_bench.report.history_report import (
    HEADS,
    NUMERIC,
    Row,
    rows,
    shown_columns,
    step_line,
    summary_line,
)
from tui_bench.ui.messages import OpenReplay, leave
from tui_bench.ui.tones import Tones, follow_theme, validity_text
from tui_bench.ui.widgets.dialogs import HelpScreen
from tui_bench.ui.widgets.history_chart import HistoryChart

# The separator between the runs that count and the invalid ones.
APART = "apart"


class HistoryScreen(Screen[None]):
    DEFAULT_CSS = """
    HistoryScreen { layout: vertical; }
    HistoryScreen #headline { height: 1; padding: 0 1; background: $boost; }
    HistoryScreen #charts { height: 2fr; min-height: 9; }
    HistoryScreen #runs { height: 3fr; }
    HistoryScreen #steps { height: 4; padding: 0 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("question_mark", "help", "Help", key_display="?", tooltip="this help"),
        Binding("q,escape", "leave", "Back", tooltip="back (quit when this is the first screen)"),
    ]

    def __init__(self, history: History) -> None:
        super().__init__()
        self.history = history
        table = rows(history)
        self.rows: list[Row] = [r for r in table if r.counts] + [r for r in table if not r.counts]

    def compose(self) -> ComposeResult:
        yield Static(summary_line(self.history), id="headline")
        with Horizontal(id="charts"):
            yield HistoryChart("rps", id="chart-rps")
            yield HistoryChart("p99_s", id="chart-p99")
        yield DataTable[Text](cursor_type="row", zebra_stripes=True, id="runs")
        yield Static(id="steps")
        yield Footer()

    def on_mount(self) -> None:
        for chart in self.query(HistoryChart):
            chart.show(self.history)
        self._paint(follow_theme(self, self._paint))
        self.query_one("#runs", DataTable).focus()

    def _paint(self, tones: Tones) -> None:
        table: DataTable[Text] = self.query_one("#runs", DataTable)
        table.clear(columns=True)
        keys = shown_columns(self.rows)
        for key in keys:
            table.add_column(
                Text(HEADS[key], justify="right" if key in NUMERIC else "left"), key=key
            )
        apart = False
        for i, row in enumerate(self.rows):
            if not row.counts and not apart:
                apart = True
                # Short: the date column is not widened for it; the help says the rest.
                note = Text("── invalid ──", "italic dim")
                table.add_row(note, *(Text("") for _ in keys[1:]), key=APART)
            table.add_row(*(self._cell(row, key, tones) for key in keys), key=str(i))
        text = Text(f"change points ({METHOD['name']}, {METHOD['test']}):", "dim")
        for step in self.history.steps:
            text.append(f"\n{step_line(self.history, step, short=True)}")
        if not self.history.steps:
            text.append(" none found", "dim")
        self.query_one("#steps", Static).update(text)
        if self.rows:
            # The newest run that counts: what the user most likely came to see.
            counted = sum(1 for r in self.rows if r.counts)
            table.move_cursor(row=max(counted - 1, 0))

    @staticmethod
    def _cell(row: Row, key: str, tones: Tones) -> Text:
        value = row.cells[key]
        if key == "validity":
            return validity_text(value, tones) if value != "–" else Text("–", "dim")
        if key == "step" and value:
            return Text(value, f"bold {tones.warning}")
        return Text(value, justify="right" if key in NUMERIC else "left")

    @property
    def current(self) -> Row | None:
        table: DataTable[Text] = self.query_one("#runs", DataTable)
        if not 0 <= table.cursor_row < table.row_count:
            return None
        key = table.ordered_rows[table.cursor_row].key.value
        return None if key in (None, APART) else self.rows[int(str(key))]

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        row = self.current
        if row is not None:
            self.post_message(OpenReplay(self.history.runs[row.run].path))

    def action_help(self) -> None:
        keys = [Binding("enter", "", "replay the highlighted run"), *self.BINDINGS]
        self.app.push_screen(HelpScreen(b for b in keys if isinstance(b, Binding)))

    def action_leave(self) -> None:
        leave(self)
