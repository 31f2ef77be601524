"""ApacheBench's (`ab`) end-of-run report.

ab prints whole milliseconds in its timing tables; they are converted to seconds as printed,
so a sub-millisecond run shows 0 s latencies: that is all ab measured.
"""

from __future__ import annotations

import re
from dataclasses import replace

from tui_bench.parsers import ParseError
from tui_bench.parsers.units import (
    distribution,
    parse_duration,
    table_row,
    table_rows,
    to_float,
    to_int,
)
from tui_bench.result import NON_2XX, Distribution, Requests, Result, Tls, Traffic

TOOL = "ab"
# ab writes "GET / HTTP/1.0" request lines, keep-alive (-k) included: unlike wrk and h2load
# --h1, which speak HTTP/1.1.
PROTOCOL = "http/1.0"

_VERSION = re.compile(r"^This is ApacheBench, Version (\S+)", re.M)
_TLS = re.compile(r"^SSL/TLS Protocol:[ \t]+([^,\s]+),([^,\s]+)", re.M)
_TEMP_KEY = re.compile(r"^Server Temp Key:[ \t]+(.*\S)", re.M)
_TIME_TAKEN = re.compile(r"^Time taken for tests:[ \t]+(\S+) seconds", re.M)
_COMPLETE = re.compile(r"^Complete requests:[ \t]+(\d{1,30})", re.M)
_FAILED = re.compile(r"^Failed requests:[ \t]+(\d{1,30})", re.M)
_FAILED_KINDS = re.compile(
    r"^[ \t]+\(Connect: (\d{1,30}), Receive: (\d{1,30}), "
    r"Length: (\d{1,30}), Exceptions: (\d{1,30})\)",
    re.M,
)
_WRITE_ERRORS = re.compile(r"^Write errors:[ \t]+(\d{1,30})", re.M)
_NON_2XX = re.compile(r"^Non-2xx responses:[ \t]+(\d{1,30})", re.M)
_TOTAL_BYTES = re.compile(r"^Total transferred:[ \t]+(\d{1,30}) bytes", re.M)
_HTML_BYTES = re.compile(r"^HTML transferred:[ \t]+(\d{1,30}) bytes", re.M)
_RPS = re.compile(r"^Requests per second:[ \t]+(\S+)", re.M)
# ab divides by 1024 for its "Kbytes".
_TRANSFER_RATE = re.compile(r"^Transfer rate:[ \t]+(\S+) \[Kbytes/sec\] received", re.M)
_TIMES_HEADER = re.compile(r"^Connection Times \(ms\)[ \t]*\n([^\n]*)", re.M)
_TIMES_ROW = re.compile(r"(Connect|Processing|Waiting|Total):[ \t]+(\S.*)")
_PERCENTAGES_HEADER = re.compile(r"^Percentage of the requests served within.*$", re.M)
_PERCENTAGE_ROW = re.compile(r"[ \t]+(\d{1,3})%[ \t]+(\d{1,30})(?: \(longest request\))?\s*")

# "Receive" is a failed socket read: named like wrk's "read" so runs of both compare.
# "Length" is not a failure: ab counts every answer whose body length differs from the
# first one's (a page that varies, a 500 among 200s), answers received whole.
_FAILED_KIND_NAMES = ("connect", "read", "length", "exceptions")
_NOT_FAILED = "length"
_COLUMNS = {"min": "min", "mean": "mean", "sd": "sd", "median": "p50", "max": "max"}
_ROWS = {"Connect": "connect", "Waiting": "ttfb", "Total": "latency"}


def parse(text: str) -> Result:
    """ab's stdout (stderr mixed in is fine) -> Result; ParseError when the report is missing,
    as when ab stops on a socket error without -r."""
    complete = _COMPLETE.search(text)
    time_taken = _TIME_TAKEN.search(text)
    if complete is None or time_taken is None:
        raise ParseError("no ab report (no 'Complete requests' and 'Time taken' lines)")
    completed = to_int(complete[1])
    kinds = _failure_kinds(text)
    errors = _errors(text, kinds)
    failed = _int(_FAILED, text)
    if failed is not None:
        failed -= kinds[_NOT_FAILED]
    total_bytes = _int(_TOTAL_BYTES, text)
    html_bytes = _int(_HTML_BYTES, text)
    transfer_rate = _TRANSFER_RATE.search(text)
    rps = _RPS.search(text)
    times = _times(text)
    return Result(
        tool=TOOL,
        tool_version=_str(_VERSION, text),
        protocol=PROTOCOL,
        duration_s=to_float(time_taken[1]),
        rps=to_float(rps[1]) if rps else None,
        bytes_per_s=to_float(transfer_rate[1]) * 1024 if transfer_rate else None,
        requests=Requests(
            total=completed,
            done=completed,
            succeeded=_succeeded(completed, failed, errors[NON_2XX]),
            failed=failed,
        ),
        traffic=Traffic(
            total_bytes=total_bytes,
            header_bytes=(
                total_bytes - html_bytes
                if total_bytes is not None and html_bytes is not None
                else None
            ),
            data_bytes=html_bytes,
        ),
        errors=errors,
        tls=_tls(text),
        latency=times.get("latency"),
        connect=times.get("connect"),
        ttfb=times.get("ttfb"),
    )


def _succeeded(completed: int, failed: int | None, non_2xx: int) -> int | None:
    """ab counts failure events, not requests: one request can be a Receive and an
    Exceptions failure at once, so "Failed requests" can exceed the requests. When the
    subtraction goes below zero there is no honest figure."""
    good = completed - (failed or 0) - non_2xx
    return good if good >= 0 else None


def _failure_kinds(text: str) -> dict[str, int]:
    kinds = _FAILED_KINDS.search(text)
    # ab prints the breakdown only when some request failed: absent means all zero.
    counts = [to_int(n) for n in kinds.groups()] if kinds else [0] * len(_FAILED_KIND_NAMES)
    return dict(zip(_FAILED_KIND_NAMES, counts, strict=True))


def _errors(text: str, kinds: dict[str, int]) -> dict[str, int]:
    return {
        **{kind: n for kind, n in kinds.items() if kind != _NOT_FAILED},
        "write": _int(_WRITE_ERRORS, text) or 0,
        NON_2XX: _int(_NON_2XX, text) or 0,
    }


def _tls(text: str) -> Tls | None:
    protocol = _TLS.search(text)
    temp_key = _TEMP_KEY.search(text)
    if protocol is None and temp_key is None:
        return None
    return Tls(
        protocol=protocol[1] if protocol else None,
        cipher=protocol[2] if protocol else None,
        temp_key=temp_key[1] if temp_key else None,
    )


def _times(text: str) -> dict[str, Distribution | None]:
    """The "Connection Times (ms)" table and the percentage table below it."""
    header_match = _TIMES_HEADER.search(text)
    if header_match is None:
        return {}
    # "mean[+/-sd]" heads two cells; with -S the columns are "min avg max".
    header = header_match[1].replace("mean[+/-sd]", "mean sd").replace("avg", "mean").split()
    out: dict[str, Distribution | None] = {}
    for row in table_rows(text, header_match.end(), _TIMES_ROW):
        name = _ROWS.get(row[1])
        if name is None or name in out:
            continue
        cells = table_row(header, row[2].split(), _COLUMNS)
        out[name] = replace(distribution({k: _ms(v) for k, v in cells.items()}), resolution_s=MS)
    percentiles = _percentages(text)
    latency = out.get("latency") or Distribution()
    if percentiles:
        # The 100% row is the longest request: the maximum, not a percentile.
        longest = percentiles.pop("p100", latency.max_s)
        merged = {**latency.percentiles, **distribution(percentiles).percentiles}
        out["latency"] = Distribution(
            latency.min_s, longest, latency.mean_s, latency.sd_s, merged, resolution_s=MS
        )
    return out


def _percentages(text: str) -> dict[str, float]:
    header = _PERCENTAGES_HEADER.search(text)
    if header is None:
        return {}
    return {
        f"p{row[1]}": _ms(row[2])
        for row in table_rows(text, header.end(), _PERCENTAGE_ROW)
        if 0 < int(row[1]) <= 100
    }


# ab writes its times in whole milliseconds: a 0 there is under a millisecond.
MS = 0.001


def _ms(cell: str) -> float:
    return parse_duration(cell + "ms")


def _int(pattern: re.Pattern[str], text: str) -> int | None:
    match = pattern.search(text)
    return to_int(match[1]) if match else None


def _str(pattern: re.Pattern[str], text: str) -> str | None:
    match = pattern.search(text)
    return match[1] if match else None
