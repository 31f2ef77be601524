"""Runs on a time axis are labelled by what tells them apart."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from tests.ui import utc_clock
from tui_bench.report.ticks import moment_labels

DAY = datetime(2026, 11, 25, 11, 25, 7, tzinfo=UTC)


# Labels are in local time: pinned to UTC here.
utc = pytest.fixture(autouse=True)(utc_clock)


def at(*seconds: float) -> dict[int, datetime | None]:
    return {n: DAY + timedelta(seconds=s) for n, s in enumerate(seconds, 1)}


def test_runs_on_different_days_by_their_date() -> None:
    assert moment_labels(at(0, 86_400, 3 * 86_400)) == {1: "11-25", 2: "11-26", 3: "11-28"}


def test_runs_of_one_day_by_their_time_to_the_minute() -> None:
    assert moment_labels(at(0, 120, 3600)) == {1: "11:25", 2: "11:27", 3: "12:25"}


def test_runs_of_one_minute_by_the_second() -> None:
    assert moment_labels(at(0, 20, 40)) == {1: "11:25:07", 2: "11:25:27", 3: "11:25:47"}


def test_runs_some_of_which_share_a_day_by_date_and_time() -> None:
    assert moment_labels(at(0, 60, 86_400)) == {
        1: "11-25 11:25",
        2: "11-25 11:26",
        3: "11-26 11:25",
    }
    assert moment_labels(at(0, 5, 86_400))[2] == "11-25 11:25:12"


def test_a_year_apart_on_the_same_date_by_the_full_date() -> None:
    assert moment_labels(at(0, 365 * 86_400)) == {1: "2026-11-25", 2: "2027-11-25"}


def test_runs_of_one_second_or_of_unknown_start_by_their_number() -> None:
    assert moment_labels(at(0, 0.2, 0.4)) == {1: "#1", 2: "#2", 3: "#3"}
    assert moment_labels({4: DAY, 9: None}) == {4: "#4", 9: "#9"}


def test_one_run_by_its_date() -> None:
    assert moment_labels({7: DAY}) == {7: "11-25"}
