"""Every CSV export as one kind of table: a header of column names that carry the unit
(`p99_s`, `server_cpu_pct`, `bytes_per_s`) and cells that are plain decimals in that unit.
Pure.

A spreadsheet or a shell pipe reads `0.000043` where Python's `repr` writes `4.3e-05`. A
float is written to 15 significant digits, more than any measurement holds, so nothing
measured is rounded away, but the binary noise of arithmetic is: the median of 0.0003025 and
0.0003145 s is 0.00030849999999999996 in binary, written 0.0003085. An unknown value is an
empty cell.
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Iterable, Mapping, Sequence
from decimal import Decimal

# The digits a double holds for certain (DBL_DIG): beyond them lies binary noise.
SIGNIFICANT = 15


def csv_cell(value: object) -> str:
    """A cell: `None` (unknown) and a non-finite float empty, a float in plain decimals to
    15 significant digits (`0.000043`, `12345.5`, `1e+16` as `10000000000000000`), anything
    else as `str`."""
    if value is None:
        return ""
    if isinstance(value, float):
        if not math.isfinite(value):
            return ""
        shortest = repr(value)
        # At most 15 digits and no exponent already (a day's series is 2 million cells).
        if len(shortest) <= SIGNIFICANT + 1 and "e" not in shortest:
            return shortest
        # Through the float those digits name: its shortest repr keeps `22736.0` a float.
        return format(Decimal(repr(float(f"{value:.{SIGNIFICANT}g}"))), "f")
    return str(value)


def csv_text(columns: Sequence[str], rows: Iterable[Sequence[object]]) -> str:
    """The header and the rows, each cell through `csv_cell`."""
    return _table(columns, ([csv_cell(value) for value in row] for row in rows))


def csv_of_columns(columns: Sequence[str], values: Mapping[str, Sequence[object]]) -> str:
    """`csv_text` of a table kept as columns (`values`, one list per name; a name it lacks
    is empty in every row): each column formatted at once, a day's series in a second."""
    count = max((len(v) for v in values.values()), default=0)
    blank = [""] * count
    cells = [list(map(csv_cell, values[c])) if c in values else blank for c in columns]
    return _table(columns, zip(*cells, strict=True))


def _table(columns: Sequence[str], cells: Iterable[Sequence[str]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(columns)
    writer.writerows(cells)
    return out.getvalue()
