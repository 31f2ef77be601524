"""Every parser either returns a Result or raises ParseError, whatever the text: random
text, real captures cut short or mangled, and known line openings with random tails."""

from __future__ import annotations

import json
import os
from collections.abc import Callable

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.parsers import FIXTURES, capture
from tui_bench.parsers import ParseError, ab, h2load, wrk
from tui_bench.parsers.detect import detect_tool, parse_output
from tui_bench.parsers.live import LiveLine, parse_live_line
from tui_bench.result import Result

PARSERS: dict[str, Callable[[str], Result]] = {
    "h2load": h2load.parse,
    "wrk": wrk.parse,
    "ab": ab.parse,
    "any": parse_output,
}
CAPTURES = [
    capture(p.name.removesuffix(".txt"))
    for p in sorted(FIXTURES.glob("*.txt"))
    if not p.name.endswith(".stderr.txt") and p.name.split("-")[0] in ("h2load", "wrk", "ab")
]
# Openings of the lines the parsers look for, so random tails reach their number handling.
OPENINGS = [
    "finished in ",
    "requests: ",
    "status codes: ",
    "traffic: ",
    "                     min         max         mean         sd        +/- sd",
    "                 min         max         median     p95        p99        mean         sd"
    "        +/- sd",
    "time for request: ",
    "request     : ",
    "TTFB        : ",
    "Application protocol: ",
    "TLS Protocol: ",
    "Process Request Failure:",
    "  Thread Stats   Avg      Stdev     Max   +/- Stdev",
    "  Thread Stats   Avg     Stdev       Max       Min   +/- Stdev",
    "    Latency ",
    "    Connect ",
    "  Latency Distribution",
    "     50% ",
    "  1 requests in ",
    "  Socket errors: connect ",
    "  Non-2xx or 3xx responses: ",
    "Requests/sec: ",
    "Transfer/sec: ",
    "JSON Output\n-----------\n\n",
    "tuibench-summary ",
    "tuibench-live ",
    "This is ApacheBench, Version ",
    "Complete requests: ",
    "Time taken for tests: ",
    "Failed requests: ",
    "   (Connect: ",
    "SSL/TLS Protocol: ",
    "Connection Times (ms)\n              min  mean[+/-sd] median   max",
    "Total: ",
    "Percentage of the requests served within a certain time (ms)",
    "  50% ",
    "progress: ",
    "Warm-up started for thread #",
    "Completed ",
    "Finished ",
]
# A deeper search than CI's, when a parser changes: TUIBENCH_FUZZ_EXAMPLES=5000 pytest ...
FUZZ = settings(
    max_examples=int(os.environ.get("TUIBENCH_FUZZ_EXAMPLES", "150")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)

tails = st.text(alphabet=st.characters(codec="utf-8"), max_size=40) | st.from_regex(
    r"[-0-9. %()a-zA-Z,:{}\[\]\"]{0,40}", fullmatch=True
)
lines_like_output = st.lists(
    st.tuples(st.sampled_from(OPENINGS), tails).map("".join), max_size=25
).map("\n".join)


@st.composite
def mangled_capture(draw: st.DrawFn) -> str:
    text = draw(st.sampled_from(CAPTURES))
    lines = text.splitlines(keepends=True)
    for _ in range(draw(st.integers(0, 4))):
        if not lines:
            break
        i = draw(st.integers(0, len(lines) - 1))
        action = draw(st.sampled_from(["drop", "dup", "replace", "cut", "splice"]))
        if action == "drop":
            del lines[i]
        elif action == "dup":
            lines.insert(i, lines[i])
        elif action == "replace":
            lines[i] = draw(tails) + "\n"
        elif action == "cut":
            lines[i] = lines[i][: draw(st.integers(0, len(lines[i])))]
        else:
            at = draw(st.integers(0, len(lines[i])))
            lines[i] = lines[i][:at] + draw(tails) + lines[i][at:]
    joined = "".join(lines)
    return joined[: draw(st.integers(0, len(joined)))] if draw(st.booleans()) else joined


def _parses_or_parse_error(parser: Callable[[str], Result], text: str) -> None:
    try:
        result = parser(text)
    except ParseError:
        return
    assert isinstance(result, Result)
    result.to_dict()


@FUZZ
@given(st.sampled_from(sorted(PARSERS)), st.text())
def test_random_text(name: str, text: str) -> None:
    _parses_or_parse_error(PARSERS[name], text)


@FUZZ
@given(st.sampled_from(sorted(PARSERS)), lines_like_output)
def test_known_openings_with_random_tails(name: str, text: str) -> None:
    _parses_or_parse_error(PARSERS[name], text)


@FUZZ
@given(st.sampled_from(sorted(PARSERS)), mangled_capture())
def test_mangled_real_captures(name: str, text: str) -> None:
    _parses_or_parse_error(PARSERS[name], text)


@FUZZ
@given(mangled_capture() | st.text())
def test_detect_never_raises(text: str) -> None:
    assert detect_tool(text) in (None, "h2load", "wrk", "ab")


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=20,
)
h2load_keys = st.sampled_from(
    [
        "requests",
        "status_codes",
        "traffic",
        "performance",
        "duration",
        "request",
        "connect",
        "ttfb",
        "min",
        "max",
        "median",
        "p95",
        "p99",
        "mean",
        "sd",
        "total",
        "2xx",
        "metadata",
    ]
)
h2load_like = st.recursive(
    json_values,
    lambda children: st.dictionaries(h2load_keys, children, max_size=6),
    max_leaves=30,
)


@FUZZ
@given(
    st.one_of(
        st.binary(max_size=200),
        st.text(max_size=200),
        json_values.map(json.dumps),
        h2load_like.map(lambda m: json.dumps({"measurements": m, "metadata": m})),
    ),
    st.none() | lines_like_output,
)
def test_h2load_json(data: str | bytes, text: str | None) -> None:
    try:
        result = h2load.parse_json(data, text)
    except ParseError:
        return
    result.to_dict()


@FUZZ
@given(st.sampled_from(["h2load", "wrk", "ab", "oha", ""]), lines_like_output | st.text())
def test_live_lines_never_raise(tool: str, text: str) -> None:
    for line in text.split("\n"):
        assert isinstance(parse_live_line(tool, line), LiveLine | None)
