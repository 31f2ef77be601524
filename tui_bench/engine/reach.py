"""Whether the target answers at all, told within a second or two.

h2load in duration mode waits out `-d` against a closed port and then reports zero
requests; a connection of our own, made beside the tool's, says why at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import ssl
from urllib.parse import urlsplit

TIMEOUT_S = 2.0


async def unreachable(url: str, timeout_s: float = TIMEOUT_S) -> str | None:
    """Why nothing can connect to `url` (refused, no such host, failed TLS handshake), in
    one line; None when it connects, or when it is only slow (the tool will tell)."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    tls = parts.scheme == "https"
    port = parts.port or (443 if tls else 80)
    where = f"{host}:{port}"
    context = None
    if tls:
        # As the load generators do: a benchmark target's certificate is rarely trusted.
        context = ssl.create_default_context()
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
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
