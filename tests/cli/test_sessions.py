"""`tuibench sessions` on the example store: fitted to a terminal's width, whole when piped."""

from __future__ import annotations

import os
import pty
import shutil
import subprocess
import sys
from pathlib import Path

import orjson
import pytest

from tui_bench.cli.main import main
from tui_bench.report.column_fit import elide_url
from tui_bench.spec import RunSpec
from tui_bench.storage.journal import JournalWriter
from tui_bench.storage.session_records import SessionDraft
from tui_bench.storage.store import journal_path

EXAMPLES = Path(__file__).parents[2] / "sessions"
# The table as printed before it was fitted to terminals: scripts read this one.
PIPED = Path(__file__).with_name("sessions_table.txt")


@pytest.fixture
def store(sessions: Path) -> Path:
    shutil.copytree(EXAMPLES, sessions)
    return sessions


def on_a_terminal(columns: int) -> str:
    """What `tuibench sessions` prints with its output on a terminal `columns` wide."""
    main_fd, terminal_fd = pty.openpty()
    with os.fdopen(main_fd, "rb", buffering=0) as reader:
        proc = subprocess.Popen(
            [sys.executable, "-m", "tui_bench.cli.main", "sessions"],
            stdin=terminal_fd,
            stdout=terminal_fd,
            env=os.environ | {"COLUMNS": str(columns)},
        )
        os.close(terminal_fd)
        chunks = []
        while True:
            try:
                chunk = reader.read(65536)
            except OSError:  # the terminal's other end closed: all is read
                break
            if not chunk:
                break
            chunks.append(chunk)
        assert proc.wait(timeout=30) == 0
    return b"".join(chunks).decode().replace("\r\n", "\n")


@pytest.mark.usefixtures("store")
def test_at_80_columns_no_line_is_wider_and_every_id_is_whole() -> None:
    lines = on_a_terminal(80).splitlines()
    ids = sorted(path.stem for path in EXAMPLES.glob("*.json"))
    assert lines[0].split() == ["id", "validity", "req/s", "p99"]
    assert max(len(line) for line in lines) <= 80
    assert sorted(line.split()[0] for line in lines[1:]) == ids


@pytest.mark.usefixtures("store")
def test_wider_the_url_keeps_its_host_and_port_and_its_paths_end() -> None:
    lines = on_a_terminal(140).splitlines()
    assert max(len(line) for line in lines) <= 140
    assert lines[0].split() == ["id", "status", "validity", "tool", "url", "c", "req/s", "p99"]
    assert any(" http://127.0.0.1:55857…ose " in line for line in lines)


@pytest.mark.usefixtures("store")
def test_piped_the_table_is_whole(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sessions"]) == 0
    assert capsys.readouterr().out == PIPED.read_text()


def test_a_url_too_narrow_for_its_host_gives_up_its_middle() -> None:
    assert elide_url("http://127.0.0.1:8080/a/b", 40) == "http://127.0.0.1:8080/a/b"
    assert elide_url("http://127.0.0.1:8080/api/items", 26) == "http://127.0.0.1:8080…tems"
    assert elide_url("http://127.0.0.1:8080/api/items", 12) == "http:/…items"


def test_a_run_still_going_is_listed_as_running(
    sessions: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    draft = SessionDraft(
        id="20991231-235959-000-wrk-live",
        spec=RunSpec(urls=("http://127.0.0.1:8080/",), tool="wrk", connections=64),
        argv=["wrk"],
        tool={"name": "wrk"},
        host={},
        started_at="2099-12-31T23:59:59+00:00",
        name="live",
        tags=["night"],
    )
    writer = JournalWriter(journal_path(sessions, draft.id), draft.header())
    try:
        assert main(["sessions"]) == 0
        first = capsys.readouterr().out.splitlines()[1].split()
        assert first == [
            draft.id,
            "running",
            "–",
            "wrk",
            "http://127.0.0.1:8080/",
            "64",
            "–",
            "–",
            "night",
        ]
        assert main(["sessions", "--json"]) == 0
        (row,) = orjson.loads(capsys.readouterr().out)
        assert row["status"] == "running" and row["path"].endswith(".journal")
        assert row["rps"] is None and row["validity"] is None
    finally:
        writer.discard()
