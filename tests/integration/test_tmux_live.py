"""End to end: `tuibench run` with its live screen in a real terminal (tmux), real h2load
against nginx, read off the screen as a user would."""

from __future__ import annotations

import re
import shutil
import time
from pathlib import Path

import psutil
import pytest

from bench.common import TUIBENCH_SCRIPT, Tmux, run_over
from tests.conftest import need
from tui_bench.demo.nginx_target import DemoTarget
from tui_bench.storage import store

pytestmark = [
    pytest.mark.real,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
]

LIVE_RPS = re.compile(r"now\s+([\d,]+) req/s")
# A focused box is drawn double.
BORDERS = "│╭╮╰╯─║╔╗╚╝═ "
# Generous: the machine running the tests may be busy; a healthy run takes about 6 s.
DEADLINE_S = 60


def live_rps(screen: str) -> int:
    match = LIVE_RPS.search(screen)
    return int(match.group(1).replace(",", "")) if match else 0


def unboxed(screen: str) -> str:
    """The screen's lines without box borders and padding, joined: a path that wrapped at the
    panel's edge reads whole again."""
    return "".join(line.strip(BORDERS) for line in screen.splitlines())


@pytest.mark.parametrize(("width", "height"), [(120, 40), (80, 24)])
def test_live_run_in_a_terminal(nginx: DemoTarget, tmp_path: Path, width: int, height: int) -> None:
    need("h2load")
    sessions = tmp_path / "sessions"
    url = nginx.urls["h2c"]
    argv = [TUIBENCH_SCRIPT, "run", "-d", "4", "-c", "8", "-m", "10", url]
    saved = re.compile(re.escape(str(sessions)) + r"/[\w.-]+?\.json")
    with Tmux(argv, width=width, height=height, env={"TUIBENCH_SESSIONS": str(sessions)}) as tmux:
        live = tmux.wait_for(
            lambda s: live_rps(s) > 0 and "running" in s, "live req/s while running", DEADLINE_S
        )
        header = live.splitlines()[0]
        assert "h2load" in header and url in header, live
        assert "Throughput" in live and "Latency" in live, live

        done = tmux.wait_for(
            lambda s: run_over(s) and saved.search(unboxed(s)) is not None,
            "summary with the session path",
            DEADLINE_S,
        )
        assert "status     completed" in done, done
        match = saved.search(unboxed(done))
        assert match is not None
        path = Path(match.group(0))

        tmux.send_keys("q")
        assert tmux.wait_exit(DEADLINE_S) == 0, tmux.screen()

    session = store.load(path)
    assert session.status == "completed"
    result = session.result
    assert result is not None and result.rps and result.rps > 0
    assert result.requests.succeeded and result.requests.succeeded > 0


# Each panel's first line of figures, as the live screen writes it.
PANEL_FIGURES = ("now ", "p50 ", "2xx ", "cores ", "busiest thread")


def test_a_live_run_resized_from_wide_to_small(nginx: DemoTarget, tmp_path: Path) -> None:
    """Started at 160x48 (panels beside the big chart), shrunk to 80x24 while the run goes:
    every panel keeps its figures; the result, at the end, its key figures."""
    need("h2load")
    sessions = tmp_path / "sessions"
    argv = [TUIBENCH_SCRIPT, "run", "-d", "4", "-c", "8", "-m", "10", nginx.urls["h2c"]]
    with Tmux(argv, width=160, height=48, env={"TUIBENCH_SESSIONS": str(sessions)}) as tmux:
        tmux.wait_for(lambda s: live_rps(s) > 0 and "req/s and p99" in s, "the chart", DEADLINE_S)
        tmux.tmux("resize-window", "-x", "80", "-y", "24")
        small = tmux.wait_for(
            lambda s: all(f in s for f in PANEL_FIGURES) and "running" in s,
            "every panel's figures at 80x24",
            DEADLINE_S,
        )
        assert max(len(line) for line in small.splitlines()) <= 80, small
        done = tmux.wait_for(run_over, "the end of the run", DEADLINE_S)
        for key in ("req/s ", "latency ", "server ", "client "):
            assert any(line.strip(BORDERS).startswith(key) for line in done.splitlines()), done
        tmux.send_keys("q")
        assert tmux.wait_exit(DEADLINE_S) == 0, tmux.screen()


def test_the_demo_says_what_it_loads_and_lasts_long_enough_to_watch(tmp_path: Path) -> None:
    need("h2load")
    need("nginx")
    argv = [TUIBENCH_SCRIPT, "demo"]
    env = {"TUIBENCH_SESSIONS": str(tmp_path / "sessions")}
    with Tmux(argv, width=80, height=24, env=env) as tmux:
        live = tmux.wait_for(lambda s: live_rps(s) > 0, "live req/s", DEADLINE_S)
        header = live.splitlines()[:3]
        # Whole at 80 columns: the server, its h2c port (the loaded URL's, above) and its h1
        # port (for --h1, wrk and ab), the path and its body's size.
        loaded = re.search(r"http://127\.0\.0\.1:(\d+)/", header[0])
        assert loaded, live
        ports = re.search(rf"demo: nginx h2c :{loaded[1]}, h1 :\d+; GET / \(\d+ B\)", header[2])
        assert ports, live
        assert header[2].rstrip().endswith("/1k /16k /64k /1m /404 /500"), live
        # The default run is long enough to take the screen in.
        assert "mode -d 30s" in header[1], live
        tmux.send_keys("s")
        tmux.wait_for(run_over, "the stopped run", DEADLINE_S)
        tmux.send_keys("q")
        tmux.wait_exit(DEADLINE_S)


def test_a_dropped_terminal_keeps_the_run_and_ends_quietly(
    nginx: DemoTarget, tmp_path: Path
) -> None:
    """The terminal goes away mid-run (an SSH session dropped, tmux killed): the run stops,
    its session is saved with what was measured, and the program ends as interrupted, not on
    an error writing its summary to a terminal that is no longer there."""
    need("h2load")
    sessions, status = tmp_path / "sessions", tmp_path / "status"
    run = [TUIBENCH_SCRIPT, "run", "-d", "30", "-c", "4", nginx.urls["h2c"]]
    # The shell outlives the hangup to keep the status; tuibench sets its own SIGHUP handler.
    keep = f'trap "" HUP; "$@"; echo $? > {status}'
    argv = ["sh", "-c", keep, "sh", *run]
    with Tmux(argv, width=100, height=30, env={"TUIBENCH_SESSIONS": str(sessions)}) as tmux:
        tmux.wait_for(lambda s: live_rps(s) > 0, "live req/s", DEADLINE_S)
        program = psutil.Process(tmux.pid)
        tmux.tmux("kill-server")
        program.wait(DEADLINE_S)
    deadline = time.monotonic() + DEADLINE_S
    while not status.exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert status.read_text().strip() == "130"
    (path,) = sessions.glob("*.json")
    session = store.load(path)
    assert session.status == "interrupted"
    assert session.result is not None and session.result.requests.succeeded


ZERO_NOW = re.compile(r"now\s+0 req/s")
STALLED = re.compile(r"STALL \d+\.\d s, 4 waiting")


def test_a_stalled_server_shows_as_0_req_s_with_the_requests_waiting(
    own_nginx: DemoTarget, tmp_path: Path
) -> None:
    """nginx's workers stopped mid-run: the screen says 0 req/s and how many wait while
    they are stopped (not the last busy second, frozen), then figures again; Ctrl+C stops
    the run and the session keeps the seconds of 0."""
    need("h2load")
    sessions = tmp_path / "sessions"
    argv = [TUIBENCH_SCRIPT, "run", "--h1", "-d", "120", "-c", "4", own_nginx.urls["h1"]]
    workers = psutil.Process(own_nginx.pid).children()
    with Tmux(argv, width=100, height=30, env={"TUIBENCH_SESSIONS": str(sessions)}) as tmux:
        tmux.wait_for(lambda s: live_rps(s) > 0, "live req/s", DEADLINE_S)
        for worker in workers:
            worker.suspend()
        try:
            stalled = tmux.wait_for(
                lambda s: ZERO_NOW.search(s) is not None and STALLED.search(s) is not None,
                "0 req/s and the requests waiting while nginx is stopped",
                DEADLINE_S,
            )
        finally:
            for worker in workers:
                worker.resume()
        assert "running" in stalled, stalled
        tmux.wait_for(lambda s: live_rps(s) > 0, "req/s again once nginx goes on", DEADLINE_S)
        tmux.send_keys("C-c")
        done = tmux.wait_for(run_over, "the run stopped by ctrl+c", DEADLINE_S)
        assert "interrupted" in done, done
        tmux.send_keys("C-c")
        assert tmux.wait_exit(DEADLINE_S) == 130, tmux.screen()
    (path,) = sessions.glob("*.json")
    rows = store.load(path).series
    assert any(row["requests"] == 0 for row in rows), rows
