"""Stalls in closed-loop runs, with the real tools against an nginx of this module's own
whose workers are paused (SIGSTOP) for a second mid-run: the run is suspect with a `stall`
said roughly right, the live state says STALL while it lasts; the same runs unpaused, and
runs with edges (short, warm-up, a count that ends mid-second), have no stall."""

from __future__ import annotations

import asyncio
import os
import re
import signal
from pathlib import Path

import psutil
import pytest

from tests.conftest import need
from tui_bench.demo.nginx_target import DemoTarget
from tui_bench.engine.events import Event, Progress, RunFinished, RunStarted
from tui_bench.engine.live_state import LiveState
from tui_bench.engine.options import EngineOptions
from tui_bench.runners.tools import find_tool
from tui_bench.spec import RunSpec

pytestmark = pytest.mark.integration

PAUSE_AT_S = 2.5
PAUSE_S = 1.0
STALL = re.compile(r"at (–|[\d.]+)(?: s)? for ([\d.]+) s(?:, (\d+) requests held)?")


async def paused(target: DemoTarget, started: asyncio.Event) -> None:
    """Stops every nginx worker PAUSE_AT_S into the run for PAUSE_S, by pid."""
    await started.wait()
    await asyncio.sleep(PAUSE_AT_S)
    workers = psutil.Process(target.pid).children()
    try:
        for worker in workers:
            os.kill(worker.pid, signal.SIGSTOP)
        await asyncio.sleep(PAUSE_S)
    finally:
        for worker in workers:
            os.kill(worker.pid, signal.SIGCONT)


async def run(
    spec: RunSpec, target: DemoTarget | None, store: Path
) -> tuple[RunFinished, list[bool]]:
    """The run (paused when `target` is given) and whether the live state said STALL at
    each progress tick."""
    state = LiveState(spec)
    started = asyncio.Event()
    stalled: list[bool] = []

    def listen(event: Event) -> None:
        state.apply(event)
        if isinstance(event, RunStarted):
            started.set()
        elif isinstance(event, Progress):
            stalled.append(state.stalled)

    pause = asyncio.create_task(paused(target, started) if target else asyncio.sleep(0))
    try:
        controller = EngineOptions(None).controller(spec, find_tool(spec.tool), listen, store)
        finished = await controller.run()
    finally:
        await pause
    return finished, stalled


def stall_of(finished: RunFinished) -> str | None:
    assert finished.validity is not None
    return next((r.message for r in finished.validity.reasons if r.code == "stall"), None)


def spec_for(tool: str, url: str, **load: float) -> RunSpec:
    # ab without keep-alive spends its time connecting: -k is how it is benchmarked.
    shape = {"connections": 10, "threads": 1, "h1": tool == "h2load", "keepalive": tool == "ab"}
    return RunSpec.from_dict({"urls": [url], "tool": tool, **shape, **load})


@pytest.mark.parametrize("tool", ["h2load", "wrk", "ab"])
async def test_a_paused_server_is_a_stall_said_roughly_right(
    tool: str, own_nginx: DemoTarget, tmp_path: Path
) -> None:
    need(tool)
    spec = spec_for(tool, own_nginx.urls["h1"], duration_s=6)
    finished, stalled = await run(spec, own_nginx, tmp_path)
    assert finished.status == "completed"
    assert finished.validity is not None and finished.validity.verdict == "suspect"
    message = stall_of(finished)
    assert message is not None, finished.validity.lines()
    match = STALL.search(message)
    assert match is not None, message
    at, length, held = match.groups()
    assert 0.9 <= float(length) <= 1.3, message
    if tool == "h2load":
        # The run starts a little before the tool's first request: "at" is a bit early.
        assert 1.8 <= float(at) <= PAUSE_AT_S + 0.3, message
        assert held == "10", message
        assert any(stalled), "STALL while it lasted"
        assert not stalled[-1], "and not after"
    elif tool == "wrk":
        # Placed at the second with the fewest requests, around the pause.
        assert at == "–" or 1.0 <= float(at) <= 3.0, message
    else:
        assert at == "–", "ab cannot tell when"


@pytest.mark.parametrize("tool", ["h2load", "wrk", "ab"])
async def test_the_same_run_unpaused_has_no_stall(
    tool: str, own_nginx: DemoTarget, tmp_path: Path
) -> None:
    need(tool)
    spec = spec_for(tool, own_nginx.urls["h1"], duration_s=6)
    finished, stalled = await run(spec, None, tmp_path)
    assert finished.status == "completed"
    assert stall_of(finished) is None
    assert not any(stalled)


@pytest.mark.parametrize(
    "load",
    [
        pytest.param({"duration_s": 1.5}, id="short"),
        pytest.param({"duration_s": 2.5, "warm_up_s": 1.0}, id="warm-up"),
        # Ends when the count is reached, mid-second: a partial last second.
        pytest.param({"requests": 30_000}, id="count"),
    ],
)
async def test_no_stall_at_a_runs_edges(
    load: dict[str, float], own_nginx: DemoTarget, tmp_path: Path
) -> None:
    need("h2load")
    spec = spec_for("h2load", own_nginx.urls["h1"], **load)
    finished, stalled = await run(spec, None, tmp_path)
    assert finished.status == "completed"
    assert stall_of(finished) is None
    assert not any(stalled)
