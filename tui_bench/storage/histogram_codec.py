"""A latency histogram in a few hundred bytes: the run's minute histograms, 1,440 a day.

`LatencyHistogram.to_dict` lists `[bucket, count]` pairs, ~12 bytes a bucket in JSON; here
the buckets are the gaps between non-empty bucket indexes and their counts, as 64-bit
little-endian integers with their bytes shuffled (every value's lowest byte, then every
second byte, ...: the high bytes, all zero, deflate to almost nothing), deflated and in
base64 (as HdrHistogram's interval logs keep theirs). The exact moments (count, min, max,
sums) stay beside them as numbers.
"""

from __future__ import annotations

import base64
import zlib
from collections.abc import Mapping
from typing import Any

import numpy as np

from tui_bench.histogram import SUB_BITS, LatencyHistogram


def packed(histogram: LatencyHistogram) -> dict[str, Any]:
    data = histogram.to_dict()
    pairs = np.array(data.pop("buckets"), dtype=np.int64).reshape(-1, 2)
    values = np.concatenate((np.diff(pairs[:, 0], prepend=0), pairs[:, 1])).astype("<u8")
    deflated = zlib.compress(values.view(np.uint8).reshape(-1, 8).T.tobytes(), 9)
    return {**data, "buckets": base64.b64encode(deflated).decode()}


def unpacked(data: Mapping[str, Any]) -> LatencyHistogram:
    """ValueError (or KeyError, TypeError) when `data` is not what `packed` wrote."""
    if data.get("sub_bits") != SUB_BITS:
        raise ValueError(f"histogram with sub_bits={data.get('sub_bits')!r}, need {SUB_BITS}")
    try:
        raw = zlib.decompress(base64.b64decode(str(data["buckets"]), validate=True))
    except (zlib.error, ValueError) as exc:
        raise ValueError("histogram buckets are not readable") from exc
    if len(raw) % 16:
        raise ValueError("histogram buckets are cut short")
    shuffled = np.frombuffer(raw, dtype=np.uint8).reshape(8, -1)
    values = np.ascontiguousarray(shuffled.T).view("<u8").ravel().astype(np.int64)
    gaps, counts = np.split(values, 2)
    buckets = np.column_stack((np.cumsum(gaps), counts)).tolist()
    return LatencyHistogram.from_dict({**data, "buckets": buckets})
