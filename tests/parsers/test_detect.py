from __future__ import annotations

import pytest

from tests.parsers import FIXTURES, capture, fixture
from tui_bench.parsers import ParseError
from tui_bench.parsers.detect import detect_tool, parse_output, target_connections, target_url


def _captures() -> list[str]:
    return sorted(
        p.name.removesuffix(".txt")
        for p in FIXTURES.glob("*.txt")
        if not p.name.endswith(".stderr.txt") and p.name.split("-")[0] in ("h2load", "wrk", "ab")
    )


@pytest.mark.parametrize("name", _captures())
def test_every_capture_is_placed(name: str) -> None:
    text = capture(name)
    if name == "wrk-4.1.0-refused":
        # wrk only said "unable to connect": nothing of it is recognizable.
        assert detect_tool(text) is None
    else:
        assert detect_tool(text) == name.split("-")[0]


def test_h2load_json() -> None:
    text = fixture("h2load-1.70-h2c-output-file.json")
    assert detect_tool(text) == "h2load"
    r = parse_output(text)
    assert r.tool_version == "1.70.0"
    assert r.requests.total == 20000


@pytest.mark.parametrize(
    ("name", "tool", "total"),
    [
        ("h2load-1.52-h2c-n", "h2load", 20000),
        ("wrk-4.1.0-lua", "wrk", 186451),
        ("ab-2.3-tls", "ab", 1000),
    ],
)
def test_dispatch(name: str, tool: str, total: int) -> None:
    text = capture(name)
    for given in (None, tool):
        r = parse_output(text, given)
        assert r.tool == tool
        assert r.requests.total == total


def test_unknown_text_names_the_tools_tried() -> None:
    with pytest.raises(ParseError, match="tried h2load, wrk, ab"):
        parse_output("hello\n")


def test_unknown_tool() -> None:
    with pytest.raises(ParseError, match="no parser for 'oha'"):
        parse_output(capture("wrk-4.1.0-plain"), "oha")


def test_wrong_tool_given() -> None:
    with pytest.raises(ParseError):
        parse_output(capture("wrk-4.1.0-plain"), "ab")


@pytest.mark.parametrize(
    ("name", "url"),
    [
        ("wrk-4.1.0-table-lua", "http://127.0.0.1:56559/"),
        ("ab-2.3-length-failures", "http://127.0.0.1:18100/vary"),
        ("ab-2.3-tls", "https://127.0.0.1:18102/small"),
        # h2load names its target nowhere.
        ("h2load-1.52-h1-n", None),
    ],
)
def test_the_url_an_output_names(name: str, url: str | None) -> None:
    assert target_url(capture(name), name.split("-")[0]) == url


def test_an_ipv6_host_ab_names_is_bracketed() -> None:
    text = "Server Hostname:        ::1\nServer Port:            80\nDocument Path:          /\n"
    assert target_url(text, "ab") == "http://[::1]:80/"


@pytest.mark.parametrize(
    ("name", "connections"),
    [
        ("ab-2.3-plain", 10),
        ("wrk-4.1.0-lua", 20),
        ("h2load-1.52-h1-n", 20),
        ("h2load-1.52-h2c-D-warmup", 10),
        ("ab-2.3-refused", None),
    ],
)
def test_the_connections_an_output_names(name: str, connections: int | None) -> None:
    assert target_connections(capture(name), name.split("-")[0]) == connections


def test_h2load_s_clients_are_summed_over_its_threads() -> None:
    text = (
        "spawning thread #0: 3 total client(s). 100 total requests\n"
        "spawning thread #1: 2 total client(s). 100 total requests\n"
    )
    assert target_connections(text, "h2load") == 5
