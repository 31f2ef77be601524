"""One run, three ways in: `tuibench run --headless`, the live app on the same request, and
the run form. All go through the job layer, so all give the same validity, threshold and
baseline verdicts, in the session and on screen. h2load against nginx on loopback."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import orjson
import pytest
from textual.widgets import Input, Select

from tests.conftest import need
from tests.integration.test_cli_real_tools import tuibench
from tests.ui import home_form, screen_is, until
from tests.ui.test_run_form import status, type_into
from tui_bench.demo.nginx_target import DemoTarget
from tui_bench.jobs.settings import JobSettings
from tui_bench.request.judging import Judging
from tui_bench.request.run import RunRequest
from tui_bench.spec import RunSpec
from tui_bench.storage import store
from tui_bench.ui.app import TuibenchApp
from tui_bench.ui.launch import JobLauncher, live_run
from tui_bench.ui.screens.home_screen import HomeScreen
from tui_bench.ui.screens.live_screen import LiveScreen
from tui_bench.ui.text import result_text

pytestmark = pytest.mark.real

REQUESTS = 4000
# One that holds and one that cannot: the verdicts do not hang on how fast the box is.
THRESHOLDS = ("p99<10s", "rps>1000000000")
# A gate no run of the same set-up can fail at a 99 % tolerance, judged at the likely tier
# (one run a side): the line it gives is the same every time.
TOLERANCE = 99.0
PASSED = "baseline: req/s not worse than the baseline by more than 99 %"


def verdicts_of(path: Path) -> dict[str, Any]:
    """What a saved session says of the run's verdicts."""
    doc = store.load_path(path).doc
    baseline = doc["baseline"]
    return {
        "validity": doc["validity"]["verdict"],
        "thresholds": [(v["text"], v["passed"]) for v in doc["thresholds"]],
        "gate": (baseline["ref"], baseline["verdict_tier"], baseline["failed"]),
        "refused": baseline["refused"],
    }


def screen_lines(live: LiveScreen) -> list[str]:
    """The result panel's lines as it paints them."""
    return result_text.summary(live.state, live.tones).plain.splitlines()


async def judged_on_screen(pilot: Any, live: LiveScreen) -> dict[str, Any]:
    """Once the run on `live` has ended: its exit status and result panel say what the
    CLI's did; what its session says of its verdicts."""
    await until(pilot, lambda: live.state.finished is not None, "the run's end")
    finished = live.state.finished
    assert finished is not None
    assert live.exit_code == 99
    shown = "\n".join(screen_lines(live))
    assert "threshold  p99<10s: pass" in shown
    assert "threshold  rps>1000000000: FAIL" in shown
    assert PASSED.replace("baseline: ", "baseline   ") in shown
    return verdicts_of(finished.session_path)


@pytest.fixture
def url(nginx: DemoTarget) -> str:
    need("h2load")
    return nginx.urls["h2c"]


async def test_the_cli_the_app_and_the_form_judge_one_run_alike(url: str, sessions: Path) -> None:
    # The baseline: a plain run of the same set-up.
    base = tuibench("run", "--headless", "--no-server", "-n", str(REQUESTS), "-c", "2", url)
    assert base.returncode == 0, base.stderr
    (base_path,) = sessions.glob("*.json")
    ref = str(base_path)
    asked = [f"--threshold={t}" for t in THRESHOLDS]
    asked += ["--baseline", ref, "--fail-on-regression", f"{TOLERANCE:g}"]

    # 1. The command line: the summary and its verdicts on stdout, exit 99 (a threshold).
    cli = tuibench("run", "--headless", "--no-server", "-n", str(REQUESTS), "-c", "2", *asked, url)
    assert cli.returncode == 99, cli.stderr
    assert "baseline: gating on the likely tier" in cli.stderr, "said before the load"
    assert PASSED in cli.stdout and "threshold rps>1000000000: FAIL" in cli.stdout
    (cli_path,) = set(sessions.glob("*.json")) - {base_path}
    expected = verdicts_of(cli_path)
    assert expected == {
        "validity": "valid",
        "thresholds": [("p99<10s", True), ("rps>1000000000", False)],
        "gate": (ref, "likely", False),
        "refused": [],
    }
    json_run = tuibench(
        "run", "--headless", "--json", "--no-server", "-n", str(REQUESTS), "-c", "2", *asked, url
    )
    payload = orjson.loads(json_run.stdout)
    assert [(v["text"], v["passed"]) for v in payload["thresholds"]] == expected["thresholds"]
    assert payload["baseline"]["failed"] is False and payload["validity"]["verdict"] == "valid"

    # 2. The live app on the same request, prepared by the same job layer.
    spec = RunSpec(urls=(url,), connections=2, requests=REQUESTS)
    judging = Judging(thresholds=THRESHOLDS, baseline=ref, fail_on_regression=TOLERANCE)
    request = RunRequest(spec, server_mode="none", judging=judging)
    app = TuibenchApp(live_run(request, JobSettings(interval_s=0.2), basic=True))
    async with app.run_test(size=(120, 40)) as pilot:
        live = await screen_is(pilot, LiveScreen, "the run prepared")
        assert await judged_on_screen(pilot, live) == expected

    # 3. The run form, its Verdicts group filled in as the flags above.
    home = TuibenchApp(lambda app: HomeScreen(), launcher=JobLauncher(JobSettings(interval_s=0.2)))
    async with home.run_test(size=(160, 48)) as pilot:
        form = await home_form(pilot)
        await until(pilot, lambda: form.recent is not None, "the recent configs")
        await type_into(pilot, "urls", url)
        await type_into(pilot, "connections", "2")
        form.query_one("#mode", Select).value = "count"
        requests = form.query_one("#requests", Input)
        await until(pilot, lambda: not requests.disabled, "the request count's field")
        await type_into(pilot, "requests", str(REQUESTS))
        form.query_one("#server_mode", Select).value = "none"
        await type_into(pilot, "thresholds", "; ".join(THRESHOLDS))
        await type_into(pilot, "baseline", ref)
        await type_into(pilot, "fail_on_regression", f"{TOLERANCE:g}%")
        await until(pilot, lambda: form.valid, f"a valid form ({status(form)})")
        await pilot.press("ctrl+s")
        shown = await screen_is(pilot, LiveScreen, "the live screen")
        assert await judged_on_screen(pilot, shown) == expected


async def test_a_target_that_cannot_be_loaded_is_one_line_from_every_way_in(
    nginx: DemoTarget, sessions: Path
) -> None:
    """wrk against a port of h2c only: the same line, exit 2 and nothing saved, from the
    command line, the live app and the run form, before any load."""
    need("wrk")
    url = nginx.urls["h2c"]
    cli = tuibench("run", "--headless", "--no-server", "--tool", "wrk", "-d", "1", url)
    assert cli.returncode == 2
    line = cli.stderr.removeprefix("tuibench: error: ").removesuffix("\n")
    said = "speaks h2c only, not HTTP/1.1, the only protocol wrk speaks: run with --tool h2load"
    assert line.endswith(said), cli.stderr

    spec = RunSpec(urls=(url,), tool="wrk", duration_s=1)
    app = TuibenchApp(
        live_run(RunRequest(spec, server_mode="none"), JobSettings(interval_s=0.2), basic=True)
    )
    async with app.run_test(size=(120, 40)):
        async with asyncio.timeout(30):
            while app.refusal is None:
                await asyncio.sleep(0.05)
    assert str(app.refusal) == line and app.return_value == 2

    home = TuibenchApp(lambda app: HomeScreen(), launcher=JobLauncher(JobSettings(interval_s=0.2)))
    async with home.run_test(size=(160, 48)) as pilot:
        form = await home_form(pilot)
        await type_into(pilot, "urls", url)
        form.query_one("#tool", Select).value = "wrk"
        form.query_one("#server_mode", Select).value = "none"
        await until(pilot, lambda: form.valid, f"a valid form ({status(form)})")
        await pilot.press("ctrl+s")
        # The same line, where the form said ready, in the form's words.
        await until(pilot, lambda: status(form).startswith("refused: "), "the refusal")
        assert status(form) == "refused: " + line.replace(
            "run with --tool h2load", "choose tool h2load"
        )
        assert isinstance(home.screen, HomeScreen)
    assert not sessions.exists() or not any(sessions.iterdir())
