"""A table of saved sessions: all of them in the sessions browser, the latest few elsewhere.

Rows come from `storage.catalog` through the store's index (`storage.index`), read in a
thread. The table fits its columns to its width: narrow, it drops the columns named in
DROP_ORDER (the core's, as `tuibench sessions`), then shortens the name.

A DataTable measures every cell of every row it is given, so a store of 10,000 sessions
would take seconds to show: the table is given the first FIRST_ROWS rows of the listing, and
MORE_ROWS more whenever the cursor or the view comes near the end of those.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar, Literal

from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.widgets import DataTable

from tui_bench.errors import TuibenchError
from tui_bench.printable import printable
from tui_bench.report.column_fit import CAPS, DROP_ORDER
from tui_bench.report.column_fit import fit_columns as core_fit
from tui_bench.storage import layout
from tui_bench.storage.catalog import (
    SORT_KEYS,
    SessionRow,
    filter_rows,
    recent,
    sort_rows,
)
from tui_bench.storage.index import indexed_rows
from tui_bench.ui.text.session_cells import MARK_STYLE, cell_texts, elide_middle, mark_of
from tui_bench.ui.tones import Tones, follow_theme


@dataclass(frozen=True)
class Column:
    label: str
    justify: Literal["left", "right"] = "left"
    min_width: int = 0


COLUMNS: Mapping[str, Column] = {
    "mark": Column(" ", min_width=2),  # one sweep may be both A and B
    "date": Column("date"),
    "name": Column("name"),
    "tool": Column("tool"),
    "url": Column("URL"),
    "c": Column("c", "right"),
    "m": Column("m", "right"),
    "rps": Column("req/s", "right"),
    "p99": Column("p99", "right"),
    "errors": Column("errors", "right"),
    "validity": Column("validity"),
    "tags": Column("tags"),
    "status": Column("status"),
}
FULL_COLUMNS = tuple(COLUMNS)
COMPACT_COLUMNS = ("date", "name", "tool", "url", "rps", "p99", "errors", "validity", "status")
SCROLLBAR_WIDTH = 2
FIRST_ROWS = 100
MORE_ROWS = 500
# How near the end of the rows given the cursor or the view may come before more are given.
MARGIN_ROWS = 30
# The columns fit the newest this many sessions: an older session's longer cell is cut
# with an ellipsis rather than every cell of the store measured.
WIDTH_SAMPLE = 200


# Names and URLs that differ at their end (`sweep c-ramp-old` and `sweep c-ramp-new`, the
# path of a URL): elided in the middle, so that what tells them apart stays.
MIDDLE_ELIDED = ("name", "url")


def _stamp(directory: Path) -> int | None:
    """When the directory last changed: adding, removing or renaming a file changes it."""
    try:
        return directory.stat().st_mtime_ns
    except OSError:
        return None


def fit_columns(
    natural: Mapping[str, int], available: int, drop: Sequence[str] = DROP_ORDER
) -> dict[str, int]:
    """The columns kept and their widths, so that all of them fit in `available` cells, one
    cell of padding each side, by the core's rule."""
    return core_fit(natural, available, drop, caps=CAPS, elided=MIDDLE_ELIDED)


class SessionTable(DataTable[Text]):
    """Saved sessions, one per row; enter (or a click on the highlighted row) picks one."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "select_cursor", "Replay", tooltip="replay the highlighted session"),
    ]
    # The theme's, from mounting on.
    tones: Tones

    class Picked(Message):
        """A readable session was picked (enter, or a click on the highlighted row)."""

        def __init__(self, table: SessionTable, path: Path) -> None:
            super().__init__()
            self.table = table
            self.path = path

        @property
        def control(self) -> SessionTable:
            return self.table

    class Loaded(Message):
        """The store was read: `count` files, readable or not, before any filter."""

        def __init__(self, table: SessionTable, count: int) -> None:
            super().__init__()
            self.table = table
            self.count = count

        @property
        def control(self) -> SessionTable:
            return self.table

    def __init__(
        self,
        directory: Path | None = None,
        *,
        columns: Sequence[str] = FULL_COLUMNS,
        drop: Sequence[str] = DROP_ORDER,
        limit: int | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(cursor_type="row", zebra_stripes=True, id=id, classes=classes)
        self.directory = directory
        self.wanted = tuple(columns)
        self.drop = tuple(drop)
        self.limit = limit
        self.all_rows: list[SessionRow] = []
        self.shown_rows: list[SessionRow] = []
        self.filter_text = ""
        self.sort_column = "date"
        self.descending = True
        self.marks: dict[str, Path] = {}
        self.loaded = False
        self._layout: dict[str, int] = {}
        self._fitted_width = 0
        self._stamp: int | None = None
        # How many of `shown_rows` the table holds, and the texts of the rows built so far.
        self._added = 0
        self._texts: dict[Path, dict[str, Text]] = {}

    def on_mount(self) -> None:
        self.tones = follow_theme(self, self._retone)
        self.reload()

    def _retone(self, tones: Tones) -> None:
        self.tones = tones
        if self.loaded:
            self.refill()

    # Loading

    def reload(self) -> None:
        """Read the store again (in a thread); the cursor stays on its session."""
        self.run_worker(self._load(), name="load-sessions", group="session-table", exclusive=True)

    def reload_if_changed(self) -> None:
        """Read the store again if a file was added, removed or replaced since the last read."""
        if self.loaded and _stamp(self._store()) != self._stamp:
            self.reload()

    def _store(self) -> Path:
        return self.directory or layout.sessions_dir()

    async def _load(self) -> None:
        directory = self._store()

        def read() -> tuple[int | None, list[SessionRow]]:
            # Stamped before reading: a file added meanwhile makes the next check read again.
            return _stamp(directory), indexed_rows(directory)

        if not self.loaded and self.sort_column == "date" and self.descending:
            # The newest sessions (files are named by their start) before the whole store:
            # what the first screen shows, while the rest is listed.
            with contextlib.suppress(TuibenchError, OSError):
                self.all_rows = await asyncio.to_thread(indexed_rows, directory, FIRST_ROWS)
                self.refill()
        try:
            # Many files are read and parsed: never on the event loop.
            self._stamp, rows = await asyncio.to_thread(read)
        except (TuibenchError, OSError) as exc:
            self.notify(
                printable(f"cannot read the sessions: {exc}"),
                severity="error",
                timeout=10,
                markup=False,
            )
            rows = self.all_rows
        self.all_rows = rows
        paths = {row.path for row in rows}
        self.marks = {label: path for label, path in self.marks.items() if path in paths}
        self.loaded = True
        self.refill()
        self.post_message(self.Loaded(self, len(rows)))

    # What is shown

    @property
    def current(self) -> SessionRow | None:
        """The highlighted row, if any."""
        if 0 <= self.cursor_row < len(self.shown_rows):
            return self.shown_rows[self.cursor_row]
        return None

    def set_filter(self, text: str) -> None:
        self.filter_text = text
        self.refill()

    def sort_by(self, column: str, *, descending: bool | None = None) -> None:
        """Sort by `column`: newest first for dates, ascending for the rest unless told."""
        self.sort_column = column
        self.descending = column == "date" if descending is None else descending
        self.refill()

    def cycle_sort(self) -> None:
        """Sort by the next shown column."""
        order = [c for c in self._layout if c in SORT_KEYS] or ["date"]
        at = order.index(self.sort_column) if self.sort_column in order else -1
        self.sort_by(order[(at + 1) % len(order)])

    def reverse_sort(self) -> None:
        self.sort_by(self.sort_column, descending=not self.descending)

    def toggle_mark(self, label: str) -> None:
        """Put mark `label` on the highlighted row, or take it off if it is already there."""
        row = self.current
        if row is None:
            return
        if self.marks.get(label) == row.path:
            del self.marks[label]
        else:
            # Comparing a run with itself says nothing; two points of one sweep do, and
            # the app asks which.
            if row.kind != "sweep":
                self.marks = {k: p for k, p in self.marks.items() if p != row.path}
            self.marks[label] = row.path
        if "mark" in self._layout:
            for shown in self.shown_rows[: self._added]:
                text = Text(mark_of(shown.path, self.marks), MARK_STYLE)
                self.update_cell(str(shown.path), "mark", text)

    def refill(self) -> None:
        """Rebuild the rows from the loaded ones: limit, filter, sort, fit to the width."""
        kept, kept_index = self.current, self.cursor_row
        pool = recent(self.all_rows, self.limit) if self.limit else self.all_rows
        rows = filter_rows(pool, self.filter_text)
        self.shown_rows = sort_rows(rows, self.sort_column, descending=self.descending)
        self._texts = {}
        # Widths come from the store's rows, not just the matching ones: columns stay put
        # while the user types a filter.
        self._fit(self._cells_of(row) for row in pool[:WIDTH_SAMPLE])
        self.clear(columns=True)
        self._added = 0
        for key, column_width in self._layout.items():
            self.add_column(self._label(key), width=column_width, key=key)
        paths = [row.path for row in self.shown_rows]
        if kept is not None and kept.path in paths:
            at = paths.index(kept.path)
        else:
            # Its row went away (deleted, filtered out): stay at the same height.
            at = min(kept_index, len(paths) - 1)
        self._give_rows(max(FIRST_ROWS, at + MARGIN_ROWS))
        if paths:
            self.move_cursor(row=at)

    def _cells_of(self, row: SessionRow) -> dict[str, Text]:
        texts = self._texts.get(row.path)
        if texts is None:
            texts = self._texts[row.path] = cell_texts(row, self.marks, self.tones)
        return texts

    def _give_rows(self, count: int) -> None:
        """Hand the table the shown rows up to `count` (those it does not hold yet)."""
        end = min(count, len(self.shown_rows))
        for row in self.shown_rows[self._added : end]:
            texts = self._cells_of(row)
            cells_of_row = (self._cell(texts, key, width) for key, width in self._layout.items())
            self.add_row(*cells_of_row, key=str(row.path))
        self._added = max(self._added, end)

    def _near(self, row: int) -> None:
        if row + MARGIN_ROWS >= self._added:
            self._give_rows(row + MARGIN_ROWS + MORE_ROWS)

    def _fit(self, cells: Iterable[Mapping[str, Text]]) -> None:
        natural = {
            key: max(self._label(key).cell_len, COLUMNS[key].min_width) for key in self.wanted
        }
        for texts in cells:
            for key in self.wanted:
                if key in texts:
                    natural[key] = max(natural[key], texts[key].cell_len)
        self._fitted_width = self.size.width
        available = self.size.width - SCROLLBAR_WIDTH
        self._layout = fit_columns(natural, available, self.drop) if available > 0 else natural

    def _label(self, key: str) -> Text:
        column = COLUMNS[key]
        label = Text(column.label, justify=column.justify)
        if key == self.sort_column:
            label.append(" ▼" if self.descending else " ▲")
        return label

    @staticmethod
    def _cell(texts: Mapping[str, Text], key: str, width: int) -> Text:
        # A copy: one Text may fill several cells, each with its own alignment.
        text = texts[key].copy() if key in texts else Text("")
        if key in MIDDLE_ELIDED:
            text = elide_middle(text, width)
        text.justify = COLUMNS[key].justify
        text.no_wrap = True
        text.overflow = "ellipsis"
        return text

    # Events

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        # Not stopped: the screen paints the highlighted session's details from it.
        self._near(event.cursor_row)

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        super().watch_scroll_y(old_value, new_value)
        self._near(int(new_value) + self.size.height)

    def action_scroll_bottom(self) -> None:
        # To the last session, not the last row handed over so far.
        self._give_rows(len(self.shown_rows))
        super().action_scroll_bottom()

    def on_resize(self, event: events.Resize) -> None:
        if self.loaded and event.size.width != self._fitted_width:
            self.refill()

    def on_data_table_header_selected(self, event: DataTable.HeaderSelected) -> None:
        event.stop()
        column = str(event.column_key.value)
        if column == self.sort_column:
            self.reverse_sort()
        elif column in SORT_KEYS:
            self.sort_by(column)

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        row = self.current
        if row is None:
            return
        if row.readable:
            self.post_message(self.Picked(self, row.path))
        else:
            self.notify(
                printable(f"{row.path.name}: {row.error}"),
                severity="error",
                timeout=10,
                markup=False,
            )
