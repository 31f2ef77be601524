"""The remote-write wire format, byte for byte where protobuf's own examples say it, and
snappy's block format round trip."""

from __future__ import annotations

import struct

import cramjam

from tui_bench.metrics.remote_write import TimeSeries, compressed, write_request


def test_a_write_request_is_protobuf_as_the_protocol_defines_it() -> None:
    one = TimeSeries((("job", "x"), ("__name__", "up")), ((1000, 1.5),))
    # Labels sorted by name: __name__ before job. Label{1: name, 2: value}.
    labels = b"\x0a\x0e" + b"\x0a\x08__name__\x12\x02up" + b"\x0a\x08" + b"\x0a\x03job\x12\x01x"
    # Sample{1: double (fixed64), 2: int64 varint}; 1000 is e8 07.
    sample = b"\x12\x0c" + b"\x09" + struct.pack("<d", 1.5) + b"\x10\xe8\x07"
    body = labels + sample
    assert write_request([one]) == b"\x0a" + bytes([len(body)]) + body


def test_a_negative_stamp_is_ten_bytes_of_twos_complement() -> None:
    encoded = write_request([TimeSeries((("__name__", "a"),), ((-1, 0.0),))])
    assert encoded.endswith(b"\x10" + b"\xff" * 9 + b"\x01")


def test_the_body_is_snappys_block_format() -> None:
    series = [TimeSeries((("__name__", f"m{i}"),), ((i, float(i)),)) for i in range(50)]
    body = compressed(series)
    assert bytes(cramjam.snappy.decompress_raw(body)) == write_request(series)
