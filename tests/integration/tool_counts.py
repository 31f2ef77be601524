"""README's "What each tool counts" table, read for the tests that run each of its rows
against a real server: a cell says what the run's figures must show."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import Any

README = Path(__file__).resolve().parents[2] / "README.md"
HEADING = "### What each tool counts"
TOOLS = ("h2load", "wrk", "ab")
ROWS = (
    "2xx",
    "3xx",
    "4xx, 5xx",
    "answers of varying length",
    "a connection closed after each answer",
)


@cache
def counted() -> dict[str, dict[str, str]]:
    """{row: {tool: cell}} from the table under the heading."""
    text = README.read_text()
    after = text[text.index(HEADING) :].splitlines()
    start = next(i for i, line in enumerate(after) if line.startswith("|"))
    end = next(i for i in range(start, len(after)) if not after[i].startswith("|"))
    table = [[c.strip() for c in line.strip("|").split("|")] for line in after[start:end]]
    header, _, *rows = table
    assert tuple(header[1:]) == TOOLS, header
    return {row[0]: dict(zip(TOOLS, row[1:], strict=True)) for row in rows}


def cell(row: str, tool: str) -> str:
    return counted()[row][tool]


def said_bad(row: str, tool: str, result: dict[str, Any], klass: str, code: str) -> int:
    """The answers of `klass` (exact `code`) as the cell says the tool counts them, checked
    where the cell says the exact code is told."""
    how = cell(row, tool)
    assert how.startswith("failed"), how
    if "by class and exact code" in how:
        assert result["status_codes"][code] == result["status"][klass], result
        return int(result["status"][klass])
    key = re.search(r"as `(\w+)`", how)
    assert key is not None, how
    return int(result["errors"][key[1]])


def assert_good(row: str, tool: str, result: dict[str, Any], klass: str, code: str) -> None:
    """Every answer good, and counted by class (and code) where the cell says the tool
    tells it, or not told apart where it says so."""
    how = cell(row, tool)
    assert how.startswith("good"), how
    requests = result["requests"]
    total = requests["total"]
    assert total and requests["succeeded"] == total, result
    assert requests["failed"] in (0, None) and not any(result["errors"].values()), result
    if "by class and exact code" in how:
        assert result["status"][klass] == total and result["status_codes"][code] == total
    elif "once the URL is asked after the run" in how:
        assert result["status"][klass] == total, result["status"]
    elif "not told from 2xx" in how:
        assert not result["status"].get(klass), result["status"]
