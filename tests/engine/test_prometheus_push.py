"""The push's sender against a receiver of the test's own on loopback that fails as
Prometheus can: down (5xx), back again, refusing (4xx); what waits is bounded."""

from __future__ import annotations

import http.server
import struct
import threading
import time
from collections.abc import Iterator

import cramjam
import pytest

from tui_bench.engine import prometheus_push
from tui_bench.engine.prometheus_push import RemoteWrite
from tui_bench.metrics.remote_write import TimeSeries

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
    news = push.news()
    assert news[0].startswith(f"prometheus remote write to {_url(receiver)} failed (HTTP 503")
    assert news[-1] == f"prometheus remote write: {_url(receiver)} answers again"
    received = b"".join(receiver.bodies)
    places = [received.index(struct.pack("<d", t + 0.5)) for t in range(5)]
    assert places == sorted(places)


@pytest.mark.parametrize("receiver", [(400,)], indirect=True)
def test_a_refused_batch_is_said_and_dropped_not_tried_again(receiver: Receiver) -> None:
    push = RemoteWrite(_url(receiver), retry_s=0.01)
    push.put(_second(1))
    assert push.close(HANG_S) is None
    push.put(_second(2))
    assert push.close(HANG_S) is None
    assert push.news() == ["prometheus remote write refused 1 second(s): HTTP 400"]
    assert len(receiver.bodies) == 1 and push.sent == 1


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
        f"prometheus remote write: 5 second(s) of figures not sent to {url} ("
    )
    assert push.dropped == 2
