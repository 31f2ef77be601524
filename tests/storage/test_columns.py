"""A session's series and samples kept as columns."""

from __future__ import annotations

from typing import Any

import orjson
import pytest

from tui_bench.storage.columns import (
    Columns,
    columns_of,
    json_default,
    readable,
    rows_of,
)


def test_rows_come_back_as_they_went_in_rounded_to_what_they_mean() -> None:
    columns = Columns()
    columns.add({"t_s": 0, "rps": 10.123456, "p99_s": 0.00123456789, "server_cpu_pct": 12.3456})
    columns.add({"t_s": 1, "rps": 11.0, "p99_s": None, "server_cpu_pct": 50.0})
    assert rows_of(columns.to_json()) == [
        {"t_s": 0, "rps": 10.12, "p99_s": 0.0012346, "server_cpu_pct": 12.35},
        {"t_s": 1, "rps": 11.0, "p99_s": None, "server_cpu_pct": 50.0},
    ]


def test_a_figure_that_comes_late_is_unknown_before_and_one_never_known_is_left_out() -> None:
    columns = Columns()
    columns.add({"t_s": 0, "backlog": None})
    columns.add({"t_s": 1, "backlog": None, "max_s": 0.5})
    kept = columns_of(columns.to_json())
    assert kept == {"t_s": [0, 1], "max_s": [None, 0.5]}
    assert columns.column("nothing") == [None, None]
    assert columns.last("t_s") == 1


def test_per_core_figures_are_rounded_each() -> None:
    columns = Columns()
    columns.add({"t_s": 0.123456, "system_cpu_pct": (95.8333333, 3.0)})
    assert columns_of(columns.to_json()) == {"t_s": [0.123], "system_cpu_pct": [[95.83, 3.0]]}


def test_whole_numbers_stay_whole_and_a_column_may_turn_into_anything() -> None:
    columns = Columns()
    for row in (
        {"rps": 5, "rss_bytes": 20_643_840, "cores": None},
        {"rps": 2.5, "rss_bytes": None, "cores": (1.0, 2.0)},
        {"rps": 1 << 60, "rss_bytes": 7, "cores": None},
    ):
        columns.add(row)
    kept = columns_of(orjson.loads(orjson.dumps(columns.to_json(), default=json_default)))
    assert kept == {
        "rps": [5, 2.5, 1 << 60],
        "rss_bytes": [20_643_840, None, 7],
        "cores": [None, [1.0, 2.0], None],
    }
    assert [type(v) for v in kept["rps"]] == [int, float, int]
    assert columns.last("rss_bytes") == 7 and columns.last("cores") is None


@pytest.mark.parametrize(
    ("kept", "fine"),
    [
        ([{"t_s": 0}], True),
        ({"t_s": [0, 1], "rps": [1, 2]}, True),
        ({}, True),
        ({"t_s": [0, 1], "rps": [1]}, False),
        ({"t_s": 5}, False),
        ("rows", False),
    ],
)
def test_what_is_neither_rows_nor_even_columns_is_not_read(kept: Any, fine: bool) -> None:
    assert readable(kept) is fine
    assert (rows_of(kept) is not None) is fine
