"""Session rows for listings: built from the example sessions, sorted, filtered."""

from __future__ import annotations

import shutil
from datetime import UTC, datetime
from pathlib import Path

import pytest

from tui_bench.result import Requests, Result
from tui_bench.storage import store
from tui_bench.storage.catalog import (
    UNREADABLE,
    SessionRow,
    filter_rows,
    recent,
    row_of,
    rows_of,
    session_row,
    sort_rows,
)

EXAMPLES = Path(__file__).parents[2] / "sessions"
BAD_NAME = "20261120-000000-000-bad.json"


@pytest.fixture
def store_dir(tmp_path: Path) -> Path:
    for path in EXAMPLES.glob("*.json"):
        shutil.copy(path, tmp_path)
    (tmp_path / BAD_NAME).write_text('{"broken')
    return tmp_path


@pytest.fixture
def rows(store_dir: Path) -> list[SessionRow]:
    return rows_of(store.list_sessions(store_dir))


def by_name(rows: list[SessionRow]) -> dict[str, SessionRow]:
    return {row.name or row.path.name: row for row in rows}


def test_rows_of_the_example_sessions(rows: list[SessionRow]) -> None:
    named = by_name(rows)
    assert len(rows) == 7
    h2c = named["h2c-m10"]
    assert h2c.readable and h2c.status == "completed"
    assert h2c.id == "20261121-112049-153-h2load-h2c-m10"
    assert h2c.tool == "h2load"
    assert h2c.url == "http://127.0.0.1:49249/"
    assert (h2c.c, h2c.m) == (16, 10)
    assert h2c.rps == pytest.approx(42915.14)
    assert h2c.p99_s == pytest.approx(0.01066, rel=1e-3)
    assert h2c.errors == 0
    assert h2c.tags == ("example",)
    assert h2c.started == datetime(2026, 11, 21, 11, 20, 49, 153998, tzinfo=UTC)
    assert named["wrk-h1"].m is None
    # h2load's "Process Request Failure" lines count as errors, as in the run's warning.
    assert named["server-closes-connections"].errors == 4


def test_an_unreadable_file_is_a_row_that_says_why(rows: list[SessionRow]) -> None:
    bad = by_name(rows)[BAD_NAME]
    assert not bad.readable
    assert bad.status == UNREADABLE
    assert bad.id == BAD_NAME.removesuffix(".json")
    assert bad.error is not None and bad.error.startswith("not a session file (corrupt JSON")
    assert bad.started is None and bad.rps is None


def test_an_entry_without_an_error_text_still_says_something(tmp_path: Path) -> None:
    row = row_of(store.SessionEntry(tmp_path / "x.json", None))
    assert row.error == "cannot be read"


def test_session_row_is_the_cli_listing(store_dir: Path) -> None:
    session = store.load(store_dir / "20261121-112055-632-wrk-wrk-h1.json")
    row = session_row(session)
    assert row == {
        "id": "20261121-112055-632-wrk-wrk-h1",
        "name": "wrk-h1",
        "status": "completed",
        "started_at": "2026-11-21T11:20:55.632780+00:00",
        "tool": "wrk",
        "url": "http://127.0.0.1:37665/",
        "c": 16,
        "rps": pytest.approx(49192.90049268077),
        "p99_s": row["p99_s"],
        "tags": ["example"],
    }
    assert row["p99_s"] == pytest.approx(0.00336, rel=1e-2)


def test_sort_by_a_number_keeps_rows_without_one_last(rows: list[SessionRow]) -> None:
    fastest = sort_rows(rows, "rps", descending=True)
    assert [r.name for r in fastest[:2]] == ["ab-keepalive", "wrk-h1"]
    assert fastest[-1].status == UNREADABLE
    slowest = sort_rows(rows, "rps", descending=False)
    assert slowest[0].name == "server-closes-connections"
    assert slowest[-1].status == UNREADABLE


def test_sort_by_date_and_by_name(rows: list[SessionRow]) -> None:
    newest = sort_rows(rows, "date", descending=True)
    assert newest[0].name == "server-closes-connections"
    assert newest[5].name == "h2c-m10"
    oldest = sort_rows(rows, "date", descending=False)
    assert oldest[0].name == "h2c-m10"
    names = [r.name for r in sort_rows(rows, "name", descending=False) if r.readable]
    assert names == sorted(names, key=str.casefold)


def test_sort_ties_keep_their_order(rows: list[SessionRow]) -> None:
    # Three sessions ran with -c 8 or -c 16: equal keys stay in the listing's order.
    by_c = [r.name for r in sort_rows(rows, "c", descending=True) if r.c == 16]
    listing = [r.name for r in rows if r.c == 16]
    assert by_c == listing


def test_every_column_sorts(rows: list[SessionRow]) -> None:
    for column in ("date", "name", "tool", "url", "c", "m", "rps", "p99", "errors", "tags"):
        ordered = sort_rows(rows, column, descending=False)
        assert sorted(r.path for r in ordered) == sorted(r.path for r in rows)


def test_filter_is_case_insensitive_over_the_listed_fields(rows: list[SessionRow]) -> None:
    def names(query: str) -> set[str]:
        return {r.name or r.path.name for r in filter_rows(rows, query)}

    assert names("WRK") == {"wrk-h1"}  # name and tool
    assert names("https") == {"tls-h2"}  # URL
    assert names("49249") == {"h2c-m10"}  # URL port
    assert names("112059") == {"ab-keepalive", "server-closes-connections"}  # id
    assert names("unreadable") == {BAD_NAME}  # status
    assert len(names("EXAMPLE")) == 6  # tag
    assert names("h2load close") == {"server-closes-connections"}  # every word must match
    assert len(names("")) == 7
    assert names("no-such-thing") == set()


def test_recent_keeps_the_newest(rows: list[SessionRow]) -> None:
    latest = recent(rows, 2)
    assert [r.name for r in latest] == ["server-closes-connections", "ab-keepalive"]


def test_errors_are_the_requests_that_did_not_succeed() -> None:
    # h2load's status-mix capture: "1002 succeeded, 1998 failed" with 999 4xx and 999 5xx;
    # the failures already include the 4xx/5xx answers, so they are not counted twice.
    result = Result(
        tool="h2load",
        requests=Requests(total=3000, succeeded=1002, failed=1998),
        status={"2xx": 1002, "4xx": 999, "5xx": 999},
    )
    assert result.error_count == 1998
    assert result.error_rate == 1998 / 3000
    assert Result(tool="wrk", requests=Requests(failed=3)).error_count is None
    # wrk's socket errors are not among its requests: they count when they are more.
    socket = Result(tool="wrk", requests=Requests(total=50, succeeded=50), errors={"read": 2})
    assert socket.error_count == 2
