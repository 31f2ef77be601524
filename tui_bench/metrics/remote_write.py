"""Prometheus remote write 1.0: a WriteRequest (protobuf) compressed with snappy's block
format, POSTed with the headers the protocol names.

The four messages it takes (WriteRequest, TimeSeries, Label, Sample) are encoded here by
hand: their wire format is fixed by the protocol, and it is a few lines against a protobuf
runtime and generated code that must match its version. Snappy is cramjam's (a maintained
binding with wheels for every platform, no system library)."""

from __future__ import annotations

import http.client
import struct
import urllib.error
import urllib.request
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from tui_bench.metrics.catalogue import Labels

HEADERS = {
    "Content-Encoding": "snappy",
    "Content-Type": "application/x-protobuf",
    "User-Agent": "tuibench",
    "X-Prometheus-Remote-Write-Version": "0.1.0",
}
_LENGTH_DELIMITED, _FIXED64, _VARINT = 2, 1, 0


@dataclass(frozen=True)
class TimeSeries:
    """One series' samples, `labels` with `__name__`, sorted by name as the protocol asks;
    `samples` as (ms since the epoch, value) in time order."""

    labels: Labels
    samples: tuple[tuple[int, float], ...]


def _varint(value: int) -> bytes:
    value &= (1 << 64) - 1  # a negative int64 as its two's complement
    out = bytearray()
    while True:
        low = value & 0x7F
        value >>= 7
        if value:
            out.append(low | 0x80)
        else:
            out.append(low)
            return bytes(out)


def _key(field: int, wire: int) -> bytes:
    return _varint(field << 3 | wire)


def _message(field: int, body: bytes) -> bytes:
    return _key(field, _LENGTH_DELIMITED) + _varint(len(body)) + body


def _label(name: str, value: str) -> bytes:
    return _message(1, name.encode()) + _message(2, value.encode())


def _sample(stamp_ms: int, value: float) -> bytes:
    return _key(1, _FIXED64) + struct.pack("<d", value) + _key(2, _VARINT) + _varint(stamp_ms)


def write_request(series: Iterable[TimeSeries]) -> bytes:
    """The WriteRequest, not compressed."""
    out = bytearray()
    for one in series:
        body = b"".join(_message(1, _label(k, v)) for k, v in sorted(one.labels))
        body += b"".join(_message(2, _sample(t, v)) for t, v in one.samples)
        out += _message(1, body)
    return bytes(out)


def compressed(series: Sequence[TimeSeries]) -> bytes:
    import cramjam

    return bytes(cramjam.snappy.compress_raw(write_request(series)))


class PushRefused(Exception):
    """The receiver answered 4xx: the same data would be refused again (the protocol's
    rule: do not retry)."""


def post(url: str, body: bytes, timeout_s: float) -> None:
    """Send one compressed WriteRequest. PushRefused for a 4xx; OSError (URLError, a
    timeout, an answer that is not HTTP) for anything worth trying again."""
    request = urllib.request.Request(url, data=body, headers=HEADERS, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=timeout_s) as answer:
            answer.read()
    except http.client.HTTPException as exc:
        # Something that does not speak HTTP there: worth trying again, as a refusal is.
        raise OSError(f"not an HTTP answer: {type(exc).__name__}") from None
    except urllib.error.HTTPError as exc:
        detail = exc.read(200).decode(errors="replace").strip().splitlines()
        reason = f"HTTP {exc.code}" + (f": {detail[0]}" if detail else "")
        if 400 <= exc.code < 500:
            raise PushRefused(reason) from None
        raise OSError(reason) from None
