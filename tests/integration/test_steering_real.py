"""Steering a run for real: h2load against an nginx of this module's own that logs the time
of every request it answers. Keys pressed through Pilot, and stages, change the rate the
server sees; each segment, its cause and the gaps between are kept."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from tests.conftest import need
from tests.integration.test_cli_real_tools import run_json
from tests.own_nginx import free_ports, own_server
from tui_bench.engine.controller import RunController
from tui_bench.engine.events import Listener
from tui_bench.records.segment import Segment
from tui_bench.runners.tools import find_tool
from tui_bench.spec import RunSpec
from tui_bench.storage import store
from tui_bench.ui.app import TuibenchApp
from tui_bench.ui.screens.live_screen import LiveScreen

pytestmark = pytest.mark.real

HTTP = """
    log_format stamped '$msec';
"""
SERVER = """
        listen 127.0.0.1:{port};
        keepalive_requests 1000000;
        access_log {log} stamped;
        location / {{ return 200 "answered\\n"; }}
"""
# Kept off each segment's ends when the server's count is taken: the tools' start-up and
# the clocks of the session and the server's log, a few ms apart.
EDGE_S = 0.3


@dataclass(frozen=True)
class Server:
    url: str
    log: Path

    def answered(self) -> list[float]:
        """When the server answered each request so far (s since the epoch)."""
        return [float(line) for line in self.log.read_text().split()]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    need("nginx", "h2load")
    (port,) = free_ports(socket.AF_INET, "127.0.0.1", 1)
    workdir = tmp_path_factory.mktemp("steered")
    log = workdir / "access.log"
    block = SERVER.format(port=port, log=log)
    with own_server(workdir, block, [("127.0.0.1", port)], HTTP):
        yield Server(f"http://127.0.0.1:{port}/", log)


def _server_rate(server: Server, started_at: str, segment: Segment) -> float:
    """Requests per second the server answered inside `segment` (its ends left out), from its
    first answer there: a busy machine takes tenths of a second to start and connect a tool."""
    t0 = datetime.fromisoformat(started_at).timestamp()
    answered = server.answered()
    first = min((t for t in answered if t >= t0 + segment.start_s), default=t0 + segment.start_s)
    lo, hi = first + EDGE_S, t0 + segment.end_s - EDGE_S
    assert hi - lo >= 1.0, segment
    return sum(lo <= t < hi for t in answered) / (hi - lo)


async def _until(pilot: Pilot[Any], live: LiveScreen, elapsed_s: float) -> None:
    while live.state.running and live.state.elapsed_s < elapsed_s:
        await pilot.pause(0.05)


async def _begun(pilot: Pilot[Any], live: LiveScreen, index: int) -> float:
    """Once the segment `index` began (a busy machine may take a while to start its tool):
    when, in seconds into the run."""
    while live.state.running and (live.state.segment is None or live.state.segment.index < index):
        await pilot.pause(0.05)
    assert live.state.segment is not None and live.state.segment.index == index
    return live.state.segment.start_s


async def test_keys_change_the_rate_the_server_sees(server: Server, sessions: Path) -> None:
    # Long enough for a loaded machine, where starting a tool takes seconds at tuibench's
    # own lowered priority: stopped by `s` once the last key's segment ran a second.
    spec = RunSpec(urls=(server.url,), h1=True, connections=4, rate=400, duration_s=120)

    def engine(spec: RunSpec, listener: Listener) -> RunController:
        return RunController(spec, find_tool("h2load"), store=sessions, listener=listener)

    app = TuibenchApp(lambda app: LiveScreen(spec, engine, tool_label="h2load", basic=True))
    async with app.run_test(size=(100, 30)) as pilot:
        live = app.job
        assert isinstance(live, LiveScreen)
        # Each key once the segment before it ran long enough to be counted at the server.
        await _until(pilot, live, 2.5)
        await pilot.press("plus")  # 500 req/s
        await _until(pilot, live, await _begun(pilot, live, 1) + 2.5)
        await pilot.press("space")  # paused
        await _until(pilot, live, await _begun(pilot, live, 2) + 1.5)
        await pilot.press("space")  # resumed, at 500
        # Every segment is judged on its rate: long enough that its tool's start-up (tenths of
        # a second on a busy machine) and a few requests either way do not decide it.
        await _until(pilot, live, await _begun(pilot, live, 3) + 1.5)
        await pilot.press("right_square_bracket")  # 5 connections
        await _until(pilot, live, await _begun(pilot, live, 4) + 1.5)
        await pilot.press("s")
        while live.state.running:
            await pilot.pause(0.1)
        finished = live.state.finished
    assert finished is not None and finished.status == "interrupted", finished
    session = store.load(finished.session_path)
    segments = session.segments
    assert [s.cause for s in segments[:3]] == ["start", "key", "pause"], segments
    assert [s.target_rps for s in segments[:3]] == [400, 500, 0]
    started = session.doc["started_at"]
    # What the server answered is what each segment asked (a key's rate included).
    for segment in (segments[0], segments[1]):
        assert _server_rate(server, started, segment) == pytest.approx(segment.target_rps, rel=0.05)
    paused = segments[2]
    t0 = datetime.fromisoformat(started).timestamp()
    quiet = [t - t0 for t in server.answered() if paused.start_s + 0.05 < t - t0 < paused.end_s]
    assert quiet == [], "the server answered while the load was paused"
    assert paused.achieved_rps == 0
    # Gaps measured, never hidden: each tool starts after the last one ended.
    for before, after in pairwise(segments):
        assert 0 <= after.start_s - before.end_s < 1.0
    assert segments[-1].end_s == pytest.approx(session.series[-1]["t_s"] + 1, abs=1.0)
    said = [n.message for n in app._notifications]
    assert (segments[-1].target_rps, segments[-1].connections) == (500, 5), (segments, said)
    # Each judged on its own: every rate was held (the run's own verdict is the stop's).
    assert "segment-rate-not-held" not in {w.code for w in finished.warnings}, finished
    verdict = finished.validity.verdict if finished.validity else None
    assert {s.validity for s in segments if s.target_rps} == {verdict}, segments


def test_stages_reach_each_rate(server: Server, sessions: Path) -> None:
    code, result, stderr = run_json(
        "--h1", "-c", "4", "--rate", "300", "--stages", "300:3s,600:1s,600:3s", server.url
    )
    assert code == 0, stderr
    segments = [Segment(**s) for s in result["segments"]]
    assert [(s.cause, s.target_rps) for s in segments] == [
        ("start", 300),
        ("stage", 450),
        ("stage", 600),
    ]
    session = store.load(Path(result["session_path"]))
    assert session.spec.stages and session.spec.duration_s == 7
    for segment in (segments[0], segments[2]):
        # Over its tool's whole life, its start and exit included: a few ms on a quiet
        # machine (gaps of 6-7 ms), 69 ms seen on a busy one (293.26 of 300 req/s over 3 s).
        # The server's rate, its edges left out, is the close check.
        assert segment.achieved_rps == pytest.approx(segment.target_rps, rel=0.05)
        served = _server_rate(server, session.doc["started_at"], segment)
        assert served == pytest.approx(segment.target_rps, rel=0.02)
    assert result["validity"]["verdict"] == "valid"


async def test_a_run_that_ends_paused_ends_when_its_pause_does(
    server: Server, sessions: Path
) -> None:
    spec = RunSpec(urls=(server.url,), h1=True, connections=4, rate=400, duration_s=3)
    controller = RunController(spec, find_tool("h2load"), store=sessions)
    running = asyncio.create_task(controller.run())
    while controller.steer("pause") is not None:  # refused until the tool runs
        await asyncio.sleep(0.05)
    finished = await running
    assert finished.status == "completed", finished
    # A load paused by a key is no collapse of the server's (nor connections dying).
    assert "connections-dying" not in {w.code for w in finished.warnings}, finished
    assert finished.validity is not None and finished.validity.verdict != "invalid", finished
    assert finished.session is not None
    first, paused = finished.session.segments
    assert paused.cause == "pause" and paused.achieved_rps == 0
    # The run's time went on while paused: the pause lasts to its end.
    assert paused.end_s == pytest.approx(3.0, abs=0.3)
    assert first.end_s == paused.start_s
