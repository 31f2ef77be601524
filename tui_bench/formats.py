"""How numbers are written for people: seconds, counts, bytes and metrics. `–` is unknown.
Pure, and below everything that shows a number."""

from __future__ import annotations

import math


def fmt_seconds(value: float | None, resolution_s: float | None = None) -> str:
    """`12.50 ms`; under the tool's `resolution_s` (ab's whole ms) `<1 ms`, never `0 µs`."""
    if value is None:
        return "–"
    if resolution_s is not None and value < resolution_s:
        return f"<{resolution_s * 1e3:g} ms" if resolution_s < 1 else f"<{resolution_s:g} s"
    if value < 1e-3:
        return f"{value * 1e6:.0f} µs"
    if value < 1:
        return f"{value * 1e3:.2f} ms"
    return f"{value:.2f} s"


# No request takes no time: a latency of 0 is a tool's whole milliseconds (ab's) rounded down
# from one under a millisecond. Shown apart from its distribution (a session's row, a sweep
# point, a comparison, a history), where the tool's resolution is not at hand, it reads so
# too; JSON keeps the 0 and the result's distribution keeps the resolution.
WHOLE_MS = 1e-3


def fmt_latency(value: float | None, resolution_s: float | None = None) -> str:
    """A latency: `fmt_seconds` with the tool's `resolution_s`; a 0 is `<1 ms`."""
    if resolution_s is None and value == 0:
        resolution_s = WHOLE_MS
    return fmt_seconds(value, resolution_s)


def fmt_count(value: float | None, digits: int = 0) -> str:
    return "–" if value is None else f"{value:,.{digits}f}"


def fmt_compact(value: float, digits: int = 3) -> str:
    """`digits` significant digits and a k or M, never an exponent: 43522 -> 43.5k (5
    characters at most with 3 digits; with 2, a count that moves a little each second reads
    the same: 35002 -> 35k). Whole numbers under a thousand stay exact."""
    if not math.isfinite(value):
        return str(value)
    if value == int(value) and abs(value) < 1000:
        return str(int(value))
    magnitude = math.floor(math.log10(abs(value)))
    rounded = round(value, digits - 1 - magnitude)
    for scale, suffix in ((1e6, "M"), (1e3, "k")):
        # After rounding: 999,600 to two digits is 1M, not 1000k.
        if abs(rounded) >= scale:
            return f"{_plain(rounded / scale)}{suffix}"
    return _plain(rounded)


def _plain(value: float) -> str:
    """A float without an exponent or trailing zeros."""
    return f"{value:.6f}".rstrip("0").rstrip(".")


def fmt_bytes(value: float | None) -> str:
    if value is None:
        return "–"
    for unit in ("B", "KiB", "MiB", "GiB"):
        if abs(value) < 1024 or unit == "GiB":
            return f"{value:.0f} {unit}" if unit == "B" else f"{value:.2f} {unit}"
        value /= 1024
    raise AssertionError("unreachable")


def metric_label(metric: str) -> str:
    """A result key as people write it: `p99_9_s` -> `p99.9`, `error_rate` -> `errors`."""
    if metric == "error_rate":
        return "errors"
    return metric.removesuffix("_s").replace("_", ".")


def fmt_share(value: float | None) -> str:
    """A share of 1 as a percentage, `0.25` -> `25.00%`: one form in every view."""
    return "–" if value is None else f"{value * 100:.2f}%"


def fmt_metric(metric: str, value: float | None) -> str:
    """A value of the result key `metric` (rps, error_rate, a latency) in its own unit."""
    if metric == "rps":
        return fmt_count(value) + " req/s"
    if metric == "error_rate":
        return fmt_share(value)
    return fmt_latency(value)


def fmt_clock(seconds: float | None, *, tenths: bool = False, hours: bool = False) -> str:
    """`04:07` (`04:07.3` with `tenths`); from an hour on, or with `hours` (beside a time
    past one), `1:04:07`, as a soak test runs."""
    if seconds is None:
        return "–"
    whole, tenth = divmod(int(seconds * 10 + 1e-6), 10) if tenths else (int(seconds), 0)
    whole_hours, rest = divmod(whole, 3600)
    text = f"{rest // 60:02d}:{rest % 60:02d}"
    if hours or whole_hours:
        text = f"{whole_hours}:{text}"
    return f"{text}.{tenth}" if tenths else text
