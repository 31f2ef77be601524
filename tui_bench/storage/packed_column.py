"""One column of a session's figures while it is built: numbers in an array of doubles (8
bytes each, NaN where unknown) with a byte saying which were whole, not a list of Python
objects (32 bytes each, and a day's series is 2 million of them). A column that takes
anything else (a tuple of per-core figures) becomes a list from there on.
"""

from __future__ import annotations

import math
from array import array
from typing import Any

# Beyond this a whole number is not exact as a double.
_EXACT = 1 << 53


def _number(value: Any) -> bool:
    if isinstance(value, float):
        return True
    return isinstance(value, int) and not isinstance(value, bool) and -_EXACT < value < _EXACT


class PackedColumn:
    __slots__ = ("_numbers", "_values", "_whole")

    def __init__(self, unknown: int) -> None:
        """A column whose first `unknown` rows have no value."""
        self._numbers: array[float] | None = array("d", [math.nan]) * unknown
        self._whole: array[int] = array("B", [0]) * unknown
        self._values: list[Any] | None = None

    def append(self, value: Any) -> None:
        if self._numbers is not None:
            if value is None:
                self._numbers.append(math.nan)
                self._whole.append(0)
                return
            if _number(value):
                self._numbers.append(float(value))
                self._whole.append(isinstance(value, int))
                return
            self._values = self.values()
            self._numbers = None
        assert self._values is not None
        self._values.append(value)

    def __len__(self) -> int:
        return len(self._numbers) if self._numbers is not None else len(self._values or ())

    def last(self) -> Any:
        if self._numbers is None:
            return self._values[-1] if self._values else None
        if not self._numbers:
            return None
        return _value(self._numbers[-1], self._whole[-1])

    def known(self) -> bool:
        if self._numbers is None:
            return any(v is not None for v in self._values or ())
        return any(not math.isnan(v) for v in self._numbers)

    def values(self) -> list[Any]:
        if self._numbers is None:
            return list(self._values or ())
        return [_value(v, w) for v, w in zip(self._numbers, self._whole, strict=True)]


def _value(number: float, whole: int) -> Any:
    if math.isnan(number):
        return None
    return int(number) if whole else number
