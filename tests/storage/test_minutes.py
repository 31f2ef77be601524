"""Minute histograms: packed small, read back exactly, merged into any window."""

from __future__ import annotations

import numpy as np
import orjson
import pytest

from tui_bench.errors import SessionError
from tui_bench.histogram import LatencyHistogram
from tui_bench.storage.histogram_codec import packed, unpacked
from tui_bench.storage.minutes import latency_between, minutes_of


def histogram(seed: int, n: int = 50_000) -> LatencyHistogram:
    rng = np.random.default_rng(seed)
    h = LatencyHistogram()
    h.add(rng.lognormal(7.5, 0.6, n).astype(np.int64))
    return h


def test_a_packed_histogram_is_the_same_histogram_in_a_fraction_of_the_bytes() -> None:
    h = histogram(1)
    kept = orjson.loads(orjson.dumps(packed(h)))
    assert unpacked(kept) == h
    assert len(orjson.dumps(kept)) < len(orjson.dumps(h.to_dict())) / 3


def test_an_empty_histogram_packs_too() -> None:
    assert unpacked(packed(LatencyHistogram())) == LatencyHistogram()


@pytest.mark.parametrize(
    "damage",
    [{"buckets": "not base64!"}, {"buckets": "eJwDAAAAAAE="}, {"sub_bits": 3}, {"n": 5}],
)
def test_a_damaged_minute_is_one_line_naming_it(damage: dict[str, object]) -> None:
    record = {"t_s": 0, "histogram": {**packed(histogram(2)), **damage}}
    with pytest.raises(SessionError, match=r"session s1 is damaged \(bad 'minutes'\)"):
        minutes_of([record], "s1")


def test_the_minutes_of_a_window_merge_into_its_exact_histogram() -> None:
    parts = [histogram(seed) for seed in range(5)]
    records = [{"t_s": 60 * i, "histogram": packed(p)} for i, p in enumerate(parts)]
    minutes = minutes_of(records, "s1")
    window = latency_between(minutes, 60, 240)
    expected = LatencyHistogram()
    for part in parts[1:4]:
        expected.merge(part)
    assert window == expected
    assert latency_between(minutes, 600, 900) is None
    # A closed loop keeps no service latency.
    assert latency_between(minutes, 0, 300, service=True) is None
