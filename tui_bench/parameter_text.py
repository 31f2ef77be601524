"""How a sweep's parameter value is written, as the sweep names its points. Pure."""

from __future__ import annotations

from typing import Any

from tui_bench.records.plan import RATE
from tui_bench.typed_values import format_duration

# The parameters whose values are seconds; the rest are written as they are.
_SECONDS = frozenset({"d", "warm-up"})


def shown(name: str, value: Any) -> str:
    """A parameter's value as the sweep names its points: `1.5s`, not 1.5."""
    if value is None:
        # No rate is a closed loop (a capacity search's peak, `rate=closed`).
        return "closed" if name == RATE else "–"
    if name in _SECONDS:
        return format_duration(value)
    # A rate ramps in fractions (2500.0): written without a needless `.0`.
    whole = isinstance(value, float) and value.is_integer()
    return str(int(value)) if whole else str(value)
