"""CSV cells are plain decimals in the unit the header names, and the same floats."""

from __future__ import annotations

import csv
import io

from tests.history_sessions import START
from tui_bench.report.csv_table import csv_cell, csv_text
from tui_bench.report.export import series_csv


def test_floats_are_plain_decimals_that_read_back_as_the_same_float() -> None:
    for value in (4.3e-05, 1.2e-07, 0.00030849999999999996, 12345.5, 1e16, 2.5e-300, -3e-05):
        cell = csv_cell(value)
        assert "e" not in cell.lower() and float(cell) == value, (value, cell)
    assert csv_cell(4.3e-05) == "0.000043"
    assert csv_cell(1e16) == "10000000000000000"
    assert csv_cell(22736.0) == "22736.0"


def test_unknown_is_an_empty_cell_and_the_rest_is_text() -> None:
    assert [csv_cell(v) for v in (None, float("nan"), float("inf"))] == ["", "", ""]
    assert [csv_cell(v) for v in (0, 17, "valid", START.isoformat())] == [
        "0",
        "17",
        "valid",
        "2026-03-02T09:00:00+00:00",
    ]


def test_a_series_under_a_millisecond_is_written_in_seconds_without_an_exponent() -> None:
    text = series_csv([{"t_s": 0.0, "rps": 90.5, "p50_s": 4.3e-05, "p99_s": 9e-05}])
    header, row = csv.reader(io.StringIO(text))
    cells = dict(zip(header, row, strict=True))
    assert cells["p50_s"] == "0.000043" and cells["p99_s"] == "0.00009"
    assert cells["rps"] == "90.5" and cells["max_s"] == ""
    assert "e-" not in text


def test_the_table_quotes_what_needs_it() -> None:
    assert csv_text(("a", "b"), [["x, y", 1e-06]]) == 'a,b\n"x, y",0.000001\n'
