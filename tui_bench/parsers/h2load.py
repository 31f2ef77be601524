"""h2load's end-of-run summary (text, both layouts) and its `--output-file` JSON (>= 1.70).

Up to 1.68 the stats table has rows `time for request:`, `time for connect:`,
`time to 1st byte:`, `req/s` under `min max mean sd +/- sd`; from 1.69 the rows are `request`,
`connect`, `TTFB`, `req/s` and median/p95/p99 columns sit between max and mean. Columns are
matched by the header's names, not by position, so both layouts share one code path.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from tui_bench.parsers import ParseError
from tui_bench.parsers.units import (
    distribution,
    json_float,
    json_int,
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
from tui_bench.result import STATUS_CLASSES, Distribution, Requests, Result, Tls, Traffic

TOOL = "h2load"

_VERSION = re.compile(r"^h2load nghttp2/(\S+)", re.M)
# What the first connection negotiated, printed before the first progress line (the live
# parser reads these lines too).
APPLICATION_PROTOCOL = "Application protocol: "
TLS_PROTOCOL = "TLS Protocol: "
_PROTOCOL = re.compile(rf"^{APPLICATION_PROTOCOL}(\S+)", re.M)
# Greedy up to the last non-blank: a lazy group before \s*$ backtracks quadratically on
# a long run of blanks.
_TLS_PROTOCOL = re.compile(rf"^{TLS_PROTOCOL}(.*\S)", re.M)
_CIPHER = re.compile(r"^Cipher: (.*\S)", re.M)
_TEMP_KEY = re.compile(r"^Server Temp Key: (.*\S)", re.M)
# A client whose connection the server closed (nginx's keepalive_requests) prints this in -D
# mode and is not replaced: the engine warns when it sees any.
_PROCESS_REQUEST_FAILURE = re.compile(r"^Process Request Failure:", re.M)

_FINISHED = re.compile(r"^finished in (\S+), (\S+) req/s, (\S+)\s*$", re.M)
_REQUESTS = re.compile(r"^requests: (.*)$", re.M)
_STATUS = re.compile(r"^status codes: (.*)$", re.M)
_COUNT = re.compile(r"(\d{1,30}) (\w+)")
_SIZE = r"(\S+(?: \(\d{1,30}\))?)"
_TRAFFIC = re.compile(
    rf"^traffic: {_SIZE} total, {_SIZE} headers \(space savings [^)]*\), {_SIZE} data", re.M
)
_STATS_HEADER = re.compile(r"^[ \t]+min[ \t]+max[ \t]+.*$", re.M)
_STATS_ROW = re.compile(r"([A-Za-z][A-Za-z0-9/ ]*):\s+(\S.*)")
# 1.70's optional histograms sit under their row, indented.
_HISTOGRAM = re.compile(r"[ \t]")

_ROWS = {
    "time for request": "latency",
    "request": "latency",
    "time for connect": "connect",
    "connect": "connect",
    "time to 1st byte": "ttfb",
    "TTFB": "ttfb",
}
_COLUMNS = {
    "min": "min",
    "max": "max",
    "mean": "mean",
    "sd": "sd",
    "median": "p50",
    "p95": "p95",
    "p99": "p99",
}
_REQUEST_FIELDS = ("total", "started", "done", "succeeded", "failed", "errored", "timeout")


@dataclass(frozen=True)
class _Facts:
    """What h2load prints before its summary; the JSON file has none of it."""

    version: str | None
    protocol: str | None
    tls: Tls | None
    errors: Mapping[str, int]


def parse(text: str) -> Result:
    """h2load's stdout (stderr mixed in is fine) -> Result; ParseError when it has no summary,
    e.g. h2load was killed by SIGINT before it printed one."""
    finished = _FINISHED.search(text)
    counts = _REQUESTS.search(text)
    if finished is None or counts is None:
        raise ParseError("no h2load summary (no 'finished in' and 'requests:' lines)")
    facts = _facts(text)
    requests = _counts(counts[1])
    status_line = _STATUS.search(text)
    status = _counts(status_line[1]) if status_line else {}
    stats = _stats_table(text)
    result = Result(
        tool=TOOL,
        tool_version=facts.version,
        protocol=facts.protocol,
        duration_s=parse_duration(finished[1]),
        rps=to_float(finished[2]),
        bytes_per_s=parse_byte_rate(finished[3]),
        requests=Requests(**{f: requests.get(f) for f in _REQUEST_FIELDS}),
        status={c: status[c] for c in STATUS_CLASSES if c in status},
        traffic=_traffic(text),
        errors=facts.errors,
        tls=facts.tls,
        latency=stats.get("latency"),
        connect=stats.get("connect"),
        ttfb=stats.get("ttfb"),
    )
    return _believable_traffic(result)


def parse_json(data: str | bytes, text: str | None = None) -> Result:
    """The `--output-file` JSON of h2load >= 1.70, completed from its stdout `text` where
    that says more (TLS, protocol; the JSON's numbers are the more precise and win)."""
    root = load_json_object(data)
    measurements = root.get("measurements")
    if not isinstance(measurements, dict):
        raise ParseError("not h2load JSON: no 'measurements' object")
    facts = _facts(text or "")
    requests = json_object(measurements, "requests")
    status = json_object(measurements, "status_codes")
    traffic = json_object(measurements, "traffic")
    performance = json_object(measurements, "performance")
    result = Result(
        tool=TOOL,
        tool_version=_json_version(root) or facts.version,
        protocol=facts.protocol,
        duration_s=json_float(measurements, "duration"),
        rps=json_float(measurements, "request_per_second"),
        bytes_per_s=json_float(measurements, "bytes_per_second"),
        requests=Requests(**{f: json_int(requests, f) for f in _REQUEST_FIELDS}),
        status={c: n for c in STATUS_CLASSES if (n := json_int(status, c)) is not None},
        traffic=Traffic(
            total_bytes=json_int(traffic, "total"),
            header_bytes=json_int(traffic, "headers"),
            data_bytes=json_int(traffic, "data"),
        ),
        errors=facts.errors,
        tls=facts.tls,
        latency=_json_distribution(json_object(performance, "request")),
        connect=_json_distribution(json_object(performance, "connect")),
        ttfb=_json_distribution(json_object(performance, "ttfb")),
    )
    return _believable_traffic(result)


def _believable_traffic(result: Result) -> Result:
    """h2load's total traffic, and its bytes per second, lose what went over connections
    the server closed (`traffic: 0B (0) total, 201.17KB (206000) headers` from a server
    closing each one): a total below its own headers and data is unknown, not 0."""
    traffic = result.traffic
    total, headers, data = traffic.total_bytes, traffic.header_bytes, traffic.data_bytes
    if total is None or headers is None or data is None or total >= headers + data:
        return result
    return result.with_(traffic=replace(traffic, total_bytes=None), bytes_per_s=None)


def _facts(text: str) -> _Facts:
    version = _VERSION.search(text)
    protocol = _PROTOCOL.search(text)
    tls_protocol = _TLS_PROTOCOL.search(text)
    cipher = _CIPHER.search(text)
    temp_key = _TEMP_KEY.search(text)
    tls = None
    if tls_protocol or cipher or temp_key:
        tls = Tls(
            protocol=tls_protocol[1] if tls_protocol else None,
            cipher=cipher[1] if cipher else None,
            temp_key=temp_key[1] if temp_key else None,
        )
    failures = len(_PROCESS_REQUEST_FAILURE.findall(text))
    return _Facts(
        version=version[1] if version else None,
        protocol=protocol[1] if protocol else None,
        tls=tls,
        errors={"process_request_failure": failures} if failures else {},
    )


def _counts(line: str) -> dict[str, int]:
    """`"100 total, 100 started, ..."` -> {"total": 100, "started": 100, ...}."""
    return {word: to_int(number) for number, word in _COUNT.findall(line)}


def _traffic(text: str) -> Traffic:
    match = _TRAFFIC.search(text)
    if match is None:
        return Traffic()
    return Traffic(
        total_bytes=parse_byte_count(match[1]),
        header_bytes=parse_byte_count(match[2]),
        data_bytes=parse_byte_count(match[3]),
    )


def _stats_table(text: str) -> dict[str, Distribution | None]:
    header_match = _STATS_HEADER.search(text)
    if header_match is None:
        return {}
    header = header_match[0].replace("+/- sd", "+/-sd").split()
    out: dict[str, Distribution | None] = {}
    for row in table_rows(text, header_match.end(), _STATS_ROW, skip=_HISTOGRAM):
        field = _ROWS.get(row[1].rstrip())
        if field is None or field in out:
            continue
        cells = table_row(header, row[2].split(), _COLUMNS)
        out[field] = _sampled({name: parse_duration(cell) for name, cell in cells.items()})
    return out


def _json_distribution(stats: Mapping[str, Any]) -> Distribution | None:
    # The JSON names its statistics like the text's column headers.
    return _sampled(
        {
            name: value
            for key, name in _COLUMNS.items()
            if (value := json_float(stats, key)) is not None
        }
    )


def _sampled(stats: Mapping[str, float]) -> Distribution | None:
    """h2load prints all zeros for a row with no samples (no request done; connect and TTFB
    in -D mode, whose connections open during warm-up): that is no distribution at all.
    Nothing real on a network takes 0 µs, so all-zero cannot hide a measurement."""
    if not any(stats.values()):
        return None
    return distribution(stats)


def _json_version(root: Mapping[str, Any]) -> str | None:
    generator = json_object(root, "metadata").get("generator")
    if isinstance(generator, str) and generator.startswith(f"{TOOL} "):
        return generator.removeprefix(f"{TOOL} ").strip() or None
    return None
