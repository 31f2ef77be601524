"""Empty and cut-short journals and sessions: each listed as damaged (or recovered), never
hiding the rest, in `sessions`, `sessions --json`, `history` and the browser's rows."""

from __future__ import annotations

import stat
from pathlib import Path

import orjson
import pytest

from tests.conftest import FIXTURES
from tests.faults.conftest import died_journal, in_process
from tui_bench.parsers.detect import parse_output
from tui_bench.storage import store
from tui_bench.storage.index import index_path, indexed_rows


def saved(directory: Path, name: str = "api") -> Path:
    """A session of real ab output, as `tuibench import` saves it."""
    text = (FIXTURES / "ab-2.3-k.txt").read_text()
    source = FIXTURES / "ab-2.3-k.txt"
    return store.save_imported(parse_output(text, "ab"), text, source=source, name=name,
                               directory=directory)  # fmt: skip


def cut(path: Path, size: int) -> None:
    with open(path, "r+b") as handle:
        handle.truncate(size)


def listed(capsys: pytest.CaptureFixture[str]) -> tuple[list[dict[str, object]], str]:
    """`sessions --json` and `sessions`, both exiting 0."""
    as_json, as_text = in_process(capsys, "sessions", "--json"), in_process(capsys, "sessions")
    assert as_json.returncode == as_text.returncode == 0, as_json.stderr + as_text.stderr
    return orjson.loads(as_json.stdout), as_text.stdout


def test_an_empty_journal_holds_nothing_and_is_removed(
    sessions: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = saved(sessions)
    empty = sessions / "20260101-000000-000-h2load.journal"
    empty.touch()
    rows, text = listed(capsys)
    assert [row["path"] for row in rows] == [str(good)]
    assert good.stem in text
    assert not empty.exists()


def test_a_journal_cut_in_its_header_is_listed_as_damaged(
    sessions: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = saved(sessions)
    journal = died_journal(sessions, "20260101-000000-000-h2load-api", 3)
    cut(journal, 20)
    rows, text = listed(capsys)
    assert [row["path"] for row in rows] == [str(good), str(journal)]
    assert rows[1]["error"] == f"{journal}: journal has no header"
    assert "unreadable" in text and good.stem in text
    history = in_process(capsys, "history", "api")
    assert history.returncode == 0, history.stderr
    assert good.stem in history.stdout
    assert history.stderr == f"tuibench: skipped: {journal}: journal has no header\n"
    # The browser reads the same rows.
    assert [row.path for row in indexed_rows(sessions)] == [good, journal]
    assert journal.exists(), "left for the user to look at, not deleted"


def test_a_journal_cut_mid_line_is_recovered_up_to_its_last_whole_line(
    sessions: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    journal = died_journal(sessions, "20260101-000000-000-h2load-api", 3)
    cut(journal, journal.stat().st_size - 10)
    [row], _ = listed(capsys)
    session = store.load(str(row["path"]))
    assert session.status == "interrupted"
    assert len(session.series) == 2
    assert session.doc["result"]["requests"]["total"] == 200


def test_a_session_cut_short_is_listed_as_damaged_and_hides_nothing(
    sessions: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    older, newer = saved(sessions), saved(sessions)
    cut(newer, 100)
    rows, text = listed(capsys)
    assert "unreadable" in text
    assert [row["path"] for row in rows] == [str(newer), str(older)]
    assert "corrupt JSON" in str(rows[0]["error"]) and rows[1]["id"] == older.stem
    history = in_process(capsys, "history", "api")
    assert history.returncode == 0, history.stderr
    assert older.stem in history.stdout and newer.stem not in history.stdout
    assert history.stderr.startswith(f"tuibench: skipped: {newer}: not a session file")


@pytest.mark.parametrize("size", [0, 1])
def test_only_damaged_files_still_list(
    sessions: Path, capsys: pytest.CaptureFixture[str], size: int
) -> None:
    damaged = saved(sessions)
    cut(damaged, size)
    rows, text = listed(capsys)
    assert [row["path"] for row in rows] == [str(damaged)]
    assert "unreadable" in text


def test_the_index_is_as_private_as_the_store(
    sessions: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    saved(sessions)
    indexed_rows(sessions)
    index = index_path(sessions)
    assert stat.S_IMODE(index.stat().st_mode) == 0o600
    assert stat.S_IMODE(index.parent.stat().st_mode) == 0o700
