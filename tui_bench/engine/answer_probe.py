"""One request of the run's own, once it has ended, for what wrk and ab cannot tell: whether
the URL redirects. wrk counts a 3xx as a good answer without a word, ab counts it among its
"Non-2xx responses" with the 4xx and 5xx; neither follows it, so a run of a URL that
redirects measured the redirect, not the page. Asked only with a method that changes
nothing (GET, HEAD), after the load, so it is no request of the run's.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import ssl
from dataclasses import dataclass, replace
from urllib.parse import urlsplit

from tui_bench.engine.reach import UNVERIFIED
from tui_bench.records.verdict import REDIRECTED
from tui_bench.records.warning import Warning
from tui_bench.result import NON_2XX, Result
from tui_bench.runners.invocation import credentials_as_header
from tui_bench.spec import RunSpec, split_header
from tui_bench.status_codes import named

TIMEOUT_S = 2.0
# An answer's head past this is not one to read a status from.
HEAD_LIMIT = 16 * 1024
SAFE_METHODS = ("GET", "HEAD")
_STATUS_LINE = re.compile(rb"HTTP/1\.[01] (\d{3})\b")
_LOCATION = re.compile(rb"^location:[ \t]*(.*?)[ \t]*\r?$", re.I | re.M)


@dataclass(frozen=True)
class Answer:
    status: int
    location: str | None = None

    @property
    def redirects(self) -> bool:
        return 300 <= self.status < 400


def asked(spec: RunSpec) -> bool:
    """Whether a run of `spec` is to be asked after: a tool that cannot tell a redirect,
    with a method that changes nothing."""
    return spec.tool in ("wrk", "ab") and spec.request_method in SAFE_METHODS


async def first_answer(spec: RunSpec, timeout_s: float = TIMEOUT_S) -> Answer | None:
    """The status (and Location) of one request as the run sent them, to its first URL;
    None when it cannot be asked or does not answer in time. `spec` as the tools are given
    it (credentials as a header)."""
    parts = urlsplit(spec.urls[0])
    tls = parts.scheme == "https"
    try:
        reader, writer = await asyncio.wait_for(
            asyncio.open_connection(
                parts.hostname or "",
                parts.port or (443 if tls else 80),
                ssl=UNVERIFIED if tls else None,
            ),
            timeout_s,
        )
    except (OSError, ssl.SSLError, TimeoutError):
        return None
    try:
        writer.write(_request(spec))
        await asyncio.wait_for(writer.drain(), timeout_s)
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), timeout_s)
    except asyncio.LimitOverrunError:
        return None
    except asyncio.IncompleteReadError as exc:
        head = exc.partial
    except (OSError, ssl.SSLError, TimeoutError):
        return None
    finally:
        writer.close()
        with contextlib.suppress(OSError, ssl.SSLError, TimeoutError):
            await asyncio.wait_for(writer.wait_closed(), timeout_s)
    return read_head(head[:HEAD_LIMIT])


def read_head(head: bytes) -> Answer | None:
    """An HTTP/1.x answer's status and Location from its head; None when it is not one."""
    match = _STATUS_LINE.match(head)
    if match is None:
        return None
    location = _LOCATION.search(head)
    where = location[1].decode("latin-1") if location else None
    return Answer(int(match[1]), where or None)


def _request(spec: RunSpec) -> bytes:
    parts = urlsplit(spec.urls[0])
    target = parts.path or "/"
    if parts.query:
        target += "?" + parts.query
    host = parts.netloc.rpartition("@")[2]
    lines = [f"{spec.request_method} {target} HTTP/1.1"]
    given: list[str] = []
    for header in spec.headers:
        name, _, value = split_header(header)
        key = name.strip().lower()
        if key in (":authority", "host"):
            host = value.strip()
        elif not key.startswith(":") and key != "connection":
            given.append(f"{name.strip()}: {value.strip()}")
    lines += [f"Host: {host}", *given, "Connection: close", "", ""]
    return "\r\n".join(lines).encode("latin-1", "replace")


def redirected(spec: RunSpec, answer: Answer, result: Result) -> Warning:
    """What the run measured, said of a URL that redirects."""
    where = f" to {answer.location}" if answer.location else ""
    said = f"{spec.request_method} {urlsplit(spec.urls[0]).path or '/'}"
    if spec.tool == "ab":
        counted = result.errors.get(NON_2XX) or 0
        how = f"ab's {counted:,} non-2xx answers are counted as redirects (3xx, good)"
    else:
        how = "wrk counts redirects as good answers"
    return Warning(
        REDIRECTED,
        f"{said} is answered {named(str(answer.status))}{where} after the run: {how}, and "
        "no tool follows them: the run measured the redirect, not the page; benchmark "
        f"{answer.location or 'where it points'}",
    )


def with_redirects(result: Result) -> Result:
    """ab's result where its non-2xx answers are redirects: good answers of class 3xx, the
    rest of its good ones 2xx."""
    redirects = result.errors.get(NON_2XX)
    if not redirects:
        return result
    errors = {kind: n for kind, n in result.errors.items() if kind != NON_2XX}
    ok = result.requests.succeeded
    if ok is None:
        return result.with_(errors=errors, status={"3xx": redirects})
    requests = replace(result.requests, succeeded=ok + redirects)
    return result.with_(errors=errors, status={"2xx": ok, "3xx": redirects}, requests=requests)


async def redirects_of(
    spec: RunSpec, result: Result | None
) -> tuple[Result | None, Warning | None]:
    """`result` as it stands once the URL was asked whether it redirects, and what that
    says; unchanged where the tool tells redirects itself (h2load) or nothing was counted
    that could be one."""
    if result is None or not asked(spec):
        return result, None
    could_be = result.errors.get(NON_2XX) if spec.tool == "ab" else result.requests.succeeded
    if not could_be:
        return result, None
    answer = await first_answer(credentials_as_header(spec))
    if answer is None or not answer.redirects:
        return result, None
    warning = redirected(spec, answer, result)
    return (with_redirects(result) if spec.tool == "ab" else result), warning
