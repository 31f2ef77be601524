"""Whether the target answers at all, and in the protocol asked for, told within a second.

h2load in duration mode waits out `-d` against a closed port and then reports zero
requests; a connection of our own, made beside the tool's, says why at once. Against a server
that speaks only HTTP/1.1 (most nginx configs) h2load's default h2c fails every request and
says nothing of why: one HTTP/2 preface of our own, before the load, finds it out.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import ssl
from collections.abc import Iterable
from urllib.parse import urlsplit

from tui_bench.spec import RunSpec

TIMEOUT_S = 2.0
# The HTTP/2 client connection preface and an empty SETTINGS frame (RFC 9113 3.4): what
# h2load sends first on an http:// URL. An HTTP/2 server answers with a SETTINGS frame, an
# HTTP/1.1 one with a status line (nginx: 400 Bad Request).
H2C_PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + bytes([0, 0, 0, 4, 0, 0, 0, 0, 0])


def _unverified() -> ssl.SSLContext:
    """As the load generators do: a benchmark target's certificate is rarely trusted. Made
    once: the target is asked twice a second for a whole run, and a default context reads
    the system's certificates from disk each time it is made."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    return context


_UNVERIFIED = _unverified()


async def unreachable(url: str, timeout_s: float = TIMEOUT_S) -> str | None:
    """Why nothing can connect to `url` (refused, no such host, failed TLS handshake), in
    one line; None when it connects, or when it is only slow (the tool will tell)."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    tls = parts.scheme == "https"
    port = parts.port or (443 if tls else 80)
    where = f"{host}:{port}"
    context = _UNVERIFIED if tls else None
    try:
        _, writer = await asyncio.wait_for(
            asyncio.open_connection(host, port, ssl=context), timeout_s
        )
    except TimeoutError:
        return None
    except socket.gaierror as exc:
        return f"cannot resolve {host}: {exc.strerror}"
    except ConnectionRefusedError:
        return f"connection refused by {where}: nothing listens there"
    except ssl.SSLError as exc:
        return f"TLS handshake with {where} failed: {exc.reason or exc}"
    except OSError as exc:
        return f"cannot connect to {where}: {exc.strerror or exc}"
    writer.close()
    with contextlib.suppress(OSError, ssl.SSLError, TimeoutError):
        await asyncio.wait_for(writer.wait_closed(), timeout_s)
    return None


async def h2c_refused(specs: Iterable[RunSpec], timeout_s: float = TIMEOUT_S) -> str | None:
    """Why the runs of `specs` that would speak h2c cannot: the first of their URLs whose
    server answers HTTP/1.1 only, and what to do, in one line. None when each speaks HTTP/2,
    or cannot be asked (unreachable, slow: the run says why)."""
    urls = dict.fromkeys(
        url for spec in specs if spec.expected_protocol == "h2c" for url in spec.urls
    )
    for url in urls:
        if await _speaks_http1_only(url, timeout_s):
            parts = urlsplit(url)
            where = f"{parts.hostname}:{parts.port or 80}"
            return (
                f"{where} speaks HTTP/1.1 only, not h2c (h2load's "
                "default for http://): run with --h1"
            )
    return None


async def _speaks_http1_only(url: str, timeout_s: float) -> bool:
    parts = urlsplit(url)
    try:
        reader, writer = await asyncio.wait_for(
            asyncio.open_connection(parts.hostname or "", parts.port or 80), timeout_s
        )
    except (OSError, TimeoutError):
        return False
    try:
        writer.write(H2C_PREFACE)
        await asyncio.wait_for(writer.drain(), timeout_s)
        reply = await asyncio.wait_for(reader.read(len(b"HTTP/1.")), timeout_s)
    except (OSError, TimeoutError):
        return False
    finally:
        writer.close()
        with contextlib.suppress(OSError, TimeoutError):
            await asyncio.wait_for(writer.wait_closed(), timeout_s)
    return reply.startswith(b"HTTP/1.")
