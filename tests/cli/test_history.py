"""`tuibench history NAME` end to end on a store of generated sessions: the table, the
exports, -o and --force, and one-line errors."""

from __future__ import annotations

import csv
import io
import os
import subprocess
import sys
from pathlib import Path

import orjson
import pytest

from tests.analysis.test_history import api_history
from tui_bench.cli.main import main
from tui_bench.report.history_report import CSV_COLUMNS


@pytest.fixture
def store(sessions: Path) -> Path:
    api_history(sessions)
    return sessions


def test_the_table_lists_valid_runs_then_the_invalid_apart(
    store: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["history", "api", "--headless"]) == 0
    out = capsys.readouterr().out
    head, apart = out.split("invalid (left out of the trend and the change points):")
    assert head.startswith("history of api: 14 sessions, 1 invalid, ")
    assert "20260308-090000-000-h2load-api" in head and "req/s −10." in head
    assert "change points: PELT (ruptures)" in head
    assert "6 runs before, 7 after" in head
    assert "version 1.52.0→1.59.0 c 10→32" in head
    assert "interrupted" not in head and "800" in apart and "INVALID" not in apart


def test_json_csv_and_markdown(store: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["history", "api", "--json"]) == 0
    data = orjson.loads(capsys.readouterr().out)
    assert len(data["runs"]) == 14 and len(data["change_points"]) == 1
    assert main(["history", "api", "--format", "csv"]) == 0
    table = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert tuple(table[0]) == CSV_COLUMNS and len(table) == 14
    assert [r["change_points"] for r in table if r["change_points"]] == ["req/s −10.2 %"]
    assert [r["validity"] for r in table].count("invalid") == 1
    assert main(["history", "api", "--format", "md"]) == 0
    md = capsys.readouterr().out
    assert md.startswith("# History of api\n")
    assert "## Invalid runs (left out of the trend and the change points)" in md


def test_output_file_is_never_overwritten_without_force(
    store: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "api.md"
    assert main(["history", "api", "--format", "md", "-o", str(target)]) == 0
    assert target.read_text().startswith("# History of api")
    assert capsys.readouterr().err == f"history written to {target}\n"
    target.write_text("mine")
    assert main(["history", "api", "--format", "md", "-o", str(target)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "exists" in err and "--force" in err
    assert target.read_text() == "mine"
    assert main(["history", "api", "--format", "csv", "-o", str(target), "--force"]) == 0
    assert target.read_text().startswith("started_at,")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["history", "nope", "--json"],
            "no saved session is named 'nope' (tuibench sessions lists them)",
        ),
        (["history", "api", "-o", "x.md"], "-o needs --format json, csv or md"),
    ],
)
def test_mistakes_are_one_line(
    store: Path, capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err == f"tuibench: error: {message}\n"


def test_a_pipe_gets_the_table(store: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "tui_bench.cli.main", "history", "api"],
        capture_output=True,
        text=True,
        env=os.environ | {"TUIBENCH_SESSIONS": str(store)},
        check=True,
    )
    assert proc.stdout.startswith("history of api: 14 sessions")


def test_without_a_name_one_line_says_where_names_are(
    sessions: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["history"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == (
        "tuibench: error: history: say which runs: a session's name"
        " (tuibench sessions lists them)\n"
    )
