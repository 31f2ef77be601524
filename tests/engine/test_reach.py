"""The target asked before any load, on loopback sockets of the test's own: what the real
servers of tests/integration (nginx's h1 and h2c ports, a closed port) cannot show on demand."""

from __future__ import annotations

import asyncio
import socket
import time
from collections.abc import AsyncIterator

import pytest

from tui_bench.engine.reach import TIMEOUT_S, target_refused
from tui_bench.errors import UsageError
from tui_bench.jobs.run_job import refuse_unfit_target
from tui_bench.request.run import RunRequest
from tui_bench.spec import RunSpec


@pytest.fixture
async def closing_url() -> AsyncIterator[str]:
    """A port that reads the request and closes without a word."""

    async def close(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.read(1)
        writer.close()

    server = await asyncio.start_server(close, "127.0.0.1", 0)
    async with server:
        yield f"http://127.0.0.1:{server.sockets[0].getsockname()[1]}/"


def refused_url() -> str:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{sock.getsockname()[1]}/"


@pytest.mark.parametrize("tool", ["wrk", "ab"])
async def test_a_port_that_closes_unanswered_is_left_to_the_run(
    closing_url: str, tool: str
) -> None:
    # No proof it speaks anything else: the run is let through and says why it failed.
    spec = RunSpec((closing_url,), tool=tool, duration_s=1)
    assert await target_refused([spec]) is None


async def test_a_port_that_never_answers_is_left_to_the_run(quiet_url: str) -> None:
    # Left to the run once the timeout asked for is up (0.1 s measured), well before the
    # default one (2 s) would be.
    assert TIMEOUT_S >= 2.0
    started = time.monotonic()
    spec = RunSpec((quiet_url,), tool="wrk", duration_s=1)
    assert await target_refused([spec], timeout_s=0.1) is None
    assert time.monotonic() - started < 1.0


async def test_load_sent_from_other_hosts_is_not_asked_about_from_here() -> None:
    url = refused_url()
    spec = RunSpec((url,), duration_s=1)
    with pytest.raises(UsageError) as refused:
        await refuse_unfit_target(RunRequest(spec), [spec])
    where = url.removeprefix("http://").strip("/")
    assert str(refused.value) == f"nothing listens on {where} (connection refused)"
    # A generator elsewhere reaches the target from its own host.
    await refuse_unfit_target(RunRequest(spec, generators=("local", "bench@10.0.0.2")), [spec])


async def test_https_to_a_plain_http_port_says_so() -> None:
    """A server answering plain HTTP to a TLS hello: OpenSSL's WRONG_VERSION_NUMBER alone
    says nothing to most users."""

    async def plain(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.read(1)
        writer.write(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")
        await writer.drain()
        writer.close()

    server = await asyncio.start_server(plain, "127.0.0.1", 0)
    async with server:
        port = server.sockets[0].getsockname()[1]
        spec = RunSpec((f"https://127.0.0.1:{port}/",), duration_s=1)
        said = await target_refused([spec])
    assert said == (
        f"TLS handshake with 127.0.0.1:{port} failed: WRONG_VERSION_NUMBER (it answers plain "
        f"HTTP, not TLS: try http://127.0.0.1:{port}/)"
    )
