"""Round axis ticks and their labels, for the text charts of both front ends. Pure."""

from __future__ import annotations

import math
from collections.abc import Sequence


def nice_ticks(low: float, high: float, most: int = 5) -> list[float]:
    """Round ticks (1, 2 or 5 times a power of ten apart) from at or below `low` to at or
    above `high`, at most `most` + 1 of them."""
    if high <= low:
        # One value: a tick on it and one either side; none below a zero (a count, a rate).
        step = abs(low) * 0.1 or 1.0
        return [low - step, low, low + step] if low else [0.0, 1.0]
    raw = (high - low) / most
    power = 10 ** math.floor(math.log10(raw))
    step = next(f * power for f in (1, 2, 5, 10) if f * power >= raw)
    first, last = math.floor(low / step), math.ceil(high / step)
    return [i * step for i in range(first, last + 1)]


def tick_label(value: float, ticks: Sequence[float]) -> str:
    """`22,500`, `0.25`: as many decimals as the ticks' spacing needs, thousands grouped."""
    step = abs(ticks[1] - ticks[0])
    decimals = max(0, -math.floor(math.log10(step) + 1e-9))
    return f"{value:,.{decimals}f}"


def log_ticks(low: float, high: float) -> tuple[list[float], list[str]]:
    """A logarithmic axis from at or below `low` to at or above `high` (both above 0): where
    its ticks go (log10 of their values, the positions of values drawn by their logarithm)
    and what they say (`0.5`, `20`, `1,000`). The powers of ten, with 2 and 5 times each
    between them when the values span fewer than three decades; at least two ticks."""
    first = math.floor(math.log10(low))
    last = max(math.ceil(math.log10(high)), first + 1)
    decades = [10.0**p for p in range(first, last + 1)]
    if len(decades) >= 4:
        values = decades
    else:
        steps = [d * f for d in decades for f in (1, 2, 5)]
        start = max(t for t in steps if t <= low)
        end = min(t for t in steps if t >= high and t > start)
        values = [t for t in steps if start <= t <= end]
    return [math.log10(v) for v in values], [f"{v:,g}" for v in values]
