"""Session rows for listings: built from the example sessions, sorted, filtered."""

from __future__ import annotations

import shutil
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

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
from tui_bench.storage.session import Session
from tui_bench.storage.sweep_doc import best_point

EXAMPLES = Path(__file__).parents[2] / "sessions"
BAD_NAME = "20261120-000000-000-bad.json"
SWEEP = "20261121-114906-878-sweep-c-sweep.json"


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
    assert len(rows) == 8
    h2c = named["h2c-m10"]
    assert h2c.readable and h2c.status == "completed"
    assert h2c.id == "20261121-112049-153-h2load-h2c-m10"
    assert h2c.tool == "h2load"
    assert h2c.url == "http://127.0.0.1:49249/"
    assert (h2c.c, h2c.m) == (16, 10)
    assert h2c.rps == pytest.approx(42915.14)
    assert h2c.p99_s == pytest.approx(0.01066, rel=1e-3)
    assert h2c.errors == 0
    assert h2c.tags == ("example",) and h2c.kind == "run"
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
        "kind": "run",
        "status": "completed",
        "started_at": "2026-11-21T11:20:55.632780+00:00",
        "tool": "wrk",
        "url": "http://127.0.0.1:37665/",
        "c": 16,
        "m": None,
        "rps": pytest.approx(49192.90049268077),
        "p99_s": row["p99_s"],
        "errors": 0,
        "tags": ["example"],
        "validity": "valid",
    }
    assert row["p99_s"] == pytest.approx(0.00336, rel=1e-2)


def test_a_sweep_is_listed_by_its_best_point(store_dir: Path) -> None:
    # c=4 and c=32, two rounds each; under the SLO p99<10ms the knee is c=4 (p99 5.5 ms),
    # though c=32 served more (29,008 req/s at p99 11.2 ms).
    session = store.load(store_dir / SWEEP)
    row = session_row(session)
    assert (row["kind"], row["tool"], row["name"]) == ("sweep", "h2load sweep", "c-sweep")
    assert (row["c"], row["m"], row["url"]) == (4, 4, "http://127.0.0.1:52785/")
    assert row["rps"] == 22662.0 and row["p99_s"] == pytest.approx(0.0054875)
    assert row["errors"] == 0 and row["status"] == "completed"
    listed = row_of(store.SessionEntry(store_dir / SWEEP, session))
    assert (listed.kind, listed.tool, listed.c, listed.rps) == ("sweep", "h2load sweep", 4, 22662.0)


def sweep_doc(store_dir: Path) -> dict[str, Any]:
    return dict(store.load(store_dir / SWEEP).doc)


def test_best_point_is_the_knee_else_the_most_req_s(store_dir: Path) -> None:
    doc = sweep_doc(store_dir)
    best = best_point(Session(doc))
    assert best is not None and best.name == "c=4"
    without_slo = {**doc, "knee": None}
    best = best_point(Session(without_slo))
    assert best is not None and best.name == "c=32"
    none_meets = {**doc, "knee": {**doc["knee"], "point": None}}
    best = best_point(Session(none_meets))
    assert best is not None and best.name == "c=32"
    unmeasured = [{**p, "rps": {**p["rps"], "median": None}} for p in doc["points"]]
    assert best_point(Session({**doc, "points": unmeasured})) is None
    invalid = {"verdict": "invalid", "reasons": [{"code": "errors", "message": "x"}]}
    judged = [{**p, "validity": invalid if p["name"] == "c=32" else None} for p in doc["points"]]
    best = best_point(Session({**without_slo, "points": judged}))
    assert best is not None and best.name == "c=4", "never an invalid point"


def test_a_sweep_row_has_the_verdict_of_the_point_it_shows(store_dir: Path) -> None:
    doc = sweep_doc(store_dir)
    assert session_row(Session(doc))["validity"] is None, "aggregated before verdicts were kept"
    suspect = {"verdict": "suspect", "reasons": [{"code": "client-bound", "message": "x"}]}
    doc["points"] = [{**p, "validity": suspect} for p in doc["points"]]
    assert session_row(Session(doc))["validity"] == "suspect"


def test_a_sweep_points_url_c_and_errors_are_the_best_points(store_dir: Path) -> None:
    doc = sweep_doc(store_dir)
    doc["knee"] = None  # the best point is then c=32
    doc["points"] = [{**p, "error_rate": 0.01} for p in doc["points"]]
    row = session_row(Session(doc))
    assert (row["c"], row["rps"]) == (32, 29007.5)
    assert row["errors"] == round(0.01 * doc["points"][1]["requests"]) == 580


def test_a_sweep_without_figures_lists_none(store_dir: Path) -> None:
    doc = sweep_doc(store_dir)
    for points in ([], "damaged"):
        row = session_row(Session({**doc, "points": points}))
        assert row["tool"] == "h2load sweep"
        assert (row["rps"], row["p99_s"], row["errors"]) == (None, None, None)
        assert row["c"] == 4, "the first point's, as the sweep's spec"
    # What a summary holds is shown; what it lacks is unknown, not 0.
    partial = session_row(Session({**doc, "points": [{"index": 0, "rps": {"median": 1.0}}]}))
    assert (partial["rps"], partial["p99_s"], partial["errors"]) == (1.0, None, None)


def test_sort_by_a_number_keeps_rows_without_one_last(rows: list[SessionRow]) -> None:
    fastest = sort_rows(rows, "rps", descending=True)
    assert [r.name for r in fastest[:2]] == ["ab-keepalive", "wrk-h1"]
    assert fastest[-1].status == UNREADABLE
    slowest = sort_rows(rows, "rps", descending=False)
    assert slowest[0].name == "server-closes-connections"
    assert slowest[-1].status == UNREADABLE


def test_sort_by_date_and_by_name(rows: list[SessionRow]) -> None:
    newest = sort_rows(rows, "date", descending=True)
    assert [r.name for r in newest[:2]] == ["c-sweep", "server-closes-connections"]
    assert newest[6].name == "h2c-m10"
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
    assert names("sweep") == {"c-sweep"}  # name, tool and id
    assert names("https") == {"tls-h2"}  # URL
    assert names("49249") == {"h2c-m10"}  # URL port
    assert names("112059") == {"ab-keepalive", "server-closes-connections"}  # id
    assert names("unreadable") == {BAD_NAME}  # status
    assert len(names("EXAMPLE")) == 7  # tag
    assert names("h2load close") == {"server-closes-connections"}  # every word must match
    assert len(names("")) == 8
    assert names("no-such-thing") == set()


def test_recent_keeps_the_newest(rows: list[SessionRow]) -> None:
    latest = recent(rows, 2)
    assert [r.name for r in latest] == ["c-sweep", "server-closes-connections"]


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
