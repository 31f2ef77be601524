"""A token planted in a header and a password in a URL, on real runs (wrk in the live screen,
h2load from the command line) against the demo nginx: neither is in any file tuibench writes
(journal, sessions, exports, comparison) nor on any screen, and the files are private."""

from __future__ import annotations

import secrets
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson
import pytest
from textual.app import App
from textual.pilot import Pilot
from textual.widgets import RichLog

from tests.conftest import need
from tests.integration.test_cli_real_tools import tuibench
from tests.ui import screen_is, until
from tui_bench.analysis.significance import side_of
from tui_bench.cli.main import main
from tui_bench.demo.nginx_target import DemoTarget
from tui_bench.jobs.settings import JobSettings
from tui_bench.redaction import MARK, fingerprint
from tui_bench.request.run import RunRequest
from tui_bench.spec import RunSpec
from tui_bench.storage import store
from tui_bench.ui.app import TuibenchApp
from tui_bench.ui.launch import live_run
from tui_bench.ui.screens.compare_screen import CompareScreen
from tui_bench.ui.screens.live_screen import LiveScreen
from tui_bench.ui.screens.replay_screen import ReplayScreen
from tui_bench.ui.screens.sessions_screen import SessionsScreen

pytestmark = pytest.mark.real

TOKEN_A = f"tok-{secrets.token_hex(8)}"
TOKEN_B = f"tok-{secrets.token_hex(8)}"
API_KEY = f"key-{secrets.token_hex(8)}"
PASSWORD = f"pw-{secrets.token_hex(8)}"
PLANTED = (TOKEN_A, TOKEN_B, API_KEY, PASSWORD)


def with_password(url: str) -> str:
    return url.replace("http://", f"http://bench:{PASSWORD}@", 1)


def assert_clean(text: str, where: str) -> None:
    for secret in PLANTED:
        assert secret not in text, f"{secret} in {where}"


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


async def screen_text(pilot: Pilot[Any], ready: Callable[[], bool], what: str) -> str:
    await until(pilot, ready, what)
    # A paint of the screen's clock after it.
    await pilot.pause(0.6)
    app: App[Any] = pilot.app
    return app.export_screenshot()


async def test_planted_secrets_are_in_no_file_and_on_no_screen(
    nginx: DemoTarget, sessions: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    need("wrk", "h2load")
    # A store made by an older tuibench, open to everyone: tightened when written to.
    sessions.mkdir(mode=0o755)
    sessions.chmod(0o755)
    spec = RunSpec(
        urls=(with_password(nginx.urls["h1"]),),
        tool="wrk",
        connections=2,
        threads=1,
        duration_s=1.0,
        headers=(f"Authorization: Bearer {TOKEN_A}",),
    ).validate()
    request = RunRequest(spec, server_mode="none")
    app = TuibenchApp(live_run(request, JobSettings(interval_s=0.2), basic=True))
    async with app.run_test(size=(120, 40)) as pilot:
        live = await screen_is(pilot, LiveScreen, "the run prepared")
        await until(pilot, lambda: any(sessions.glob("*.journal")), "the journal")
        (journal,) = sessions.glob("*.journal")
        assert mode(sessions) == 0o700 and mode(journal) == 0o600
        header = journal.read_text()  # the run's spec and argv, the first thing written
        assert MARK in header
        assert_clean(header, "the journal")
        await until(pilot, lambda: live.state.finished is not None, "the run's end")
        await pilot.press("l")  # the tool's own output, which names the URL
        shown = await screen_text(pilot, lambda: live.state.lines_seen > 0, "the output")
        assert f"bench:{MARK}" in shown  # the header's URL
        assert_clean(shown, "the live screen")
        # All the log holds, scrolled off or not: wrk's "Running 1s test @ URL" first, the
        # URL as wrk was given it, without its credentials (sent as a header instead).
        logged = "\n".join(strip.text for strip in live.query_one(RichLog).lines)
        assert "Running" in logged and "bench:" not in logged
        assert_clean(logged, "the live screen's log")

    # The same planted secrets from the command line, with h2load.
    proc = tuibench(
        "run", "--headless", "--json", "-n", "300", "-c", "2",
        "-H", f"Authorization: Bearer {TOKEN_B}",
        "-H", f"X-API-Key: {API_KEY}",
        with_password(nginx.urls["h2c"]),
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert_clean(proc.stdout + proc.stderr, "the run's output")

    saved = sorted(sessions.glob("*.json"))
    assert len(saved) == 2
    for path in saved:
        assert mode(path) == 0o600
        assert_clean(path.read_text(), path.name)
    wrk_session, h2load_session = (store.load(p) for p in saved)
    assert wrk_session.spec.headers == (f"Authorization: {MARK}{fingerprint(f'Bearer {TOKEN_A}')}",)
    assert "Running" in wrk_session.doc["raw"]["stdout"]  # wrk's "Running … @ URL"
    assert f"bench:{MARK}" in wrk_session.spec.urls[0]

    out = sessions.parent / "out"
    out.mkdir()
    for session in (wrk_session, h2load_session):
        for fmt in ("json", "csv", "md"):
            target = out / f"{session.id}.{fmt}"
            assert main(["export", session.id, "-f", fmt, "-o", str(target)]) == 0
            assert_clean(target.read_text(), target.name)
        assert main(["export", session.id, "-f", "md"]) == 0
    compared = out / "compare.md"
    assert (
        main(["compare", wrk_session.id, h2load_session.id, "--format", "md", "-o", str(compared)])
        == 0
    )
    assert main(["sessions"]) == main(["sessions", "--json"]) == 0
    printed = capsys.readouterr()
    assert_clean(printed.out + printed.err, "what the commands printed")
    text = compared.read_text()
    assert_clean(text, "the comparison")
    # Same header, other value: the fingerprints tell them apart.
    for token in (TOKEN_A, TOKEN_B):
        assert f"Authorization: {MARK}{fingerprint(f'Bearer {token}')}" in text

    # The screens that show saved sessions.
    first = {
        "sessions": lambda app: SessionsScreen(sessions),
        "replay": lambda app: ReplayScreen(wrk_session, basic=True),
        "compare": lambda app: CompareScreen(side_of(wrk_session), side_of(h2load_session)),
    }
    for name, screen in first.items():
        app = TuibenchApp(screen)
        async with app.run_test(size=(160, 48)) as pilot:
            if name == "replay":
                await pilot.press("end", "l")
            shown = await screen_text(pilot, lambda: True, name)
            assert_clean(shown, f"the {name} screen")
            assert MARK in shown, name
    argv = orjson.loads((out / f"{wrk_session.id}.json").read_bytes())["argv"]
    # The header; the URL's credentials were not given to wrk, which had the header's.
    assert sum(MARK in word for word in argv) == 1 and "bench:" not in " ".join(argv)
