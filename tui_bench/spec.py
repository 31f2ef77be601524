"""What to run: one load-generator configuration, independent of the tool that runs it."""

from __future__ import annotations

import math
import re
from dataclasses import asdict, dataclass, field, replace
from typing import Any
from urllib.parse import quote, urlsplit, urlunsplit

from tui_bench.body import DEFAULT_CONTENT_TYPE as BODY_TYPE
from tui_bench.body import MAX_BODY_BYTES, Body, content_type_for, too_large
from tui_bench.errors import UsageError
from tui_bench.printable import is_control
from tui_bench.redaction import check_no_redacted, redact_text
from tui_bench.stages import Stage, stages_text, total_s
from tui_bench.typed_values import MAX_COUNT, format_duration, parse_positive_int

TOOLS = ("h2load", "wrk", "ab")
COMPRESSIONS = ("gzip", "br", "zstd")
# As the run form names them: h1 is --h1 (the URL's scheme kept), h2c HTTP/2 over http://,
# h2 HTTP/2 over TLS (https://).
PROTOCOLS = ("h1", "h2c", "h2")
LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1")
# h2load refuses an --rps whose interval is under a microsecond.
MAX_PER_CLIENT_RATE = 1_000_000
# h2load reads --rps as a decimal; six places are finer than its timer can keep.
RATE_DECIMALS = 6
# wrk's -d and ab's -t take whole seconds: wrk refuses `2.5s` and `2500ms`, ab reads
# `-t 2.5` as 2. Neither can run a part of a second.
WHOLE_SECOND_TOOLS = ("wrk", "ab")
# The longest run taken: a day of per-second rows is what a session and a screen hold well;
# what a typo like `-d 99999999` asks for (three years) is refused before anything runs.
MAX_DURATION_S = 24 * 3600.0
# Each connection is an open file and a local port of the generator, each thread a core's
# worth of work: past these no machine (nor a handful of generators) can run them.
MAX_CONNECTIONS = 1_000_000
MAX_THREADS = 4_096
# ab refuses more (its MAX_CONCURRENCY).
MAX_AB_CONNECTIONS = 20_000
# One header at most this long (name, colon and value): servers refuse far shorter ones
# (nginx 8 KiB, Apache 8,190 bytes by default), and Linux will not pass an argv word past
# 128 KiB to a tool at all.
MAX_HEADER_BYTES = 64 * 1024
# ab sends GET, POST (-p FILE) and PUT (-u FILE): no other method, and a body only with these.
AB_METHODS = ("GET", "POST", "PUT")
AB_BODY_METHODS = ("POST", "PUT")
# A method is an HTTP token (RFC 9110): the tools put it in the request line as it is.
_METHOD = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]{1,32}")
CONTENT_TYPE = "content-type"


def read_connections(text: str) -> int:
    """-c as typed: the command line and the run form read it so."""
    return parse_positive_int(text, MAX_CONNECTIONS)


def read_threads(text: str) -> int:
    return parse_positive_int(text, MAX_THREADS)


def read_method(text: str) -> str:
    """`-X` as typed: an HTTP method, as the tools put it in the request line."""
    if not _METHOD.fullmatch(text):
        raise UsageError(
            f"bad method {text[:40]!r}: expected one word such as GET, POST, PUT or DELETE"
        )
    return text


def is_loopback(url: str) -> bool:
    host = urlsplit(url).hostname or ""
    return host in LOOPBACK_HOSTS or host.startswith("127.")


# What h2load lets `-H` replace of the request it builds (`:authority: [::1]:8080` is how an
# IPv6 host reaches the server bracketed); wrk and ab send HTTP/1.x, which has none.
PSEUDO_HEADERS = (":authority", ":path", ":scheme")


def split_header(header: str) -> tuple[str, str, str]:
    """`Name: value` as (name, ':', value), a pseudo-header's leading colon in its name."""
    lead = ":" if header.startswith(":") else ""
    name, sep, value = header[len(lead) :].partition(":")
    return lead + name, sep, value


@dataclass(frozen=True)
class RunSpec:
    urls: tuple[str, ...]
    tool: str = "h2load"
    connections: int = 10
    threads: int = 1
    requests: int | None = None
    duration_s: float | None = None
    warm_up_s: float | None = None
    streams: int | None = None
    h1: bool = False
    keepalive: bool = False
    headers: tuple[str, ...] = ()
    compress: str | None = None
    # Requests per second in total (open loop: sent on a schedule, whatever comes back);
    # None for a closed loop, where each connection sends when its last answer came.
    rate: float | None = None
    # The request: its method (None: POST with a body, GET without, as every tool does), the
    # body's file as given (`@-`: standard input) and its content type (None: from the file's
    # name, or the -H Content-Type). A session keeps the body's size and digest, never its
    # bytes: `body` is only what was read for this run.
    method: str | None = None
    body_file: str | None = None
    content_type: str | None = None
    body_size: int | None = None
    body_sha256: str | None = None
    body: bytes | None = field(default=None, repr=False, compare=False)
    # `--stages`: the rates the run goes through (stages.py); its -d is their total.
    stages: tuple[Stage, ...] = ()

    @property
    def request_method(self) -> str:
        if self.method:
            return self.method
        return "POST" if self.body_file is not None else "GET"

    @property
    def sent_content_type(self) -> str | None:
        """What the Content-Type header says: --content-type, the -H one, else the body
        file's (application/octet-stream when its name does not tell); None without a body."""
        if self.content_type:
            return self.content_type
        given = self.header_value(CONTENT_TYPE)
        if given is not None or self.body_file is None:
            return given
        return content_type_for(self.body_file) or BODY_TYPE

    def header_value(self, name: str) -> str | None:
        for header in self.headers:
            key, _, value = split_header(header)
            if key.strip().lower() == name:
                return value.strip()
        return None

    def sent_body(self) -> str:
        """`POST with a 1,234-byte application/json body`: what each request carried."""
        if self.body_size is None:
            return self.request_method
        return f"{self.request_method} with a {self.body_size:,}-byte {self.sent_content_type} body"

    @property
    def per_client_rate(self) -> float | None:
        """What each connection is asked to send (h2load's `--rps` is per client), rounded
        as h2load is given it: the rate actually asked for is this times -c."""
        if self.rate is None:
            return None
        return round(self.rate / self.connections, RATE_DECIMALS)

    @property
    def count_mode(self) -> bool:
        return self.duration_s is None

    @property
    def run_duration_s(self) -> float | None:
        """What the tool runs and measures of -d: the next whole second up for a tool that
        takes whole seconds (never less load than asked), -d itself otherwise."""
        if self.duration_s is None or self.tool not in WHOLE_SECOND_TOOLS:
            return self.duration_s
        return float(max(1, math.ceil(self.duration_s)))

    @property
    def planned_s(self) -> float | None:
        """How long a duration run lasts, warm-up included; None for a request count."""
        if self.run_duration_s is None:
            return None
        return self.run_duration_s + (self.warm_up_s or 0)

    @property
    def tls(self) -> bool:
        return urlsplit(self.urls[0]).scheme == "https"

    @property
    def expected_protocol(self) -> str:
        """What the run should negotiate; the parsed result says what it did."""
        if self.tool == "ab":
            return "http/1.0"  # ab sends HTTP/1.0 requests, with or without -k
        if self.tool != "h2load" or self.h1:
            return "http/1.1"
        return "h2" if self.tls else "h2c"

    def all_headers(self) -> tuple[str, ...]:
        headers = self.headers
        if self.body_file is not None and self.header_value(CONTENT_TYPE) is None:
            headers = (*headers, f"Content-Type: {self.sent_content_type}")
        if self.compress is None:
            return headers
        return (*headers, f"Accept-Encoding: {self.compress}")

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        # The bytes may hold secrets and are large: what was sent is told by size and digest.
        del data["body"]
        data["method"] = self.request_method
        data["content_type"] = self.sent_content_type
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RunSpec:
        known = {k: v for k, v in data.items() if k in cls.__dataclass_fields__}
        for key in ("urls", "headers"):
            known[key] = tuple(known.get(key, ()))
        known["stages"] = tuple(Stage(**stage) for stage in known.get("stages") or ())
        spec = cls(**known)
        # Kept as sent (to_dict); read back as asked, so that the body's own type and the
        # tool's own method stay what they would be for another body.
        asked = replace(spec, method=None, content_type=None)
        if spec.method and asked.request_method == spec.method:
            spec = replace(spec, method=None)
        if spec.content_type and asked.sent_content_type == spec.content_type:
            spec = replace(spec, content_type=None)
        return spec

    def with_body(self, body: Body | None) -> RunSpec:
        """This spec sending `body` (None: none)."""
        if body is None:
            return replace(self, body_file=None, body=None, body_size=None, body_sha256=None)
        return replace(
            self,
            body_file=body.source,
            body=body.data,
            body_size=body.size,
            body_sha256=body.digest,
        )

    @property
    def asked_rate(self) -> float | None:
        """The total rate h2load is asked for: the per-connection rate it is given, times -c."""
        per_client = self.per_client_rate
        return None if per_client is None else per_client * self.connections

    def validate(self) -> RunSpec:
        """Raise UsageError with a one-line reason if this spec cannot be run."""
        if self.tool not in TOOLS:
            raise UsageError(f"unknown tool {self.tool!r}: choose one of {', '.join(TOOLS)}")
        if not self.urls:
            raise UsageError("no URL given")
        self._validate_headers()
        check_no_redacted([*self.headers, *self.urls])
        for url in self.urls:
            validate_url(url)
        if self.tool != "h2load" and len(self.urls) > 1:
            raise UsageError(f"{self.tool} takes one URL; only h2load takes several")
        origins = dict.fromkeys(_origin(url) for url in self.urls)
        if len(origins) > 1:
            first, other = list(origins)[:2]
            raise UsageError(
                f"h2load sends every request to the first URL's {first}, never to {other}: "
                "give URLs of one scheme, host and port (a run for each)"
            )
        if self.connections < 1 or self.threads < 1:
            raise UsageError("-c and -t must be at least 1")
        if self.threads > self.connections:
            raise UsageError(f"-t {self.threads} is more than -c {self.connections}")
        self._validate_limits()
        if self.requests is not None and self.duration_s is not None:
            raise UsageError("give either -n (request count) or -d (duration), not both")
        if self.requests is not None and self.requests < 1:
            raise UsageError("-n must be at least 1")
        if self.duration_s is not None and self.duration_s <= 0:
            raise UsageError("-d must be more than 0 seconds")
        for flag, seconds in (("-d", self.duration_s), ("--warm-up", self.warm_up_s)):
            if seconds is not None and seconds > MAX_DURATION_S:
                raise UsageError(
                    f"{flag} {format_duration(seconds)} is longer than a day, the longest run taken"
                )
        if self.warm_up_s is not None and self.warm_up_s < 0:
            raise UsageError("--warm-up must not be negative")
        if self.streams is not None and self.streams < 1:
            raise UsageError("-m must be at least 1")
        if self.compress is not None and self.compress not in COMPRESSIONS:
            raise UsageError(f"--compress takes one of {', '.join(COMPRESSIONS)}")
        if self.tool == "wrk" and self.duration_s is None:
            raise UsageError("wrk runs for a duration: give -d SECONDS")
        # wrk speaks HTTP/1.1 alone: --h1 asks for what it does anyway. ab sends HTTP/1.0.
        h1_refused = self.h1 and self.tool == "ab"
        if self.tool != "h2load" and (self.streams or h1_refused or self.warm_up_s):
            raise UsageError(f"-m, --h1 and --warm-up are h2load options; {self.tool} has none")
        if self.requests is not None and self.requests < self.connections:
            # h2load and ab both refuse it: every connection needs a request of its own.
            raise UsageError(
                f"-n {self.requests} is fewer than -c {self.connections}: every connection "
                "needs at least one request"
            )
        self._validate_stages()
        self._validate_rate()
        self._validate_request()
        return self

    def _validate_stages(self) -> None:
        if not self.stages:
            return
        if self.tool != "h2load":
            raise UsageError(
                f"--stages needs h2load: {self.tool} cannot change its rate while it runs"
            )
        if self.duration_s != total_s(self.stages):
            raise UsageError(
                f"--stages {stages_text(self.stages)} sets the run's length: drop -n and -d"
            )
        if self.warm_up_s:
            raise UsageError("--stages and --warm-up: give the warm-up as a first stage")
        for stage in self.stages:
            if stage.rate < self.connections:
                raise UsageError(
                    f"stage {stage.rate:g}:{format_duration(stage.duration_s)} asks less than "
                    f"1 req/s of each of -c {self.connections} connections: lower -c"
                )

    def _validate_request(self) -> None:
        method = read_method(self.request_method)
        if self.content_type is not None:
            if self.body_file is None:
                raise UsageError("--content-type needs --body: it names the body's type")
            if self.header_value(CONTENT_TYPE) is not None:
                raise UsageError("give the content type once: --content-type or -H, not both")
            if any(is_control(c) for c in self.content_type):
                raise UsageError("bad --content-type: it holds a control character")
        if self.body_file is not None:
            if self.body is None:
                raise UsageError(f"the body of --body {self.body_file} is not kept: give it again")
            if len(self.body) > MAX_BODY_BYTES:
                raise too_large(self.body_file, len(self.body))
        if self.tool == "ab":
            if method not in AB_METHODS:
                raise UsageError(
                    f"ab sends only GET, POST and PUT (-p, -u): {method} needs h2load or wrk"
                )
            if self.body_file is not None and method not in AB_BODY_METHODS:
                raise UsageError(f"ab sends a body only with POST or PUT, not with {method}")

    def _validate_limits(self) -> None:
        most = MAX_AB_CONNECTIONS if self.tool == "ab" else MAX_CONNECTIONS
        limits = [
            ("-c", self.connections, most),
            ("-t", self.threads, MAX_THREADS),
            ("-n", self.requests, MAX_COUNT),
            ("-m", self.streams, MAX_COUNT),
        ]
        for flag, value, limit in limits:
            if value is not None and value > limit:
                tool = f" for {self.tool}" if flag == "-c" and self.tool == "ab" else ""
                raise UsageError(f"{flag} {value:,} is more than {limit:,}{tool}")

    def _validate_headers(self) -> None:
        for header in self.headers:
            name, sep, _ = split_header(header)
            size = len(header.encode(errors="surrogateescape"))
            if size > MAX_HEADER_BYTES:
                raise UsageError(
                    f"header {name[:40]!r} is {size:,} bytes: at most "
                    f"{MAX_HEADER_BYTES:,} are sent (servers refuse far less: nginx 8 KiB)"
                )
            # A tab may stand in a value; no other control character belongs in a header.
            if not sep or not name.strip() or any(c != "\t" and is_control(c) for c in header):
                raise UsageError(
                    f"bad header {redact_text(header)!r}: expected 'Name: value' "
                    "without control characters"
                )
            pseudo = name.strip().lower()
            if pseudo == ":method":
                raise UsageError("the method is -X METHOD, not a :method header")
            if pseudo.startswith(":") and pseudo not in PSEUDO_HEADERS:
                raise UsageError(
                    f"unknown pseudo-header {pseudo}: h2load takes {', '.join(PSEUDO_HEADERS)}"
                )
            if pseudo.startswith(":") and self.tool != "h2load":
                raise UsageError(
                    f"{pseudo} is a pseudo-header only h2load sends: "
                    f"for {self.tool} give the HTTP/1.1 header ('Host: …' for :authority)"
                )

    def _validate_rate(self) -> None:
        if self.rate is None:
            return
        if self.tool != "h2load":
            raise UsageError(
                f"--rate needs h2load (its --rps sends on a schedule); {self.tool} only "
                "sends when an answer came back"
            )
        if not self.rate > 0:
            raise UsageError("--rate must be more than 0 requests per second")
        per_client = self.per_client_rate or 0.0
        if per_client < 1:
            # h2load sends one request as each connection opens, then per_client a second:
            # `--rate 1 -c 10` sent 10 at once, then silence, and achieved 2 req/s.
            raise UsageError(
                f"--rate {self.rate:g} over -c {self.connections} is {per_client:.3g} req/s per "
                f"connection, and each sends its first request at once: give --rate at least "
                f"-c ({self.connections:,}), or fewer connections"
            )
        if per_client > MAX_PER_CLIENT_RATE:
            raise UsageError(
                f"--rate {self.rate:g} over -c {self.connections} is {per_client:g} req/s per "
                f"connection: h2load takes at most {MAX_PER_CLIENT_RATE:,}; raise -c"
            )


def validate_url(url: str) -> None:
    """Reject what no load generator can use, before any tool is started."""
    parts = urlsplit(url)
    # What is wrong with a URL is said without its password.
    url = redact_text(url)
    if any(c.isspace() or not c.isprintable() for c in url):
        # A tool would cut the URL there or send the rest as part of the request line.
        raise UsageError(f"bad URL {url!r}: it holds a space or a control character")
    if parts.scheme not in ("http", "https"):
        raise UsageError(f"bad URL {url!r}: expected http:// or https://")
    if not parts.hostname:
        raise UsageError(f"bad URL {url!r}: no host")
    try:
        port = parts.port
    except ValueError:
        raise UsageError(f"bad URL {url!r}: bad port") from None
    if port == 0:
        raise UsageError(f"bad URL {url!r}: port 0 is no port to connect to")
    if not url.isascii():
        # The tools send the bytes as they are, which servers refuse or read as other text.
        raise UsageError(f"bad URL {url!r}: not ASCII; give it as {percent_encoded(url)}")


def _origin(url: str) -> str:
    """`http://127.0.0.1:8080`: where a URL's requests go (the port its scheme's default)."""
    parts = urlsplit(url)
    port = parts.port or (443 if parts.scheme == "https" else 80)
    host = parts.hostname or ""
    return f"{parts.scheme}://{f'[{host}]' if ':' in host else host}:{port}"


def percent_encoded(url: str) -> str:
    """`url` with what is not ASCII percent-encoded as UTF-8, as a browser sends it; an
    international host name in its IDNA form."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    if not host.isascii():
        netloc = parts.netloc.replace(host, host.encode("idna").decode("ascii"))
        parts = parts._replace(netloc=netloc)
    keep = "/?#[]@!$&'()*+,;=:%~"
    return urlunsplit(
        parts._replace(
            path=quote(parts.path, safe=keep),
            query=quote(parts.query, safe=keep),
            fragment=quote(parts.fragment, safe=keep),
        )
    )


def with_scheme(url: str, scheme: str) -> str:
    """An http:// or https:// `url` turned to `scheme`; anything else as it is."""
    if urlsplit(url).scheme in ("http", "https"):
        return f"{scheme}{url[url.index(':') :]}"
    return url
