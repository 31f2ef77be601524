"""`tuibench export`: to standard output or a file, never over the session itself."""

from __future__ import annotations

import io
import os
import shutil
import stat
import sys
from pathlib import Path

import orjson
import pytest

from tui_bench.cli.main import main

EXAMPLE = Path(__file__).parents[2] / "sessions" / "20261121-112049-153-h2load-h2c-m10.json"


@pytest.fixture
def session(tmp_path: Path) -> Path:
    return Path(shutil.copy(EXAMPLE, tmp_path))


def test_export_to_a_file(session: Path, tmp_path: Path) -> None:
    target = tmp_path / "out.csv"
    assert main(["export", str(session), "-f", "csv", "-o", str(target)]) == 0
    assert target.read_text().startswith("t_s,window_s,requests,rps,good_rps,")


def test_export_over_the_session_itself_is_refused(
    session: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = session.read_bytes()
    assert main(["export", str(session), "-f", "md", "-o", str(session)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "is the session file itself" in err
    assert session.read_bytes() == before


def test_an_unwritable_target_is_one_line(
    session: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["export", str(session), "-o", str(tmp_path / "no" / "dir.json")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot write" in err


def test_an_existing_file_is_not_overwritten_without_force(
    session: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "out.md"
    target.write_text("mine")
    assert main(["export", str(session), "-f", "md", "-o", str(target)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "exists" in err and "--force" in err
    assert target.read_text() == "mine"
    assert main(["export", str(session), "-f", "md", "-o", str(target), "--force"]) == 0
    assert target.read_text().startswith("# ")


def test_an_export_is_an_ordinary_file_and_holds_no_secret(
    session: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    doc = orjson.loads(session.read_bytes())
    doc["argv"] = [*doc["argv"], "-H", "Authorization: Bearer tok-old"]
    session.write_bytes(orjson.dumps(doc))  # saved before secrets were redacted
    umask = os.umask(0o022)
    try:
        target = tmp_path / "out.md"
        assert main(["export", str(session), "-f", "md", "-o", str(target)]) == 0
    finally:
        os.umask(umask)
    assert stat.S_IMODE(target.stat().st_mode) == 0o644
    assert "tok-old" not in target.read_text() and "Authorization: redacted:" in target.read_text()
    assert capsys.readouterr().err == f"md written to {target}\n"
    assert main(["export", str(session), "-f", "json"]) == 0
    assert "tok-old" not in capsys.readouterr().out


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_on_a_terminal_without_a_format_or_a_file_it_asks_which(
    session: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Thousands of lines of JSON flooding a terminal help nobody: one line says what to
    ask for. Asked for a format, or written to a file, or piped, it exports as ever."""
    assert main(["export", str(session)]) == 0  # piped: JSON, as scripts expect
    assert orjson.loads(capsys.readouterr().out)["result"]
    terminal = Terminal()
    monkeypatch.setattr(sys, "stdout", terminal)
    assert main(["export", str(session)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--format json|csv|md" in err and "-o FILE" in err
    assert f"tuibench export {session} | jq" in err
    assert terminal.getvalue() == ""
    assert main(["export", str(session), "--format", "md"]) == 0
    assert terminal.getvalue().startswith("# ")
    target = tmp_path / "out.json"
    assert main(["export", str(session), "-o", str(target)]) == 0
    assert orjson.loads(target.read_bytes())["result"]
