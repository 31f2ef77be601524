"""Numbers and durations as users type them, on the command line and in the run form.

Both read them with these functions, so a value means the same and fails with the same one-line
message wherever it is typed.
"""

from __future__ import annotations

import math

from tui_bench.errors import UsageError

DURATION_UNITS = {"ms": 0.001, "s": 1.0, "m": 60.0, "h": 3600.0}
# The tools read their counts into C ints (ab's -n and -c, h2load's stream ids): a count past
# this means nothing to them.
MAX_COUNT = 2**31 - 1


def parse_duration(text: str) -> float:
    """`10`, `10s`, `500ms`, `2m`, `1h` -> seconds."""
    for unit in sorted(DURATION_UNITS, key=len, reverse=True):
        if text.endswith(unit):
            number, scale = text[: -len(unit)], DURATION_UNITS[unit]
            break
    else:
        number, scale = text, 1.0
    try:
        value = float(number) * scale
    except ValueError:
        raise UsageError(f"bad duration {text!r} (e.g. 10, 10s, 500ms, 2m)") from None
    if not math.isfinite(value):
        raise UsageError(f"bad duration {text!r} (e.g. 10, 10s, 500ms, 2m)")
    if value < 0:
        raise UsageError(f"bad duration {text!r}: negative")
    return value


def format_duration(seconds: float) -> str:
    """`2m`, `10s`, `1.5s`, `500ms`: what parse_duration reads back as exactly `seconds`."""
    # A whole number of hours, minutes or seconds reads best; below a second, milliseconds.
    units = ("h", "m", "s") if seconds >= 1 else ("ms",)
    for unit in units:
        count = seconds / DURATION_UNITS[unit]
        if count.is_integer() and _reads_back(f"{int(count)}{unit}", seconds):
            return f"{int(count)}{unit}"
    short = f"{seconds:g}s"
    return short if _reads_back(short, seconds) else f"{seconds!r}s"


def _reads_back(text: str, seconds: float) -> bool:
    try:
        return parse_duration(text) == seconds
    except UsageError:
        return False


def parse_positive_int(text: str, most: int = MAX_COUNT) -> int:
    """A whole number from 1 to `most`."""
    try:
        value = int(text)
    except ValueError:
        raise UsageError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise UsageError(f"expected at least 1, got {value}")
    if value > most:
        raise UsageError(f"expected at most {most:,}, got {value:,}")
    return value


def parse_rate(text: str) -> float:
    """`5000`, `2.5k`, `1e4` -> requests per second, more than 0."""
    number = text.strip().lower()
    scale = 1000.0 if number.endswith("k") else 1.0
    try:
        value = float(number.removesuffix("k")) * scale
    except ValueError:
        raise UsageError(f"expected requests per second (5000, 2.5k), got {text!r}") from None
    if not 0 < value < math.inf:
        raise UsageError(f"expected a rate above 0, got {text!r}")
    return value


def parse_percent(text: str) -> float:
    """`1`, `1%`, `0.5 %` -> a share (0.01, 0.005); from 0 to 100 %."""
    number = text.strip().removesuffix("%").strip()
    try:
        value = float(number)
    except ValueError:
        raise UsageError(f"expected a percentage like 1 or 0.5%, got {text!r}") from None
    if not 0 <= value <= 100:
        raise UsageError(f"expected a percentage from 0 to 100, got {text!r}")
    return value / 100


def parse_tolerance_pct(text: str) -> float:
    """`5`, `5%` -> 5.0 (percent), as `--fail-on-regression` reads it."""
    return parse_percent(text) * 100
