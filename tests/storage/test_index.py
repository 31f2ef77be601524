"""The sessions index: the files stay the truth, the index follows them and is rebuilt."""

from __future__ import annotations

import contextlib
import os
import sqlite3
from pathlib import Path

import pytest

from tests.history_sessions import run_doc, save
from tui_bench.storage import store
from tui_bench.storage.catalog import rows_of
from tui_bench.storage.index import INDEX_VERSION, index_path, indexed, indexed_rows


def three(directory: Path) -> list[Path]:
    return [save(directory, run_doc("api", day, 10_000 + day, 0.01)) for day in range(3)]


def test_rows_through_the_index_are_the_rows_of_the_files(tmp_path: Path) -> None:
    three(tmp_path)
    (tmp_path / "20260101-000000-000-bad.json").write_text("{")
    expected = rows_of(store.list_sessions(tmp_path))
    assert indexed_rows(tmp_path) == expected  # building the index
    assert indexed_rows(tmp_path) == expected  # from the index
    assert index_path(tmp_path).is_file()
    bad = [row for row in expected if not row.readable]
    assert [row.path.name for row in bad] == ["20260101-000000-000-bad.json"]


def test_a_file_is_read_again_when_it_changes_and_dropped_when_it_goes(tmp_path: Path) -> None:
    first, second, _ = three(tmp_path)
    indexed(tmp_path)
    save(tmp_path, run_doc("api", 0, 55_555, 0.01) | {"name": "renamed"})
    second.unlink()
    by_path = {e.path: e for e in indexed(tmp_path)}
    assert second not in by_path
    assert by_path[first].head is not None and by_path[first].head["name"] == "renamed"
    assert by_path[first].facts is not None
    assert by_path[first].facts["points"][0]["rps"] == 55_555


def test_the_index_answers_without_reading_an_unchanged_file(tmp_path: Path) -> None:
    paths = three(tmp_path)
    indexed(tmp_path)
    # Same size and mtime, other bytes: only a cache hit would still list the old name.
    stat = paths[0].stat()
    data = paths[0].read_bytes().replace(b'"name": "api"', b'"name": "xyz"')
    paths[0].write_bytes(data)
    os.utime(paths[0], ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert {e.head["name"] for e in indexed(tmp_path) if e.head} == {"api"}


def test_a_damaged_or_older_index_is_rebuilt(tmp_path: Path) -> None:
    three(tmp_path)
    where = index_path(tmp_path)
    where.parent.mkdir(parents=True)
    where.write_bytes(b"{not a database")
    assert len(indexed_rows(tmp_path)) == 3
    with sqlite3.connect(where) as db:
        db.execute("PRAGMA user_version = 0")
        db.execute("UPDATE entries SET head = 'garbage'")
    assert len(indexed_rows(tmp_path)) == 3
    with contextlib.closing(sqlite3.connect(where)) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == INDEX_VERSION
        assert db.execute("SELECT COUNT(*) FROM entries").fetchone()[0] == 3


def test_an_index_that_cannot_be_written_only_costs_speed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    three(tmp_path)
    blocked = tmp_path / "cache-is-a-file"
    blocked.write_text("")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocked))
    assert len(indexed_rows(tmp_path)) == 3


def test_the_newest_alone_for_a_first_screen(tmp_path: Path) -> None:
    paths = three(tmp_path)
    assert [row.path for row in indexed_rows(tmp_path, newest=2)] == paths[:0:-1]
    assert len(indexed_rows(tmp_path)) == 3


def test_one_benchmark_alone_for_its_history(tmp_path: Path) -> None:
    three(tmp_path)
    other = save(tmp_path, run_doc("other", 9, 1.0, 1.0))
    assert [e.path for e in indexed(tmp_path, named="other")] == [other]
    # The same from the index, once every file is in it.
    assert [e.path for e in indexed(tmp_path, named="other")] == [other]
    assert len(indexed(tmp_path, named="api")) == 3
    assert indexed(tmp_path, named="nope") == []


def test_no_directory_no_rows(tmp_path: Path) -> None:
    assert indexed_rows(tmp_path / "missing") == []
