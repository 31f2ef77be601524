"""A server lost mid-run (nginx of each test's own, SIGKILLed by pid) and a server that
accepts and never answers (a listening socket nobody reads): the run ends at once with its
reason, `server-lost` or `stall-timeout`, the same in the headless summary, --json, the
session (kept and judged again) and the live state."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import time
from pathlib import Path
from typing import Any

import orjson
import psutil
import pytest

from tests.conftest import need
from tests.fakes import A_SECOND, wait_for_run
from tests.integration.test_cli_real_tools import TUIBENCH
from tui_bench.demo.nginx_target import DemoTarget
from tui_bench.engine.cut_short import OVERRUN_GRACE_S
from tui_bench.engine.events import (
    Event,
    RunFinished,
    SecondClosed,
)
from tui_bench.engine.live_state import LiveState
from tui_bench.engine.options import EngineOptions
from tui_bench.records.warning import Warning
from tui_bench.runners.tools import find_tool
from tui_bench.spec import RunSpec
from tui_bench.storage import store
from tui_bench.storage.session import Session

pytestmark = pytest.mark.real

# Runs asked for far longer than they last once their server is lost (some 1 s in): a run
# that went on would show it.
RUN_S = 30


def kill(target: DemoTarget) -> None:
    """SIGKILL nginx, master and workers, by pid."""
    master = psutil.Process(target.pid)
    for proc in [master, *master.children()]:
        os.kill(proc.pid, signal.SIGKILL)


def codes(validity: dict[str, Any]) -> list[str]:
    return [r["code"] for r in validity["reasons"]]


@pytest.mark.parametrize(
    ("tool", "flags"),
    [
        ("h2load", ()),
        ("wrk", ()),
        ("ab", ("-k",)),
        # Nothing sampled: every connection refused after the start is what tells.
        ("wrk", ("--no-server",)),
    ],
)
def test_a_killed_server_is_lost_in_every_view(
    tool: str, flags: tuple[str, ...], own_nginx: DemoTarget, sessions: Path
) -> None:
    need(tool)
    url = own_nginx.urls["h2c" if tool == "h2load" else "h1"]
    argv = ["run", "--headless", "--json", "--interval", "0.1", "--tool", tool, *flags]
    proc = subprocess.Popen(
        [*TUIBENCH, *argv, "-d", str(RUN_S), "-c", "4", url],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    # Once a second is measured: the server was reached, so it is lost, not unreachable.
    wait_for_run(sessions, output=A_SECOND)
    kill(own_nginx)
    out, err = proc.communicate(timeout=3 * RUN_S)
    assert proc.returncode == 1, err
    payload = orjson.loads(out)
    # The one reason: not keepalive_requests, errors, a client-bound generator nor a stall.
    assert codes(payload["validity"]) == ["server-lost"], payload["validity"]
    assert payload["run_status"] == "failed"
    message = payload["message"]
    assert message.startswith("the server was lost "), message
    # Sampled, whichever sees it first: the server's exit or a refused connection.
    seen = ("connection refused",) if "--no-server" in flags else ("exited)", "connection refused")
    assert any(words in message for words in seen), message
    lost_at = float(message.split(" s into")[0].rsplit(" ", 1)[1])
    # Lost when it was killed (1.1 s measured), not when the run's time was up.
    assert 0.3 <= lost_at < RUN_S / 2, message
    assert f"warning: {message}" in err, "said at once, as a warning"
    assert f"invalid: {message} (server-lost)" in err, "and in the summary"
    session = store.load(payload["session_path"])
    assert session.doc["validity"] == payload["validity"]
    assert "server-lost" in {w["code"] for w in session.doc["warnings"]}
    rejudged = Session({**session.doc, "validity": None}).validity
    assert rejudged is not None and [r.code for r in rejudged.reasons] == ["server-lost"]
    # Stopped where it was lost: no seconds of a dead server's "req/s".
    assert len(session.series) <= int(lost_at) + 2, session.series


async def run_live(
    spec: RunSpec, options: EngineOptions, store_dir: Path, on_start: Any = None
) -> tuple[RunFinished, list[tuple[str, float | None, bool]], float]:
    """The run, what the live state said at each warning (code, req/s now, server lost)
    and how long the run took; `on_start` is started with an event set once the run has
    measured a second."""
    state = LiveState(spec)
    seen: list[tuple[str, float | None, bool]] = []
    measured = asyncio.Event()

    def listen(event: Event) -> None:
        state.apply(event)
        if isinstance(event, Warning):
            seen.append((event.code, state.rps_now, state.cut_short is not None))
        elif isinstance(event, SecondClosed):
            measured.set()

    began = time.monotonic()
    side = asyncio.create_task(on_start(measured) if on_start else asyncio.sleep(0))
    try:
        controller = options.controller(spec, find_tool(spec.tool), listen, store_dir)
        finished = await controller.run()
    finally:
        await side
    return finished, seen, time.monotonic() - began


async def test_the_live_state_says_server_lost_at_once(
    own_nginx: DemoTarget, tmp_path: Path
) -> None:
    need("wrk")
    spec = RunSpec(urls=(own_nginx.urls["h1"],), tool="wrk", connections=4, duration_s=RUN_S)
    killed: list[float] = []

    async def killer(measured: asyncio.Event) -> None:
        # Once a second is measured: the server was reached, so it is lost, not unreachable.
        await measured.wait()
        kill(own_nginx)
        killed.append(time.monotonic())

    options = EngineOptions(psutil.Process(own_nginx.pid), interval_s=0.1)
    finished, seen, _ = await run_live(spec, options, tmp_path, killer)
    ended = time.monotonic()
    assert ("server-lost", None, True) in seen, seen
    assert finished.validity is not None and finished.validity.verdict == "invalid"
    # 0.1-0.2 s measured; the run's time is up some 28 s later.
    assert ended - killed[0] < 3.0, "stopped at once, not at the end of its time"


@pytest.mark.parametrize("tool", ["h2load", "ab"])
async def test_a_count_nothing_answers_ends_at_the_stall_timeout(
    tool: str, quiet_url: str, tmp_path: Path
) -> None:
    need(tool)
    spec = RunSpec(urls=(quiet_url,), tool=tool, connections=1, requests=10)
    options = EngineOptions(None, stall_timeout_s=1.0)
    finished, seen, took = await run_live(spec, options, tmp_path)
    # Cut at the stall timeout: 0.2-0.5 s past it measured, the tool's start included.
    assert 1.0 <= took < 1.0 + 10, "bounded, not waiting for ever"
    assert finished.status == "failed"
    assert finished.validity is not None
    assert [r.code for r in finished.validity.reasons] == ["stall-timeout"]
    assert finished.message is not None
    assert "nothing answered for 1.0 s (the stall timeout is 1 s)" in finished.message
    assert "of 10 requests done" in finished.message
    assert [code for code, _, cut in seen if cut] == ["stall-timeout"]
    assert finished.session_path is not None
    doc = store.load(finished.session_path).doc
    assert codes(doc["validity"]) == ["stall-timeout"]


def test_ab_stops_on_time_against_a_server_that_never_answers(
    quiet_url: str, sessions: Path
) -> None:
    need("ab")
    began = time.monotonic()
    proc = subprocess.run(
        [*TUIBENCH, "run", "--headless", "--json", "--tool", "ab", "-d", "1", quiet_url],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    took = time.monotonic() - began
    assert proc.returncode == 1, proc.stderr
    payload = orjson.loads(proc.stdout)
    # Stopped about a second after its time (1.98-2.07 s measured), not when a run past its
    # time is called hung (11 s).
    assert 1 <= payload["duration_s"] < 1 + OVERRUN_GRACE_S / 2, payload
    assert payload["message"] == "no request was answered", "none failed: none came back"
    # The whole command, its start and the 2 s asking a target that never answers included:
    # 5-8 s measured.
    assert took < 60


def test_a_server_killed_on_its_host_is_lost(
    own_nginx: DemoTarget, sessions: Path, ssh_config: Path, ssh_hosts: tuple[Path, list[Any]]
) -> None:
    need("h2load")
    _, (server_host, _) = ssh_hosts
    proc = subprocess.Popen(
        [*TUIBENCH, "run", "--headless", "--json", "--interval", "0.1",
         "--server-host", server_host.alias, "-d", str(RUN_S), "-c", "4", own_nginx.urls["h2c"]],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    # Once a second is measured: the server was reached, so it is lost, not unreachable.
    wait_for_run(sessions, output=A_SECOND)
    kill(own_nginx)
    out, err = proc.communicate(timeout=3 * RUN_S)
    payload = orjson.loads(out)
    assert codes(payload["validity"]) == ["server-lost"], err
    # As the probe on that host saw it, before a refused connection here could.
    assert f"({server_host.alias}: the server (pid {own_nginx.pid}) exited)" in payload["message"]
