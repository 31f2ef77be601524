"""Which tool wrote a text, and the one entry point that parses any of them."""

from __future__ import annotations

import re
from collections.abc import Callable

from tui_bench.parsers import ParseError, ab, h2load, wrk
from tui_bench.result import Result

_PARSERS: dict[str, Callable[[str], Result]] = {
    "h2load": h2load.parse,
    "wrk": wrk.parse,
    "ab": ab.parse,
}

# Lines only that tool prints, start or end of run, so a truncated capture is still placed.
_SIGNATURES = (
    (
        "h2load",
        re.compile(
            r"^(?:starting benchmark\.\.\.|spawning thread #\d|h2load nghttp2/"
            r"|finished in \S+, \S+ req/s|time for request:|request {2,}:)",
            re.M,
        ),
    ),
    (
        "wrk",
        re.compile(
            r"^(?:Running \S+ test @ |[ \t]+Thread Stats[ \t]|tuibench-(?:summary|live) "
            r"|[ \t]*\d+ requests in \S+, \S+ read)",
            re.M,
        ),
    ),
    ("ab", re.compile(r"^(?:This is ApacheBench|Complete requests:|Time taken for tests:)", re.M)),
)
# Where the output says its load went: wrk's first line; ab's server lines (h2load names it
# nowhere).
_WRK_URL = re.compile(r"^Running \S+ test @ (https?://\S+)", re.M)
_AB_HOST = re.compile(r"^Server Hostname:[ \t]+(\S+)", re.M)
_AB_PORT = re.compile(r"^Server Port:[ \t]+(\d{1,5})\b", re.M)
_AB_PATH = re.compile(r"^Document Path:[ \t]+(\S+)", re.M)
_AB_TLS = re.compile(r"^SSL/TLS Protocol:", re.M)
# How many connections each tool says it opened: ab's concurrency, wrk's header, h2load's
# clients summed over its threads.
_AB_CONNECTIONS = re.compile(r"^Concurrency Level:[ \t]+(\d{1,9})\b", re.M)
_WRK_CONNECTIONS = re.compile(r"^\s*\d{1,9} threads and (\d{1,9}) connections\b", re.M)
_H2LOAD_CLIENTS = re.compile(r"^spawning thread #\d{1,9}: (\d{1,9}) total client\(s\)", re.M)
# h2load >= 1.70's --output-file JSON names its generator.
_H2LOAD_JSON = re.compile(r'\A\s*\{.*"generator"\s*:\s*"h2load[ "]', re.S)


def detect_tool(text: str) -> str | None:
    """The name of the tool ("h2load", "wrk" or "ab") that printed `text`, else None."""
    if _H2LOAD_JSON.match(text):
        return "h2load"
    for tool, signature in _SIGNATURES:
        if signature.search(text):
            return tool
    return None


def parse_output(text: str, tool: str | None = None) -> Result:
    """Parse `text` as `tool`'s output (detected when None); ParseError when it is not."""
    if tool is None:
        tool = detect_tool(text)
        if tool is None:
            raise ParseError(f"not the output of a known tool (tried {', '.join(_PARSERS)})")
    parser = _PARSERS.get(tool)
    if parser is None:
        raise ParseError(f"no parser for {tool!r} (known: {', '.join(_PARSERS)})")
    if tool == "h2load" and text.lstrip().startswith("{"):
        return h2load.parse_json(text)
    return parser(text)


def target_url(text: str, tool: str) -> str | None:
    """The URL `tool`'s output says it loaded, where it says one."""
    if tool == "wrk":
        found = _WRK_URL.search(text)
        return found[1] if found else None
    host, port, path = (p.search(text) for p in (_AB_HOST, _AB_PORT, _AB_PATH))
    if tool != "ab" or host is None or port is None or path is None:
        return None
    scheme = "https" if _AB_TLS.search(text) else "http"
    name = f"[{host[1]}]" if ":" in host[1] else host[1]
    return f"{scheme}://{name}:{port[1]}{path[1]}"


def target_connections(text: str, tool: str) -> int | None:
    """The connections `tool`'s output says it opened, where it says so."""
    if tool == "h2load":
        clients = [int(n) for n in _H2LOAD_CLIENTS.findall(text)]
        return sum(clients) if clients else None
    found = (_WRK_CONNECTIONS if tool == "wrk" else _AB_CONNECTIONS).search(text)
    return int(found[1]) if found else None
