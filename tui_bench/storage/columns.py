"""A session's per-second series and resource samples as columns: one list per figure
instead of one object per second. A day's run keeps 86,400 rows; as objects each repeats
its ~25 key names, which was four fifths of the file.

Columns are rounded to what their figures mean (a latency to 0.1 µs, a percentage to
0.01), and a column that is unknown in every row is left out (as a row leaves out a
figure its run cannot have, a fixed rate's in a closed loop).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import orjson

from tui_bench.storage.packed_column import PackedColumn


def _digits(name: str) -> int | None:
    """How many decimals a float of column `name` keeps; None: as it is."""
    if name in ("t_s", "window_s"):
        return 3
    if name.endswith("_s"):
        return 7
    if name.endswith(("_pct", "_rps", "rps")):
        return 2
    return None


def _rounded(value: Any, digits: int | None) -> Any:
    if digits is None or isinstance(value, bool):
        return value
    if isinstance(value, float):
        return round(value, digits)
    if isinstance(value, list | tuple):
        return [_rounded(v, digits) for v in value]
    return value


def as_kept(name: str, value: Any) -> Any:
    """`value` of column `name` as a session keeps it."""
    return _rounded(value, _digits(name))


class Columns:
    """Rows taken one at a time (a journal is read as a stream), kept as packed columns;
    written as JSON a column at a time, never a day's values as objects at once."""

    def __init__(self) -> None:
        self._columns: dict[str, PackedColumn] = {}
        self._rounding: dict[str, int | None] = {}
        self.count = 0

    def add(self, row: Mapping[str, Any]) -> None:
        for name, value in row.items():
            column = self._columns.get(name)
            if column is None:
                column = self._columns[name] = PackedColumn(self.count)
                self._rounding[name] = _digits(name)
            column.append(_rounded(value, self._rounding[name]))
        self.count += 1
        for column in self._columns.values():
            if len(column) < self.count:
                column.append(None)

    def last(self, name: str) -> Any:
        column = self._columns.get(name)
        return column.last() if column is not None else None

    def column(self, name: str) -> Sequence[Any]:
        column = self._columns.get(name)
        return column.values() if column is not None else [None] * self.count

    def to_json(self) -> dict[str, ColumnText]:
        """Each known column as its JSON text, ready to be written."""
        return {
            name: ColumnText(orjson.dumps(column.values()))
            for name, column in self._columns.items()
            if column.known()
        }


class ColumnText:
    """A column written as JSON: what a session just built holds (a day's series is 15 MB
    of text, not 70 MB of objects), read as values where they are asked for."""

    __slots__ = ("text",)

    def __init__(self, text: bytes) -> None:
        self.text = text

    def values(self) -> Any:
        return orjson.loads(self.text)


def json_default(value: Any) -> orjson.Fragment:
    """orjson's `default` for a document that may hold columns as text."""
    if isinstance(value, ColumnText):
        return orjson.Fragment(value.text)
    raise TypeError(f"{type(value).__name__} is not JSON")


def _plain(kept: Any) -> Any:
    """Columns as lists: those of a session just built are still their JSON text."""
    if isinstance(kept, Mapping) and any(isinstance(c, ColumnText) for c in kept.values()):
        return {name: c.values() if isinstance(c, ColumnText) else c for name, c in kept.items()}
    return kept


def readable(kept: Any) -> bool:
    """Whether a kept series or samples is rows (an older session's, or one built in
    memory) or columns of one length (this format's)."""
    kept = _plain(kept)
    if isinstance(kept, list):
        return True
    if not isinstance(kept, Mapping) or not all(isinstance(c, list) for c in kept.values()):
        return False
    return len({len(c) for c in kept.values()}) <= 1


def rows_of(kept: Any) -> list[Mapping[str, Any]] | None:
    """The rows of a kept series or samples; None when it is not `readable` (a damaged
    file)."""
    kept = _plain(kept)
    if not readable(kept):
        return None
    if isinstance(kept, list):
        return kept
    names = list(kept)
    return [dict(zip(names, values, strict=True)) for values in zip(*kept.values(), strict=True)]


def columns_of(kept: Any) -> dict[str, list[Any]] | None:
    """A kept series or samples as columns, as `rows_of` reads it as rows."""
    kept = _plain(kept)
    if not readable(kept):
        return None
    if isinstance(kept, Mapping):
        return dict(kept)
    names = list(dict.fromkeys(name for row in kept for name in row))
    return {name: [row.get(name) for row in kept] for name in names}


def last_value(kept: Any, name: str) -> Any:
    """Column `name`'s value in the last row of a kept series or samples (None when it has
    no rows, or none there), reading that column alone."""
    if isinstance(kept, list):
        return kept[-1].get(name) if kept and isinstance(kept[-1], Mapping) else None
    if not isinstance(kept, Mapping):
        return None
    column = kept.get(name)
    values = column.values() if isinstance(column, ColumnText) else column
    return values[-1] if isinstance(values, list) and values else None
