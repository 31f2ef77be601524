"""Whether a URL redirects, asked after a wrk or ab run: the request as the run sent it, the
answer's head read, ab's figures made to say what the answer was."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from tests.factories import h2load_result
from tui_bench.engine.answer_probe import (
    Answer,
    first_answer,
    read_head,
    redirected,
    redirects_of,
    with_redirects,
)
from tui_bench.result import Requests
from tui_bench.spec import RunSpec

MOVED = (
    b"HTTP/1.1 301 Moved Permanently\r\nServer: nginx\r\n"
    b"Location: http://127.0.0.1:8080/page\r\nContent-Length: 0\r\n\r\n"
)


@pytest.mark.parametrize(
    ("head", "answer"),
    [
        (MOVED, Answer(301, "http://127.0.0.1:8080/page")),
        (b"HTTP/1.0 200 OK\r\nlocation:\r\n\r\n", Answer(200, None)),
        (b"HTTP/1.1 500 Internal Server Error\r\n\r\n", Answer(500, None)),
        (b"\x00\x00\x12\x04\x00\x00\x00\x00\x00", None),  # an HTTP/2 SETTINGS frame
        (b"", None),
    ],
)
def test_the_head_of_an_answer(head: bytes, answer: Answer | None) -> None:
    assert read_head(head) == answer


class OneAnswer:
    """A server that reads one request's head and answers `reply`."""

    def __init__(self, reply: bytes) -> None:
        self.reply = reply
        self.heads: list[bytes] = []

    async def serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.heads.append(await reader.readuntil(b"\r\n\r\n"))
        writer.write(self.reply)
        await writer.drain()
        writer.close()


@pytest.fixture
async def moved() -> AsyncIterator[tuple[OneAnswer, str]]:
    server = OneAnswer(MOVED)
    listening = await asyncio.start_server(server.serve, "127.0.0.1", 0)
    port = listening.sockets[0].getsockname()[1]
    async with listening:
        yield server, f"http://127.0.0.1:{port}"


async def test_the_request_is_the_run_s_own(moved: tuple[OneAnswer, str]) -> None:
    server, url = moved
    spec = RunSpec(
        urls=(f"{url}/old?x=1",),
        tool="wrk",
        headers=(":authority: example.test", "Accept: text/html", "Connection: keep-alive"),
    )
    assert await first_answer(spec) == Answer(301, "http://127.0.0.1:8080/page")
    (head,) = server.heads
    assert head == (
        b"GET /old?x=1 HTTP/1.1\r\nHost: example.test\r\nAccept: text/html\r\n"
        b"Connection: close\r\n\r\n"
    )


async def test_nothing_listening_is_no_answer(unused_tcp_port: int) -> None:
    spec = RunSpec(urls=(f"http://127.0.0.1:{unused_tcp_port}/",), tool="ab")
    assert await first_answer(spec, timeout_s=5.0) is None


AB = h2load_result(duration_s=1.0, rps=1000.0, total=1000, failed=0).with_(
    tool="ab", status={}, requests=Requests(total=1000, succeeded=0), errors={"non_2xx": 1000}
)


def test_ab_s_non_2xx_become_good_redirects() -> None:
    result = with_redirects(AB.with_(requests=Requests(total=1000, succeeded=400)))
    assert result.errors == {}
    assert result.status == {"2xx": 400, "3xx": 1000}
    assert result.requests.succeeded == 1400
    assert with_redirects(AB.with_(errors={"non_2xx": 0})).status == {}


async def test_ab_s_run_of_a_redirect_is_asked_after_and_made_good(
    moved: tuple[OneAnswer, str],
) -> None:
    server, url = moved
    spec = RunSpec(urls=(url.replace("http://", "http://user:pw@") + "/old",), tool="ab")
    result, warning = await redirects_of(spec, AB)
    assert result is not None and result.requests.succeeded == 1000 and not result.errors
    assert warning is not None and warning.code == "redirected"
    assert warning.message == (
        "GET /old is answered 301 Moved Permanently to http://127.0.0.1:8080/page after the "
        "run: ab's 1,000 non-2xx answers are counted as redirects (3xx, good), and no tool "
        "follows them: the run measured the redirect, not the page; benchmark "
        "http://127.0.0.1:8080/page"
    )
    # The URL's credentials went as the tools send them.
    assert b"Authorization: Basic dXNlcjpwdw==\r\n" in server.heads[0]


async def test_not_asked_where_the_tool_tells_or_nothing_could_be_a_redirect(
    moved: tuple[OneAnswer, str],
) -> None:
    server, url = moved
    for spec, result in [
        (RunSpec(urls=(url,), tool="h2load"), AB),
        (RunSpec(urls=(url,), tool="ab", method="POST"), AB),
        (RunSpec(urls=(url,), tool="ab"), AB.with_(errors={"non_2xx": 0})),
        (RunSpec(urls=(url,), tool="wrk"), AB.with_(tool="wrk")),
    ]:
        assert await redirects_of(spec, result) == (result, None)
    assert server.heads == []


def test_wrk_s_redirect_is_said_as_counted_good() -> None:
    spec = RunSpec(urls=("http://127.0.0.1:8080/",), tool="wrk")
    message = redirected(spec, Answer(302), AB.with_(tool="wrk")).message
    assert message.startswith("GET / is answered 302 Found after the run: wrk counts ")
    assert message.endswith("not the page; benchmark where it points")
