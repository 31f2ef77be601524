"""The push's sender against a receiver of the test's own on loopback that fails as
Prometheus can: down (5xx), back again, refusing (4xx); what waits is bounded."""

from __future__ import annotations

import http.server
import socket
import struct
import threading
import time
from collections.abc import Callable, Iterator

import cramjam
import pytest

from tui_bench.engine import prometheus_push
from tui_bench.engine.events import RunStarted, SecondClosed, SegmentStarted
from tui_bench.engine.prometheus_push import BACK, FAILED, REFUSED, RemoteWrite
from tui_bench.metrics.remote_write import TimeSeries
from tui_bench.spec import RunSpec

# Only a hang waits this long.
HANG_S = 60.0


class Receiver(http.server.ThreadingHTTPServer):
    def __init__(self, answers: list[int]) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        # The status of each request in turn; 204 once they are used up.
        self.answers = answers
        self.bodies: list[bytes] = []


class _Handler(http.server.BaseHTTPRequestHandler):
    server: Receiver

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers["Content-Length"]))
        status = self.server.answers.pop(0) if self.server.answers else 204
        if status == 204:
            assert self.headers["Content-Encoding"] == "snappy"
            self.server.bodies.append(bytes(cramjam.snappy.decompress_raw(body)))
        self.send_response(status)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def receiver(request: pytest.FixtureRequest) -> Iterator[Receiver]:
    server = Receiver(list(request.param))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()


def _second(t: int) -> list[TimeSeries]:
    return [TimeSeries((("__name__", "tuibench_x"),), ((t * 1000, t + 0.5),))]


def _url(server: Receiver) -> str:
    return f"http://127.0.0.1:{server.server_address[1]}/api/v1/write"


@pytest.mark.parametrize("receiver", [(503, 503)], indirect=True)
def test_a_receiver_down_then_back_gets_every_second_in_order(receiver: Receiver) -> None:
    push = RemoteWrite(_url(receiver), retry_s=0.01)
    for t in range(5):
        push.put(_second(t))
    deadline = time.monotonic() + HANG_S
    while push.sent < 5:
        assert time.monotonic() < deadline, "never sent"
        time.sleep(0.01)
    assert push.close(HANG_S) is None
    assert push.news() == [
        (FAILED, f"prometheus remote write to {_url(receiver)} failed (HTTP 503): the run goes "
         "on, its session keeps every second, and they are sent once it answers"),
        (BACK, f"prometheus remote write: {_url(receiver)} takes the seconds again"),
    ]  # fmt: skip
    received = b"".join(receiver.bodies)
    places = [received.index(struct.pack("<d", t + 0.5)) for t in range(5)]
    assert places == sorted(places)


@pytest.mark.parametrize("receiver", [(400, 401, 400)], indirect=True)
def test_refusals_are_said_once_dropped_and_counted(receiver: Receiver) -> None:
    push = RemoteWrite(_url(receiver), retry_s=0.01)
    for t in range(4):
        push.put(_second(t))
        _until(lambda t=t: push.sent + push.refused == t + 1)  # type: ignore[misc]
    assert push.news() == [
        (REFUSED, f"prometheus remote write: {_url(receiver)} refuses what it is sent (HTTP "
         "400): the run goes on, its session keeps every second"),
        (BACK, f"prometheus remote write: {_url(receiver)} takes the seconds again"),
    ]  # fmt: skip
    assert len(receiver.bodies) == 1 and push.sent == 1
    assert push.close(HANG_S) == (
        f"prometheus remote write to {_url(receiver)}: 3 second(s) refused; the session "
        "keeps them all (tuibench export SESSION --format openmetrics)"
    )


def test_a_receiver_that_does_not_speak_http_is_tried_again_never_a_traceback() -> None:
    with socket.socket() as garbage:
        garbage.bind(("127.0.0.1", 0))
        garbage.listen(8)
        url = f"http://127.0.0.1:{garbage.getsockname()[1]}/api/v1/write"

        def answer() -> None:
            for _ in range(2):
                connection, _ = garbage.accept()
                with connection:
                    connection.recv(65536)
                    connection.sendall(b"SSH-2.0-OpenSSH_9.2\r\n")

        thread = threading.Thread(target=answer, daemon=True)
        thread.start()
        push = RemoteWrite(url, retry_s=0.01)
        push.put(_second(0))
        line = push.close(HANG_S)
        thread.join(HANG_S)
    assert line is not None and "1 second(s) of figures not sent (not an HTTP answer:" in line
    assert push.sent == 0 and push._thread is not None and push._thread.is_alive()


def test_the_load_pushed_is_the_one_the_session_keeps() -> None:
    """A run told no segment (several generators) has its spec's load; a paused segment
    has 0 req/s and no connection, as its session keeps it."""
    seconds: list[list[TimeSeries]] = []
    push = RemoteWrite("http://127.0.0.1:9/")
    push.put = seconds.append  # type: ignore[method-assign]
    spec = RunSpec(urls=("http://127.0.0.1:9/",), rate=500, connections=4)
    listener = push.listener(lambda event: None, spec, "", "a+b")
    listener(RunStarted("s1", (), 0, None, "2026-11-28T12:00:00+00:00"))
    listener(SecondClosed({"t_s": 0, "window_s": 1.0, "requests": 10, "rps": 10.0}))
    listener(SegmentStarted(1, 1.0, 500.0, 4, "pause", paused=True))
    listener(SecondClosed({"t_s": 1, "window_s": 1.0, "requests": 0, "rps": 0.0}))

    def load(second: list[TimeSeries]) -> dict[str, float]:
        names = ("tuibench_target_requests_per_second", "tuibench_connections")
        return {
            dict(s.labels)["__name__"]: s.samples[0][1]
            for s in second
            if dict(s.labels)["__name__"] in names
        }

    assert [load(second) for second in seconds] == [
        {"tuibench_target_requests_per_second": 500.0, "tuibench_connections": 4.0},
        {"tuibench_target_requests_per_second": 0.0, "tuibench_connections": 0.0},
    ]
    assert dict(seconds[0][0].labels)["generator"] == "a+b"


def _until(done: Callable[[], bool]) -> None:
    deadline = time.monotonic() + HANG_S
    while not done():
        assert time.monotonic() < deadline, "never happened"
        time.sleep(0.01)


def test_what_waits_for_a_receiver_that_is_down_is_bounded(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(prometheus_push, "PENDING_S", 3)
    with http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Handler) as nothing:
        url = f"http://127.0.0.1:{nothing.server_address[1]}/api/v1/write"
    # Closed: nothing listens there any more.
    push = RemoteWrite(url, retry_s=HANG_S)
    for t in range(5):
        push.put(_second(t))
    line = push.close(HANG_S)
    assert line is not None and line.startswith(
        f"prometheus remote write to {url}: 5 second(s) of figures not sent (connection refused)"
    )
    assert push.dropped == 2
