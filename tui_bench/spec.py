"""What to run: one load-generator configuration, independent of the tool that runs it."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any
from urllib.parse import urlsplit

from tui_bench.errors import UsageError
from tui_bench.printable import is_control
from tui_bench.redaction import check_no_redacted, redact_text

TOOLS = ("h2load", "wrk", "ab")
COMPRESSIONS = ("gzip", "br", "zstd")
LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1")
# h2load refuses an --rps whose interval is under a microsecond.
MAX_PER_CLIENT_RATE = 1_000_000
# h2load reads --rps as a decimal; six places are finer than its timer can keep.
RATE_DECIMALS = 6
# One header at most this long (name, colon and value): servers refuse far shorter ones
# (nginx 8 KiB, Apache 8,190 bytes by default), and Linux will not pass an argv word past
# 128 KiB to a tool at all.
MAX_HEADER_BYTES = 64 * 1024


def is_loopback(url: str) -> bool:
    host = urlsplit(url).hostname or ""
    return host in LOOPBACK_HOSTS or host.startswith("127.")


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
    def planned_s(self) -> float | None:
        """How long a duration run lasts, warm-up included; None for a request count."""
        if self.duration_s is None:
            return None
        return self.duration_s + (self.warm_up_s or 0)

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
        if self.compress is None:
            return self.headers
        return (*self.headers, f"Accept-Encoding: {self.compress}")

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RunSpec:
        known = {k: v for k, v in data.items() if k in cls.__dataclass_fields__}
        for key in ("urls", "headers"):
            known[key] = tuple(known.get(key, ()))
        return cls(**known)

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
        if self.connections < 1 or self.threads < 1:
            raise UsageError("-c and -t must be at least 1")
        if self.threads > self.connections:
            raise UsageError(f"-t {self.threads} is more than -c {self.connections}")
        if self.requests is not None and self.duration_s is not None:
            raise UsageError("give either -n (request count) or -d (duration), not both")
        if self.requests is not None and self.requests < 1:
            raise UsageError("-n must be at least 1")
        if self.duration_s is not None and self.duration_s <= 0:
            raise UsageError("-d must be more than 0 seconds")
        if self.warm_up_s is not None and self.warm_up_s < 0:
            raise UsageError("--warm-up must not be negative")
        if self.streams is not None and self.streams < 1:
            raise UsageError("-m must be at least 1")
        if self.compress is not None and self.compress not in COMPRESSIONS:
            raise UsageError(f"--compress takes one of {', '.join(COMPRESSIONS)}")
        if self.tool == "wrk" and self.duration_s is None:
            raise UsageError("wrk runs for a duration: give -d SECONDS")
        if self.tool != "h2load" and (self.streams or self.h1 or self.warm_up_s):
            raise UsageError(f"-m, --h1 and --warm-up are h2load options; {self.tool} has none")
        self._validate_rate()
        return self

    def _validate_headers(self) -> None:
        for header in self.headers:
            name, sep, _ = header.partition(":")
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
        if not per_client > 0:
            raise UsageError(
                f"--rate {self.rate:g} over -c {self.connections} is below "
                f"{10**-RATE_DECIMALS:g} req/s per connection"
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
    if parts.scheme not in ("http", "https"):
        raise UsageError(f"bad URL {url!r}: expected http:// or https://")
    if not parts.hostname:
        raise UsageError(f"bad URL {url!r}: no host")
    try:
        parts.port  # noqa: B018 - raises on a bad port
    except ValueError:
        raise UsageError(f"bad URL {url!r}: bad port") from None


def with_scheme(url: str, scheme: str) -> str:
    """An http:// or https:// `url` turned to `scheme`; anything else as it is."""
    if urlsplit(url).scheme in ("http", "https"):
        return f"{scheme}{url[url.index(':') :]}"
    return url
