"""wrk's output: the plain text report (with or without `--latency`), the centminmod fork's
extra rows and JSON block, and the `tuibench-summary` line of our `wrk_report.lua`.

The sources are merged from the least to the most precise: the text's rounded figures, then
the fork's JSON, then our Lua summary (exact counts, microsecond latencies). Any one of them
is enough, so a capture of stderr alone (where the Lua line goes) parses too.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

from tui_bench.parsers import ParseError
from tui_bench.parsers.units import (
    distribution,
    is_nan_cell,
    json_float,
    json_int,
    json_number,
    json_object,
    load_json_object,
    parse_byte_count,
    parse_byte_rate,
    parse_duration,
    table_row,
    table_rows,
    to_float,
    to_int,
)
from tui_bench.result import (
    NON_2XX_3XX,
    Distribution,
    Requests,
    Result,
    Traffic,
    percentile_key,
)

TOOL = "wrk"
PROTOCOL = "http/1.1"
SUMMARY_PREFIX = "tuibench-summary "

# `wrk -v` prints "wrk 4.1.0 [epoll] ..." (Debian: "wrk debian/4.1.0-3+b2 [epoll]").
_VERSION = re.compile(r"^wrk \S*?(\d+(?:\.\d+)+)\S* \[", re.M)
_STATS_HEADER = re.compile(r"^[ \t]*Thread Stats[ \t]+(.*)$", re.M)
_STATS_ROW = re.compile(r"[ \t]+(Latency|Connect|TTFB|TTLB|Req/Sec)[ \t]+(\S.*)")
_DISTRIBUTION_HEADER = re.compile(r"^[ \t]+Latency Distribution[ \t]*$", re.M)
_DISTRIBUTION_ROW = re.compile(r"[ \t]+(\d{1,3}(?:\.\d{1,30})?)%[ \t]+(\S+)\s*")
_REQUESTS_IN = re.compile(r"^[ \t]*(\d{1,30}) requests in (\S+), (\S+) read\s*$", re.M)
_SOCKET_ERRORS = re.compile(
    r"^[ \t]*Socket errors: connect (\d{1,30}), read (\d{1,30}), "
    r"write (\d{1,30}), timeout (\d{1,30})",
    re.M,
)
_NON_2XX_3XX = re.compile(r"^[ \t]*Non-2xx or 3xx responses: (\d{1,30})", re.M)
_RPS = re.compile(r"^Requests/sec:[ \t]*(\S+)", re.M)
_TRANSFER = re.compile(r"^Transfer/sec:[ \t]*(\S+)", re.M)
_FORK_JSON = re.compile(r"^JSON Output\s*\n-+\s*\n\s*(?=\{)", re.M)
_LUA_SUMMARY = re.compile(rf"^{SUMMARY_PREFIX}(\{{.*\}})\s*$", re.M)

_COLUMNS = {"Avg": "mean", "Stdev": "sd", "Max": "max", "Min": "min"}
_ROWS = {"Latency": "latency", "Connect": "connect", "TTFB": "ttfb"}
_SOCKET_ERROR_KINDS = ("connect", "read", "write", "timeout")


@dataclass(frozen=True)
class _Run:
    """What one source says; None where it is silent."""

    duration_s: float | None = None
    completed: int | None = None
    total_bytes: int | None = None
    rps: float | None = None
    bytes_per_s: float | None = None
    errors: Mapping[str, int] = field(default_factory=dict)
    distributions: Mapping[str, Distribution | None] = field(default_factory=dict)


def parse(text: str) -> Result:
    """wrk's stdout and/or stderr -> Result; ParseError when none of its reports is there."""
    sources = [s for s in (_text(text), _fork_json(text), _lua_summary(text)) if s is not None]
    if not sources:
        raise ParseError("no wrk report (no 'requests in' line, JSON block or tuibench-summary)")
    run = sources[0]
    for more in sources[1:]:
        run = _merge(run, more)
    return _result(run, _tool_version(text))


def _merge(base: _Run, more: _Run) -> _Run:
    """`more` wins where it says something."""
    distributions = dict(base.distributions)
    for name, dist in more.distributions.items():
        old = distributions.get(name)
        distributions[name] = _merge_distribution(old, dist) if old and dist else dist
    return _Run(
        duration_s=_first(more.duration_s, base.duration_s),
        completed=_first(more.completed, base.completed),
        total_bytes=_first(more.total_bytes, base.total_bytes),
        rps=_first(more.rps, base.rps),
        bytes_per_s=_first(more.bytes_per_s, base.bytes_per_s),
        errors={**base.errors, **more.errors},
        distributions=distributions,
    )


def _merge_distribution(old: Distribution, new: Distribution) -> Distribution:
    """Field by field: the fork's JSON has percentiles only (50..99.999) and the text has the
    mean, stdev and max beside its own 50/75/90/99."""
    return Distribution(
        min_s=_first(new.min_s, old.min_s),
        max_s=_first(new.max_s, old.max_s),
        mean_s=_first(new.mean_s, old.mean_s),
        sd_s=_first(new.sd_s, old.sd_s),
        percentiles={**old.percentiles, **new.percentiles},
    )


_T = TypeVar("_T")


def _first(a: _T | None, b: _T | None) -> _T | None:
    return a if a is not None else b


def _result(run: _Run, version: str | None) -> Result:
    non_2xx_3xx = run.errors.get(NON_2XX_3XX)
    completed = run.completed
    succeeded = None
    if completed is not None and non_2xx_3xx is not None:
        succeeded = completed - non_2xx_3xx
    return Result(
        tool=TOOL,
        tool_version=version,
        protocol=PROTOCOL,
        duration_s=run.duration_s,
        rps=run.rps,
        bytes_per_s=run.bytes_per_s,
        # wrk counts completed responses only; a "timeout" is a response slower than
        # --timeout (counted among the completed, left out of the latency statistics).
        requests=Requests(
            total=completed,
            done=completed,
            succeeded=succeeded,
            failed=non_2xx_3xx,
            timeout=run.errors.get("timeout"),
        ),
        traffic=Traffic(total_bytes=run.total_bytes),
        errors=run.errors,
        latency=run.distributions.get("latency"),
        connect=run.distributions.get("connect"),
        ttfb=run.distributions.get("ttfb"),
    )


def _text(text: str) -> _Run | None:
    summary = _REQUESTS_IN.search(text)
    if summary is None:
        return None
    socket_errors = _SOCKET_ERRORS.search(text)
    non_2xx_3xx = _NON_2XX_3XX.search(text)
    rps = _RPS.search(text)
    transfer = _TRANSFER.search(text)
    # wrk prints the error lines only when a count is not zero: absent means zero.
    errors = dict.fromkeys(_SOCKET_ERROR_KINDS, 0)
    if socket_errors:
        errors.update(zip(_SOCKET_ERROR_KINDS, map(to_int, socket_errors.groups()), strict=True))
    errors[NON_2XX_3XX] = to_int(non_2xx_3xx[1]) if non_2xx_3xx else 0
    return _Run(
        duration_s=parse_duration(summary[2]),
        completed=to_int(summary[1]),
        total_bytes=parse_byte_count(summary[3]),
        rps=to_float(rps[1]) if rps else None,
        bytes_per_s=parse_byte_rate(transfer[1]) if transfer else None,
        errors=errors,
        distributions=_stats_table(text),
    )


def _stats_table(text: str) -> dict[str, Distribution | None]:
    header_match = _STATS_HEADER.search(text)
    if header_match is None:
        return {}
    header = header_match[1].replace("+/- Stdev", "+/-Stdev").split()
    out: dict[str, Distribution | None] = {}
    for row in table_rows(text, header_match.end(), _STATS_ROW):
        name = _ROWS.get(row[1])
        if name is None or name in out:
            continue
        cells = row[2].split()
        if is_nan_cell(cells[-1]):
            # "-nan%" within-stdev: the row summarizes no sample (every request failed or
            # timed out), and its zeros are not measurements.
            out[name] = None
            continue
        stats = {k: parse_duration(v) for k, v in table_row(header, cells, _COLUMNS).items()}
        out[name] = distribution(stats)
    latency = out.get("latency")
    if latency is not None:
        out["latency"] = replace(latency, percentiles=_latency_distribution(text))
    return out


def _latency_distribution(text: str) -> dict[str, float]:
    header = _DISTRIBUTION_HEADER.search(text)
    if header is None:
        return {}
    stats = {
        f"p{row[1]}": parse_duration(row[2])
        for row in table_rows(text, header.end(), _DISTRIBUTION_ROW)
    }
    return dict(distribution(stats).percentiles)


def _fork_json(text: str) -> _Run | None:
    """The centminmod fork's JSON block, printed by its Lua script after the report."""
    marker = _FORK_JSON.search(text)
    if marker is None:
        return None
    try:
        value, _ = json.JSONDecoder().raw_decode(text, marker.end())
    except (ValueError, RecursionError):
        raise ParseError("wrk's JSON block is not valid JSON") from None
    if not isinstance(value, dict):
        raise ParseError("wrk's JSON block is not an object")
    duration_us = json_float(value, "duration_in_microseconds")
    stats: dict[str, float] = {}
    rows = value.get("latency_distribution")
    for row in rows if isinstance(rows, list) else []:
        if isinstance(row, dict):
            q = json_float(row, "percentile")
            us = json_float(row, "latency_in_microseconds")
            if q is not None and us is not None and 0 <= q <= 100:
                stats[f"p{q}"] = us / 1e6
    return _Run(
        duration_s=duration_us / 1e6 if duration_us is not None else None,
        completed=json_int(value, "requests"),
        total_bytes=json_int(value, "bytes"),
        rps=json_float(value, "requests_per_sec"),
        bytes_per_s=json_float(value, "bytes_transfer_per_sec"),
        distributions={"latency": distribution(stats)} if stats else {},
    )


def _lua_summary(text: str) -> _Run | None:
    """The last `tuibench-summary {...}` line of wrk_report.lua (µs, exact counts)."""
    lines = _LUA_SUMMARY.findall(text)
    if not lines:
        return None
    value = load_json_object(lines[-1])
    duration_us = json_float(value, "duration_us")
    completed = json_int(value, "requests")
    total_bytes = json_int(value, "bytes")
    duration_s = duration_us / 1e6 if duration_us else None
    raw_errors = json_object(value, "errors")
    errors = {
        kind: n
        for kind, key in (*((k, k) for k in _SOCKET_ERROR_KINDS), (NON_2XX_3XX, "status"))
        if (n := json_int(raw_errors, key)) is not None
    }
    return _Run(
        duration_s=duration_s,
        completed=completed,
        total_bytes=total_bytes,
        # The same division wrk does for its Requests/sec and Transfer/sec, unrounded.
        rps=completed / duration_s if completed is not None and duration_s else None,
        bytes_per_s=total_bytes / duration_s if total_bytes is not None and duration_s else None,
        errors=errors,
        distributions={"latency": _lua_latency(value.get("latency"))},
    )


def latency_table(text: str) -> Distribution | None:
    """The run's latency at the fine set of quantiles of the last `tuibench-summary` line
    (its "table"), beside its min, max, mean and sd; None without one. What several
    generators' runs merge from, where a run's own result keeps the usual few."""
    lines = _LUA_SUMMARY.findall(text)
    latency = load_json_object(lines[-1]).get("latency") if lines else None
    base = _lua_latency(latency)
    rows = latency.get("table") if isinstance(latency, dict) else None
    if base is None or not isinstance(rows, list):
        return None
    table = dict(base.percentiles)
    for row in rows:
        if isinstance(row, list) and len(row) == 2:
            q, us = (json_number(v) for v in row)
            if q is not None and us is not None and 0 <= q <= 100:
                table[percentile_key(q)] = us / 1e6
    return replace(base, percentiles=table)


def _lua_latency(latency: Any) -> Distribution | None:
    # null: wrk recorded no latency sample (see wrk_report.lua).
    if not isinstance(latency, dict):
        return None
    stats = {
        name: us / 1e6
        for name, key in (("min", "min"), ("max", "max"), ("mean", "mean"), ("sd", "stdev"))
        if (us := json_float(latency, key)) is not None
    }
    for key, us in json_object(latency, "percentiles").items():
        q = _percentile(key)
        value = json_number(us)
        if q is not None and value is not None:
            stats[f"p{q}"] = value / 1e6
    return distribution(stats)


def _percentile(key: str) -> float | None:
    try:
        q = float(key)
    except ValueError:
        return None
    return q if 0 <= q <= 100 else None


def _tool_version(text: str) -> str | None:
    match = _VERSION.search(text)
    return match[1] if match else None
