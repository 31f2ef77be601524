"""CSV cells are plain decimals in the unit the header names, and the same floats."""

from __future__ import annotations

import csv
import io

import pytest

from tests.history_sessions import START
from tui_bench.report.csv_table import csv_cell, csv_text
from tui_bench.report.export import series_csv


def test_floats_are_plain_decimals_that_read_back_as_the_same_float() -> None:
    for value in (4.3e-05, 1.2e-07, 0.0003085, 12345.5, 1e16, 2.5e-300, -3e-05, 38.7862248548569):
        cell = csv_cell(value)
        assert "e" not in cell.lower() and float(cell) == value, (value, cell)
    assert csv_cell(4.3e-05) == "0.000043"
    assert csv_cell(1e16) == "10000000000000000"
    assert csv_cell(22736.0) == "22736.0"


def test_the_binary_noise_of_arithmetic_is_not_written() -> None:
    """A median of two runs' 0.0003025 and 0.0003145 s is 0.00030849999999999996 in binary:
    written to 15 significant digits, more than any measurement holds, it is 0.0003085."""
    assert csv_cell((0.0003025 + 0.0003145) / 2) == "0.0003085"
    assert csv_cell(0.00023500000000000002) == "0.000235"
    assert csv_cell(0.0027854999999999998) == "0.0027855"
    assert csv_cell(0.1 + 0.2) == "0.3"
    for value in (38.78622485485691, 21721.740849523074, 1 / 3):
        assert float(csv_cell(value)) == pytest.approx(value, rel=1e-14)


def test_unknown_is_an_empty_cell_and_the_rest_is_text() -> None:
    assert [csv_cell(v) for v in (None, float("nan"), float("inf"))] == ["", "", ""]
    assert [csv_cell(v) for v in (0, 17, "valid", START.isoformat())] == [
        "0",
        "17",
        "valid",
        "2026-03-02T09:00:00+00:00",
    ]


def test_a_series_under_a_millisecond_is_written_in_seconds_without_an_exponent() -> None:
    text = series_csv({"t_s": [0.0], "rps": [90.5], "p50_s": [4.3e-05], "p99_s": [9e-05]})
    header, row = csv.reader(io.StringIO(text))
    cells = dict(zip(header, row, strict=True))
    assert cells["p50_s"] == "0.000043" and cells["p99_s"] == "0.00009"
    assert cells["rps"] == "90.5" and cells["max_s"] == ""
    assert "e-" not in text


def test_the_table_quotes_what_needs_it() -> None:
    assert csv_text(("a", "b"), [["x, y", 1e-06]]) == 'a,b\n"x, y",0.000001\n'
