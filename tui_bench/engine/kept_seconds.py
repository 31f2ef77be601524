"""What a run keeps of each closed second for its end: the few figures the checks that read
the whole series need (the rate held, a collapse, the stalls), five numbers a second in
arrays (40 bytes), not the row (a dict of some 30 figures, over a kilobyte). The rows
themselves go to the journal as they close: a run of a day keeps 3.5 MB here, not 100 MB."""

from __future__ import annotations

import math
from array import array
from collections.abc import Mapping
from typing import Any

# Those read as whole numbers; the others are rates and fractions of a second.
_COUNTS = ("t_s", "requests", "backlog")
COLUMNS = ("t_s", "window_s", "requests", "rps", "backlog")


class KeptSeconds:
    def __init__(self) -> None:
        self._columns = {name: array("d") for name in COLUMNS}

    def add(self, row: Mapping[str, Any]) -> None:
        for name, column in self._columns.items():
            value = row.get(name)
            column.append(math.nan if value is None else float(value))

    def __len__(self) -> int:
        return len(self._columns["t_s"])

    def rows(self, *, before: int | None = None) -> list[dict[str, float | int | None]]:
        """The seconds as rows of those figures (None where a second had none): built at
        the end, for the checks, and let go after them. With `before`, only the seconds
        before it: those after a request log was lost are not the server's (no collapse,
        no stall, no rate judged on them)."""
        rows = [
            {
                name: None if math.isnan(value) else int(value) if name in _COUNTS else value
                for name, value in zip(COLUMNS, values, strict=True)
            }
            for values in zip(*self._columns.values(), strict=True)
        ]
        return rows if before is None else [r for r in rows if (r["t_s"] or 0) < before]
