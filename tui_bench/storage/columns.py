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

# Samples are kept as the sampler took them for this long, then one in each SAMPLE_EVERY_S:
# the per-second series already holds each second's server and client figures, and the
# samples' extra detail (USS, PSS, threads, descriptors) moves slowly.
SAMPLES_WHOLE_S = 600.0
SAMPLE_EVERY_S = 10.0


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


class Columns:
    """Rows taken one at a time (a journal is read as a stream), kept as columns."""

    def __init__(self) -> None:
        self._columns: dict[str, list[Any]] = {}
        self._rounding: dict[str, int | None] = {}
        self.count = 0

    def add(self, row: Mapping[str, Any]) -> None:
        for name, value in row.items():
            column = self._columns.get(name)
            if column is None:
                column = self._columns[name] = [None] * self.count
                self._rounding[name] = _digits(name)
            column.append(_rounded(value, self._rounding[name]))
        self.count += 1
        for column in self._columns.values():
            if len(column) < self.count:
                column.append(None)

    def last(self, name: str) -> Any:
        column = self._columns.get(name)
        return column[-1] if column else None

    def column(self, name: str) -> Sequence[Any]:
        return self._columns.get(name) or [None] * self.count

    def to_json(self) -> dict[str, list[Any]]:
        return {
            name: column
            for name, column in self._columns.items()
            if any(v is not None for v in column)
        }


def kept_sample(sample: Mapping[str, Any], last_kept_s: Any) -> bool:
    """Whether a session keeps `sample`, the last it kept taken at `last_kept_s`: every one
    of the first SAMPLES_WHOLE_S, then the first of each SAMPLE_EVERY_S."""
    t_s = sample.get("t_s")
    if not isinstance(t_s, int | float) or t_s < SAMPLES_WHOLE_S:
        return True
    if not isinstance(last_kept_s, int | float):
        return True
    return t_s // SAMPLE_EVERY_S != last_kept_s // SAMPLE_EVERY_S


def readable(kept: Any) -> bool:
    """Whether a kept series or samples is rows (an older session's, or one built in
    memory) or columns of one length (this format's)."""
    if isinstance(kept, list):
        return True
    if not isinstance(kept, Mapping) or not all(isinstance(c, list) for c in kept.values()):
        return False
    return len({len(c) for c in kept.values()}) <= 1


def rows_of(kept: Any) -> list[Mapping[str, Any]] | None:
    """The rows of a kept series or samples; None when it is not `readable` (a damaged
    file)."""
    if not readable(kept):
        return None
    if isinstance(kept, list):
        return kept
    names = list(kept)
    return [dict(zip(names, values, strict=True)) for values in zip(*kept.values(), strict=True)]


def columns_of(kept: Any) -> dict[str, list[Any]] | None:
    """A kept series or samples as columns, as `rows_of` reads it as rows."""
    if not readable(kept):
        return None
    if isinstance(kept, Mapping):
        return dict(kept)
    names = list(dict.fromkeys(name for row in kept for name in row))
    return {name: [row.get(name) for row in kept] for name in names}
