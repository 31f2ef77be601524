"""Whether the target answers at all, and in the protocol asked for, told within a second.

h2load in duration mode waits out `-d` against a closed port and then reports zero
requests; a connection of our own, before the load and beside the tool's, says why at once.
Against a server that speaks only HTTP/1.1 (most nginx configs) h2load's default h2c fails
every request and says nothing of why: one HTTP/2 preface of our own, before the load, finds
it out. The other way (h2load --h1, wrk or ab against a port of h2c only) every request fails
as a parse error: one HTTP/1.1 request of our own finds that out too.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import ssl
from collections.abc import Iterable
from urllib.parse import SplitResult, urlsplit

from tui_bench.spec import RunSpec

TIMEOUT_S = 2.0
# The HTTP/2 client connection preface and an empty SETTINGS frame (RFC 9113 3.4): what
# h2load sends first on an http:// URL. An HTTP/2 server answers with a SETTINGS frame, an
# HTTP/1.1 one with a status line (nginx: 400 Bad Request).
H2C_PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + bytes([0, 0, 0, 4, 0, 0, 0, 0, 0])
HTTP1_STATUS = b"HTTP/1."
# An HTTP/2 frame's header (RFC 9113 4.1): 3 bytes of length, its type, flags, stream id.
FRAME_HEADER = 9
SETTINGS, GOAWAY = 0x4, 0x7
# OpenSSL's reason when what came back is not a TLS record: most often plain HTTP.
PLAIN_ANSWER = "WRONG_VERSION_NUMBER"


def _unverified() -> ssl.SSLContext:
    """As the load generators do: a benchmark target's certificate is rarely trusted. Made
    once: the target is asked twice a second for a whole run, and a default context reads
    the system's certificates from disk each time it is made."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    return context


UNVERIFIED = _unverified()


async def unreachable(url: str, timeout_s: float = TIMEOUT_S) -> str | None:
    """Why nothing can connect to `url` (refused, no such host, failed TLS handshake), in
    one line; None when it connects, or when it is only slow (the tool will tell)."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    tls = parts.scheme == "https"
    port = parts.port or (443 if tls else 80)
    where = f"{host}:{port}"
    context = UNVERIFIED if tls else None
    try:
        _, writer = await asyncio.wait_for(
            asyncio.open_connection(host, port, ssl=context), timeout_s
        )
    except TimeoutError:
        return None
    except socket.gaierror as exc:
        return f"cannot resolve {host}: {exc.strerror}"
    except ConnectionRefusedError:
        return f"nothing listens on {where} (connection refused)"
    except ssl.SSLError as exc:
        said = f"TLS handshake with {where} failed: {exc.reason or exc}"
        if exc.reason == PLAIN_ANSWER:
            said += (
                f" (it answers plain HTTP, not TLS: try {parts._replace(scheme='http').geturl()})"
            )
        return said
    except OSError as exc:
        return f"cannot connect to {where}: {exc.strerror or exc}"
    writer.close()
    with contextlib.suppress(OSError, ssl.SSLError, TimeoutError):
        await asyncio.wait_for(writer.wait_closed(), timeout_s)
    return None


async def target_refused(specs: Iterable[RunSpec], timeout_s: float = TIMEOUT_S) -> str | None:
    """Why the runs of `specs` cannot load their target, in one line with what to do: the
    first of their URLs that cannot be reached, or whose server does not speak the protocol
    the run would (h2c to HTTP/1.1 only, HTTP/1.x to h2c only). None when each can, or
    cannot be asked in time (slow: the run says why)."""
    runs = dict.fromkeys(
        (url, spec.expected_protocol, spec.tool) for spec in specs for url in spec.urls
    )
    for url in dict.fromkeys(url for url, _, _ in runs):
        message = await unreachable(url, timeout_s)
        if message is not None:
            return message
    for url, protocol, tool in runs:
        message = await _protocol_refused(url, protocol, tool, timeout_s)
        if message is not None:
            return message
    return None


async def _protocol_refused(url: str, protocol: str, tool: str, timeout_s: float) -> str | None:
    parts = urlsplit(url)
    if parts.scheme != "http":
        return None  # over TLS the protocol is agreed in the handshake (ALPN)
    where = f"{parts.hostname}:{parts.port or 80}"
    if protocol == "h2c":
        reply = await _first_bytes(url, H2C_PREFACE, timeout_s)
        if reply is not None and reply.startswith(HTTP1_STATUS):
            return (
                f"{where} speaks HTTP/1.1 only, not h2c (h2load's "
                "default for http://): run with --h1"
            )
        return None
    reply = await _first_bytes(url, _server_request(parts), timeout_s)
    # Refused on proof only: an HTTP/2 frame where the tool waits for a status line. A
    # server that closes on `OPTIONS *`, or answers it oddly, may still serve the run.
    if reply is None or not _is_http2_frame(reply):
        return None
    asked = protocol.upper()
    if tool == "h2load":
        return (
            f"{where} speaks h2c only, not {asked}: run without --h1 (h2c is h2load's "
            "default for http://)"
        )
    return (
        f"{where} speaks h2c only, not {asked}, the only protocol {tool} speaks: run with "
        "--tool h2load"
    )


def _is_http2_frame(reply: bytes) -> bool:
    """An h2c server answers bytes it cannot read as a preface with its SETTINGS, a GOAWAY
    or both (nginx: both)."""
    return len(reply) >= FRAME_HEADER and reply[3] in (SETTINGS, GOAWAY)


def _server_request(parts: SplitResult) -> bytes:
    """`OPTIONS *`: a question to the server itself (RFC 9110, 9.3.7), not to the URL's
    resource, so the probe is no request of the run's (a server counting its resource's
    requests, or a test, sees none) and changes nothing. Any HTTP/1.x server answers it
    with a status line, if only 400 or 501."""
    host = parts.netloc.rsplit("@", 1)[-1]  # no user:password of the URL's
    return f"OPTIONS * HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n".encode(
        "ascii", "replace"
    )


async def _first_bytes(url: str, sent: bytes, timeout_s: float) -> bytes | None:
    """The first bytes of the answer to `sent` (fewer, or none, when the server closes
    first); None when it cannot be asked or does not answer in time."""
    parts = urlsplit(url)
    try:
        reader, writer = await asyncio.wait_for(
            asyncio.open_connection(parts.hostname or "", parts.port or 80), timeout_s
        )
    except (OSError, TimeoutError):
        return None
    try:
        writer.write(sent)
        await asyncio.wait_for(writer.drain(), timeout_s)
        return await asyncio.wait_for(reader.readexactly(FRAME_HEADER), timeout_s)
    except asyncio.IncompleteReadError as exc:
        return exc.partial
    except ConnectionResetError:
        return b""
    except (OSError, TimeoutError):
        return None
    finally:
        writer.close()
        with contextlib.suppress(OSError, TimeoutError):
            await asyncio.wait_for(writer.wait_closed(), timeout_s)
