"""Control characters in every text field (a name and a tag given on the command line; a
URL, a header and an argv from a session file made elsewhere) reach no text output raw: the
md export (printed and written), `compare --format md`, `history`, `sessions`, error lines.
JSON keeps every field exact."""

from __future__ import annotations

import html
import re
from pathlib import Path

import orjson
import pytest

from tests.conftest import FIXTURES
from tests.ui import until
from tui_bench.cli.main import main
from tui_bench.printable import printable, printable_line, printable_lines
from tui_bench.ui.app import TuibenchApp
from tui_bench.ui.screens.sessions_screen import SessionsScreen

# A window title set and a bell, a line rewritten, a forged line, a CSI that clears the
# screen (C1), text read right to left.
HOSTILE = "t\x1b]0;pwned\x07\r\nforged\x9b2J\u202eevil"
RAW = ("\x1b", "\x07", "\r", "\x9b", "\u202e")
NAME = f"bench{HOSTILE}"
TAG = f"tag{HOSTILE}"


def assert_safe(text: str, where: str) -> None:
    for char in RAW:
        assert char not in text, f"{char!r} in {where}"
    assert not any(line.startswith("forged") for line in text.splitlines()), where


@pytest.fixture
def hostile_session(sessions: Path, capsys: pytest.CaptureFixture[str]) -> str:
    fixture = str(FIXTURES / "h2load-1.52-h2c-n.txt")
    assert main(["import", fixture, "--json", "--save", "--name", NAME, "--tag", TAG]) == 0
    capsys.readouterr()
    (path,) = sessions.glob("*.json")
    # What a session file from elsewhere may hold in its other text fields.
    doc = orjson.loads(path.read_bytes())
    doc["spec"]["urls"] = [f"http://127.0.0.1:8080/{HOSTILE}"]
    doc["spec"]["headers"] = [f"X-Note: {HOSTILE}"]
    doc["argv"] = ["h2load", f"http://127.0.0.1:8080/{HOSTILE}"]
    path.write_bytes(orjson.dumps(doc))
    return path.stem


def test_no_text_output_writes_a_control_character(
    hostile_session: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    session = hostile_session
    written = tmp_path / "out.md"
    outputs = {
        "export md": ["export", session, "-f", "md"],
        "export md -o": ["export", session, "-f", "md", "-o", str(written)],
        "compare md": ["compare", session, session, "--format", "md"],
        "history": ["history", NAME, "--headless"],
        "history md": ["history", NAME, "--format", "md"],
        "sessions": ["sessions"],
    }
    for what, argv in outputs.items():
        assert main(argv) == 0, what
        out, err = capsys.readouterr()
        assert_safe(out + err, what)
    assert_safe(written.read_text(), "the md file")
    # Shown as escapes, so what was there can still be read.
    assert printable(HOSTILE) in written.read_text()
    assert "\\x1b]0;pwned\\x07" in written.read_text()
    # A bad reference said in an error line.
    assert main(["export", NAME, "-f", "md"]) != 0
    assert_safe(capsys.readouterr().err, "an error line")


def test_json_keeps_every_field_exact(
    hostile_session: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["export", hostile_session, "-f", "json"]) == 0
    doc = orjson.loads(capsys.readouterr().out)
    assert doc["name"] == NAME and doc["tags"] == [TAG]
    assert doc["spec"]["headers"] == [f"X-Note: {HOSTILE}"]
    assert main(["sessions", "--json"]) == 0
    (row,) = orjson.loads(capsys.readouterr().out)
    assert row["tags"] == [TAG]


def test_a_header_with_a_control_character_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    header = "X-Evil: a\x1b]0;pwned\x07"
    assert main(["run", "--headless", "-d", "1", "-H", header, "http://127.0.0.1:1/"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "without control characters" in err
    assert_safe(err, "the error line")


@pytest.mark.parametrize(
    ("text", "line", "lines"),
    [
        ("a\x1bb", "a\\x1bb", "a\\x1bb"),
        ("a\nb\tc", "a\\nb\\tc", "a\nb\\tc"),
        ("\x85\u2028", "\\u0085\\u2028", "\\u0085\\u2028"),
        ("plain ünïcode", "plain ünïcode", "plain ünïcode"),
    ],
)
def test_escapes(text: str, line: str, lines: str) -> None:
    assert printable(text) == line and printable_lines(text) == lines
    # Past C0 as JSON reads it: the same character again inside a JSON string.
    assert orjson.loads('"' + printable("\x85") + '"') == "\x85"


async def test_the_app_shows_names_as_text(sessions: Path) -> None:
    # Markup in a name is text, not styling, and an unbalanced tag breaks nothing.
    name = "[b]x[/] [/]\x1b]0;pwned"
    fixture = str(FIXTURES / "h2load-1.52-h2c-n.txt")
    tag = "[/]\x1b]0;pwned"
    assert main(["import", fixture, "--json", "--save", "--name", name, "--tag", tag]) == 0
    app = TuibenchApp(lambda app: SessionsScreen(sessions))
    row = "[b]x[/] [/]\\x1b]0;pwned"  # the table's row
    detail = "#[/]\\x1b]0;pwned"  # the detail line
    async with app.run_test(size=(160, 30)) as pilot:
        # Both shown, however long a busy machine takes to paint them.
        await until(pilot, lambda: all(s in screen_text(app) for s in (row, detail)), "both")
        shown = screen_text(app)
    assert row in shown and detail in shown, shown
    assert_safe(shown, "the app")


def screen_text(app: TuibenchApp) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", app.export_screenshot())).replace("\xa0", " ")


def test_a_line_of_tool_output_keeps_its_end() -> None:
    # ab's report quotes the server's own Server header.
    line = "Server Software:        nginx\x1b]0;pwned\x07\r\n"
    assert printable_line(line) == "Server Software:        nginx\\x1b]0;pwned\\x07\n"
    assert printable_line("no end") == "no end"
