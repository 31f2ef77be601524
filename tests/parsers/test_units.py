from __future__ import annotations

import pytest

from tui_bench.parsers import ParseError
from tui_bench.parsers.units import (
    distribution,
    load_json_object,
    parse_byte_count,
    parse_byte_rate,
    parse_bytes,
    parse_duration,
    parse_metric,
    to_float,
    to_int,
)


@pytest.mark.parametrize(
    ("text", "seconds"),
    [
        ("37us", 37e-6),
        ("12.34us", 12.34e-6),
        ("4.80ms", 4.8e-3),
        ("4.73ms", 0.00473),
        ("1.2s", 1.2),
        ("1.23m", 73.8),
        ("2h", 7200.0),
        ("0.00us", 0.0),
        ("250ns", 250e-9),
        (" 9.24ms ", 9.24e-3),
    ],
)
def test_durations(text: str, seconds: float) -> None:
    assert parse_duration(text) == pytest.approx(seconds, rel=1e-12)


def test_decimal_units_keep_the_printed_digits() -> None:
    # 4.73 * 0.001 would be 0.004730000000000001 in the session file.
    assert parse_duration("4.73ms") == 0.00473
    assert parse_duration("6.31ms") == 0.00631


@pytest.mark.parametrize("text", ["", "ms", "12", "1.2 parsecs", "nan ms", "1e3ms", "-"])
def test_bad_durations(text: str) -> None:
    with pytest.raises(ParseError):
        parse_duration(text)


@pytest.mark.parametrize(
    ("text", "size"),
    [
        ("0B", 0),
        ("0.00B", 0),
        ("937.50KB", 937.5 * 1024),
        ("1.37MB", 1.37 * 1024**2),
        ("5.16GB", 5.16 * 1024**3),
        ("6.70GB (7196004702)", 7196004702),
        ("198.92KB (203690)", 203690),
    ],
)
def test_sizes_are_1024_based_and_exact_counts_win(text: str, size: float) -> None:
    assert parse_bytes(text) == pytest.approx(size)


def test_byte_count_rounds_to_whole_bytes() -> None:
    assert parse_byte_count("36.94MB") == 38734397
    assert parse_byte_count("125.36MB (131454490)") == 131454490


def test_rates() -> None:
    assert parse_byte_rate("5.05MB/s") == pytest.approx(5.05 * 1024**2)
    assert parse_byte_rate("17.59MB") == pytest.approx(17.59 * 1024**2)
    assert parse_byte_rate("0B/s") == 0
    assert parse_metric("16.30k") == pytest.approx(16300)
    assert parse_metric("52.73") == pytest.approx(52.73)


@pytest.mark.parametrize("text", ["", "MB", "1.3XB", "12 (34)", "1" * 5000 + "B"])
def test_bad_sizes(text: str) -> None:
    with pytest.raises(ParseError):
        parse_bytes(text)


def test_numbers_refuse_what_int_and_float_would_choke_on() -> None:
    assert to_int(" 42 ") == 42
    assert to_float("66216.61") == pytest.approx(66216.61)
    for bad in ("", "4 2", "1" * 5000, "0x10", "1e5"):
        with pytest.raises(ParseError):
            to_int(bad)


def test_distribution_keys_percentiles() -> None:
    dist = distribution({"min": 1.0, "mean": 2.0, "p50": 1.5, "p99.9": 3.0})
    assert dist.min_s == 1.0
    assert dist.max_s is None
    assert dict(dist.percentiles) == {"p50_s": 1.5, "p99_9_s": 3.0}


@pytest.mark.parametrize("data", [b"\xff\xfe", "[1, 2]", "{", "[" * 100_000, "nul"])
def test_json_object_errors_are_parse_errors(data: str | bytes) -> None:
    with pytest.raises(ParseError):
        load_json_object(data)
