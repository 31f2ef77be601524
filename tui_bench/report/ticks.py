"""Round axis ticks and their labels, for the text charts of both front ends. Pure."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from datetime import datetime

from tui_bench.formats import fmt_clock


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


# A time axis reads in the unit its length calls for, up to this many of it: 90 s, then
# minutes up to two hours (`45m`), then hours (`6h`): a soak test's chart at a glance.
_TIME_UNITS = (("", 1.0, 120.0), ("m", 60.0, 7200.0), ("h", 3600.0, math.inf))


def time_ticks(
    end_s: float, most: int = 5, *, start_s: float = 0.0
) -> tuple[list[float], list[str]]:
    """Round ticks of a run's seconds from at or before `start_s` to at or after `end_s` and
    what they say: seconds as numbers (`30`), minutes with an `m`, hours with an `h`, as the
    length of the axis calls for. An axis that starts later in the run (its last minutes)
    reads as the clock does there: `22:50` (h:mm) by the minute, `1:04:30` or `4:30` by the
    second."""
    unit, scale, _ = next(u for u in _TIME_UNITS if end_s - start_s <= u[2])
    low = start_s / scale
    ticks = nice_ticks(low, max(end_s / scale, low + 1.0), most=most)
    seconds = [t * scale for t in ticks]
    if start_s > 0 and unit == "" and ticks[1] - ticks[0] >= 1:
        return seconds, [fmt_clock(t, hours=end_s >= 3600) for t in seconds]
    if start_s > 0 and unit == "m" and end_s >= 3600 and ticks[1] - ticks[0] >= 1:
        # h:mm, the seconds (all :00 on a minute's tick) left off.
        return seconds, [fmt_clock(t, hours=True)[:-3] for t in seconds]
    return seconds, [tick_label(t, ticks) + unit for t in ticks]


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


# From the coarsest to the finest: the first that tells every run apart is used.
_SAME_DAY = ("%H:%M", "%H:%M:%S")
_DAYS_APART = ("%m-%d %H:%M", "%m-%d %H:%M:%S")


def moment_labels(runs: Mapping[int, datetime | None]) -> dict[int, str]:
    """Labels for runs on an axis (run number to its start) by what tells them apart, in
    local time: the date (`11-25`) of runs made on different days, the time (`14:02`, or
    `14:02:37` within one minute) of runs made on one day, both when some share a day, and
    the run number (`#3`) when even the seconds (or an unknown start) cannot part them."""
    local = {n: m.astimezone() for n, m in runs.items() if m is not None}
    if len(local) == len(runs):
        days = {m.date() for m in local.values()}
        if len(days) == len(local):
            formats: tuple[str, ...] = ("%m-%d", "%Y-%m-%d")
        else:
            formats = _SAME_DAY if len(days) == 1 else _DAYS_APART
        for fmt in formats:
            labels = {n: m.strftime(fmt) for n, m in local.items()}
            if len(set(labels.values())) == len(labels):
                return labels
    return {n: f"#{n}" for n in runs}
