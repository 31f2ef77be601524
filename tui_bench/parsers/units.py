"""Units as the load generators print them, and the few helpers every parser shares.

Every function here raises only `ParseError` on bad input, so a parser built on them never
lets a `ValueError`, `KeyError` or `TypeError` escape on odd text.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from tui_bench.parsers import ParseError
from tui_bench.result import Distribution, percentile_key

# Digit runs are bounded: Python refuses int() on more than 4300 digits, and no real count
# comes near 30.
_NUMBER = r"[-+]?(?:\d{1,30}(?:\.\d{0,30})?|\.\d{1,30})"

_DURATION = re.compile(rf"\s*({_NUMBER})\s*(ns|us|µs|ms|s|m|h)\s*")
# Sub-second units scale by a decimal exponent, so "4.73ms" becomes 0.00473 exactly as
# written rather than 4.73 * 0.001 = 0.004730000000000001.
_EXPONENT = {"ns": "e-9", "us": "e-6", "µs": "e-6", "ms": "e-3", "s": ""}
_SECONDS_PER_UNIT = {"m": 60.0, "h": 3600.0}

# wrk and h2load scale sizes by 1024 but write "KB", "MB"; an exact count may follow in
# parentheses (h2load: "6.70GB (7196004702)").
_SIZE = re.compile(rf"\s*({_NUMBER})\s*([KMGTP]?)i?B(?:\s*\((\d{{1,30}})\))?\s*")
_BYTES_PER_UNIT = {"": 1, "K": 1024, "M": 1024**2, "G": 1024**3, "T": 1024**4, "P": 1024**5}
_RATE_SUFFIX = re.compile(r"/s(?:ec)?\s*$")

# wrk's Req/Sec cells and thread counts: decimal SI prefixes ("16.30k").
_METRIC = re.compile(rf"\s*({_NUMBER})\s*([kMGTP]?)\s*")
_METRIC_FACTOR = {"": 1.0, "k": 1e3, "M": 1e6, "G": 1e9, "T": 1e12, "P": 1e15}

_INT = re.compile(r"\s*([-+]?\d{1,30})\s*")
_FLOAT = re.compile(rf"\s*({_NUMBER})\s*")


def parse_duration(text: str) -> float:
    """`"37us"`, `"4.80ms"`, `"1.2s"`, wrk's `"1.23m"` -> seconds."""
    match = _DURATION.fullmatch(text)
    if match is None:
        raise ParseError(f"not a duration: {text!r}")
    number, unit = match[1], match[2]
    if unit in _EXPONENT:
        return float(number + _EXPONENT[unit])
    return float(number) * _SECONDS_PER_UNIT[unit]


def parse_bytes(text: str) -> float:
    """`"1.37MB"` -> 1436549.12 (1024-based); an exact count in parentheses wins."""
    match = _SIZE.fullmatch(text)
    if match is None:
        raise ParseError(f"not a size: {text!r}")
    if match[3] is not None:
        return float(match[3])
    return float(match[1]) * _BYTES_PER_UNIT[match[2]]


def parse_byte_count(text: str) -> int:
    """Like `parse_bytes`, as a whole number of bytes (rounded when only the scaled figure
    is printed)."""
    return round(parse_bytes(text))


def parse_byte_rate(text: str) -> float:
    """`"5.05MB/s"`, wrk's `"17.59MB"` (its label already says per second) -> bytes/s."""
    return parse_bytes(_RATE_SUFFIX.sub("", text))


def parse_metric(text: str) -> float:
    """`"16.30k"` -> 16300.0 (decimal prefixes, as wrk prints counts and rates)."""
    match = _METRIC.fullmatch(text)
    if match is None:
        raise ParseError(f"not a number: {text!r}")
    return float(match[1]) * _METRIC_FACTOR[match[2]]


def to_int(text: str) -> int:
    match = _INT.fullmatch(text)
    if match is None:
        raise ParseError(f"not an integer: {text!r}")
    return int(match[1])


def to_float(text: str) -> float:
    match = _FLOAT.fullmatch(text)
    if match is None:
        raise ParseError(f"not a number: {text!r}")
    return float(match[1])


def is_nan_cell(text: str) -> bool:
    """wrk prints `-nan%` for a statistic over no samples."""
    return "nan" in text.lower()


def table_rows(
    text: str, header_end: int, row: re.Pattern[str], skip: re.Pattern[str] | None = None
) -> Iterator[re.Match[str]]:
    """The rows of a table whose header line ends at `header_end`: the lines right below it
    that fully match `row`, up to the first that does not (lines matching `skip` are passed
    over). So text further down, such as stderr appended to stdout, never lands in a table."""
    start = text.find("\n", header_end)
    while start != -1:
        end = text.find("\n", start + 1)
        line = text[start + 1 : end if end != -1 else len(text)]
        match = row.fullmatch(line)
        if match is not None:
            yield match
        elif skip is None or skip.match(line) is None:
            return
        start = end


def table_row(
    header: Sequence[str], cells: Sequence[str], names: Mapping[str, str]
) -> dict[str, str]:
    """Pair a stats row's cells with the header's column names, keeping the columns `names`
    knows, renamed. Tools add columns between versions, so position alone is not trusted."""
    if len(cells) != len(header):
        raise ParseError(f"a table row has {len(cells)} cells for {len(header)} columns")
    return {names[col]: cell for col, cell in zip(header, cells, strict=True) if col in names}


def distribution(stats: Mapping[str, float]) -> Distribution:
    """Build from normalized names: `min`, `max`, `mean`, `sd`, and `p<q>` such as `p50`,
    `p99.9` for percentiles."""
    percentiles = {
        percentile_key(float(name[1:])): value
        for name, value in stats.items()
        if name.startswith("p")
    }
    return Distribution(
        min_s=stats.get("min"),
        max_s=stats.get("max"),
        mean_s=stats.get("mean"),
        sd_s=stats.get("sd"),
        percentiles=percentiles,
    )


def load_json_object(data: str | bytes) -> dict[str, Any]:
    try:
        value = json.loads(data)
    except (ValueError, RecursionError) as exc:
        # ValueError covers bad JSON and bytes that are not UTF-8.
        raise ParseError(f"not JSON: {exc}") from None
    if not isinstance(value, dict):
        raise ParseError("JSON is not an object")
    return value


def json_object(parent: Mapping[str, Any], key: str) -> dict[str, Any]:
    """`parent[key]` when it is an object, else an empty one: tools omit what they lack."""
    value = parent.get(key)
    return value if isinstance(value, dict) else {}


def json_number(value: Any) -> float | None:
    # bool is an int to Python, never a measurement.
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    number = float(value)
    return number if math.isfinite(number) else None


def json_float(parent: Mapping[str, Any], key: str) -> float | None:
    return json_number(parent.get(key))


def json_int(parent: Mapping[str, Any], key: str) -> int | None:
    value = parent.get(key)
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return None
