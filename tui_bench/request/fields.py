"""The fields of a run as a person types them: each one's name (the flag it mirrors), its
reader (text to value, or a one-line UsageError) and its hint. The run form shows them; the
readers are those the command line's values go through, so both refuse the same things."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar
from urllib.parse import urlsplit

from tui_bench.body import MAX_BODY_TEXT, STDIN, Body, read_body
from tui_bench.errors import UsageError
from tui_bench.remote.ssh import SshHost
from tui_bench.request.run import parse_generators
from tui_bench.request.sweep_plan import parse_ramp, parse_vary
from tui_bench.spec import RunSpec, read_connections, read_method, read_threads, validate_url
from tui_bench.spec import with_scheme as url_with_scheme
from tui_bench.stages import parse_stages
from tui_bench.typed_values import (
    parse_duration,
    parse_percent,
    parse_positive_int,
    parse_rate,
    parse_tolerance_pct,
)

T = TypeVar("T")
T_co = TypeVar("T_co", covariant=True)

NO_COMPRESSION = "none"
# `;` separates headers only where a new `Name:` or the end follows, so that values such as
# `Cookie: a=1; b=2` or `Accept: text/html;q=0.9` keep theirs.
_HEADER_SEPARATOR = re.compile(r";\s*(?=[!#$%&'*+.^_`|~0-9A-Za-z-]+\s*:|$)")


def read_urls(text: str) -> tuple[str, ...]:
    urls = tuple(text.split())
    for url in urls:
        validate_url(url)
    return urls


def read_generators(text: str) -> tuple[str, ...]:
    """Comma-separated `local` or `[ssh://][user@]host[:port]` each, as `--generator` takes."""
    hosts = read_tags(text)
    parse_generators(hosts)
    return hosts


def read_headers(text: str) -> tuple[str, ...]:
    """`;`-separated, on one line: `X-A: 1; Cookie: a=1; b=2` is two headers."""
    return tuple(part for part in (p.strip() for p in _HEADER_SEPARATOR.split(text)) if part)


def read_body_file(text: str) -> Body:
    """A body file as the run form takes it: read as it is when the run starts."""
    if text == STDIN:
        raise UsageError(f"{STDIN} (standard input) is for the command line: give a file")
    return read_body(text)


def read_tags(text: str) -> tuple[str, ...]:
    return tuple(tag for tag in (t.strip() for t in text.split(",")) if tag)


# The thresholds' reader is loaded when one of these fields is first read, not with the form:
# its first frame needs no analysis.
def check_threshold(text: str) -> None:
    """Refuses what `--threshold` refuses."""
    from tui_bench.analysis.thresholds import parse_threshold

    parse_threshold(text)


def check_slo(text: str) -> None:
    """Refuses what `--slo` refuses."""
    from tui_bench.analysis.thresholds import parse_slo

    parse_slo(text)


def clauses(read: Callable[[str], object]) -> Callable[[str], tuple[str, ...]]:
    """`;`-separated values of a repeatable flag (`c=1,2; m=1,10` is two `--vary`), each
    checked by the flag's own reader and kept as typed."""

    def read_clauses(text: str) -> tuple[str, ...]:
        found = tuple(part for part in (p.strip() for p in text.split(";")) if part)
        for clause in found:
            read(clause)
        return found

    return read_clauses


def checked(read: Callable[[str], object]) -> Callable[[str], str]:
    """The text itself, once `read` accepts it."""

    def read_checked(text: str) -> str:
        read(text)
        return text

    return read_checked


def required(read: Callable[[str], T]) -> Callable[[str], T]:
    def read_required(text: str) -> T:
        if not text:
            raise UsageError("required")
        return read(text)

    return read_required


def optional(read: Callable[[str], T]) -> Callable[[str], T | None]:
    def read_optional(text: str) -> T | None:
        return read(text) if text else None

    return read_optional


@dataclass(frozen=True)
class TextField(Generic[T_co]):
    """A typed-in field: its Input's id, its label (the flag it mirrors) and its reader."""

    id: str
    label: str
    read: Callable[[str], T_co]
    placeholder: str = ""


URLS = TextField("urls", "URL(s)", read_urls, "http://127.0.0.1:8080/")
CONNECTIONS = TextField("connections", "connections -c", required(read_connections))
THREADS = TextField("threads", "threads -t", required(read_threads))
STREAMS = TextField("streams", "streams -m", optional(parse_positive_int), "h2load's default: 1")
RATE = TextField("rate", "rate --rate", optional(parse_rate), "open loop: req/s in total")
DURATION = TextField("duration", "duration -d", required(parse_duration), "10s, 500ms, 2m")
REQUESTS = TextField("requests", "requests -n", required(parse_positive_int), "e.g. 20000")
WARM_UP = TextField("warm_up", "warm-up", optional(parse_duration), "none; e.g. 2s")
STAGES = TextField("stages", "stages", required(parse_stages), "RATE:DUR,… e.g. 1000:30s,5000:1m")
HEADERS = TextField("headers", "headers -H", read_headers, "Name: value; Other: value")
METHOD = TextField("method", "method -X", optional(read_method), "GET; POST with a body")
BODY = TextField(
    "body", "body --body", optional(read_body_file), f"a file, at most {MAX_BODY_TEXT}"
)
CONTENT_TYPE = TextField(
    "content_type", "content type", optional(str), "from the file's name, e.g. .json"
)
SERVER_PID = TextField("server_pid", "server pid", required(parse_positive_int))
SERVER_NAME = TextField("server_name", "server name", required(str), "e.g. nginx")
SERVER_HOST = TextField(
    "server_host", "server host", optional(checked(SshHost.parse)), "user@host: sampled there"
)
GENERATORS = TextField("generators", "generators", read_generators, "here; or user@host-c, host-d")
NAME = TextField("name", "name", str, "optional")
TAGS = TextField("tags", "tags", read_tags, "comma-separated")
VARY = TextField("vary", "vary", clauses(parse_vary), "e.g. c=10,50,100; m=1,10")
RAMP = TextField("ramp", "ramp", clauses(parse_ramp), "e.g. c=400/4")
REPEAT = TextField("repeat", "repeat", required(parse_positive_int), "runs of every point")
COOL_DOWN = TextField("cool_down", "cool-down", required(parse_duration), "between runs; 0: none")
SLO = TextField("slo", "SLO", optional(checked(check_slo)), "e.g. p99<50ms,errors<1%")
SWEEP_FIELDS = (VARY, RAMP, REPEAT, COOL_DOWN, SLO)


# How the run is judged, as `--threshold`, `--max-errors`, `--baseline` and
# `--fail-on-regression` judge it.
THRESHOLDS = TextField("thresholds", "thresholds", clauses(check_threshold), "p99<50ms; rps>10000")
MAX_ERRORS = TextField("max_errors", "max errors", optional(parse_percent), "1% (over: invalid)")
BASELINE = TextField("baseline", "baseline", optional(str), "NAME@latest, an id, ID@POINT")
FAIL_ON_REGRESSION = TextField(
    "fail_on_regression",
    "fail if worse",
    optional(parse_tolerance_pct),
    "than the baseline by e.g. 5%",
)
JUDGING_FIELDS = (THRESHOLDS, MAX_ERRORS, BASELINE, FAIL_ON_REGRESSION)
TEXT_FIELDS: tuple[TextField[object], ...] = (
    URLS,
    CONNECTIONS,
    THREADS,
    STREAMS,
    RATE,
    DURATION,
    REQUESTS,
    WARM_UP,
    STAGES,
    HEADERS,
    METHOD,
    BODY,
    CONTENT_TYPE,
    SERVER_PID,
    SERVER_NAME,
    SERVER_HOST,
    GENERATORS,
    NAME,
    TAGS,
    *JUDGING_FIELDS,
    *SWEEP_FIELDS,
)


def protocol_of(spec: RunSpec) -> str:
    if spec.h1:
        return "h1"
    return "h2" if spec.urls and spec.tls else "h2c"


def protocol_of_urls(urls: str) -> str | None:
    """h2 when the first URL is https://, h2c when it is http://; None for anything else."""
    words = urls.split()
    scheme = urlsplit(words[0]).scheme if words else ""
    if scheme not in ("http", "https"):
        return None
    return "h2" if scheme == "https" else "h2c"


def with_scheme(urls: str, scheme: str) -> str:
    """`urls` with every http:// or https:// URL turned to `scheme`; other words as typed."""
    return " ".join(url_with_scheme(word, scheme) for word in urls.split())
