"""Each figure of a run the same in every view that shows it: the headless summary and
progress lines, `--json`, the session, the md and json exports, the app's result and the
result of its replay. Real ab and h2load against nginx on loopback, each run a second or
less."""

from __future__ import annotations

import asyncio
import io
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import orjson
import pytest

from tests.conftest import need
from tui_bench.cli.progress import ProgressPrinter, summary_text
from tui_bench.demo.nginx_target import DemoTarget
from tui_bench.engine.events import Event, RunFinished, RunStarted
from tui_bench.engine.live_state import LiveState
from tui_bench.engine.log_feed import LogFeed
from tui_bench.engine.replay import timeline
from tui_bench.formats import fmt_bytes, fmt_count, fmt_seconds
from tui_bench.jobs.run_job import prepare_run
from tui_bench.jobs.settings import JobSettings
from tui_bench.report.export import export
from tui_bench.report.run_report import run_payload
from tui_bench.request.recent import describe
from tui_bench.request.run import RunRequest
from tui_bench.spec import RunSpec
from tui_bench.storage import store
from tui_bench.storage.columns import rows_of
from tui_bench.ui.text import monitor_text, result_text
from tui_bench.ui.tones import ANSI

pytestmark = pytest.mark.real


@dataclass(frozen=True)
class Views:
    """One run as each view shows it."""

    finished: RunFinished
    progress: list[str]
    summary: str
    payload: dict[str, Any]
    doc: Mapping[str, Any]
    md: str
    exported: dict[str, Any]
    app: str
    replayed: str
    header: str

    def texts(self) -> dict[str, str]:
        return {
            "summary": self.summary,
            "md": self.md,
            "app": self.app,
            "replay": self.replayed,
        }

    def documents(self) -> dict[str, Mapping[str, Any]]:
        """The views that hold the run as data: --json, the session, the json export."""
        return {"json": self.payload, "session": self.doc, "export": self.exported}


def app_result(state: LiveState) -> str:
    return result_text.summary(state, ANSI).plain


async def run_views(spec: RunSpec, *, server_pid: int | None, interval_s: float) -> Views:
    request = RunRequest(spec, server_mode="pid" if server_pid else "none", server_pid=server_pid)
    job = await prepare_run(request, JobSettings(interval_s=interval_s))
    state = LiveState(job.spec)
    out = io.StringIO()
    printer = ProgressPrinter(out, job.spec)

    def listener(event: Event) -> None:
        state.apply(event)
        printer(event)

    finished = await job.controller(listener).run()
    assert isinstance(finished, RunFinished)
    session = store.load(finished.session_path)
    replay = LiveState(job.spec)
    for event in timeline(session).events:
        replay.apply(event)
    return Views(
        finished,
        out.getvalue().splitlines(),
        summary_text(finished),
        orjson.loads(orjson.dumps(run_payload(finished, job.spec.tool))),
        session.doc,
        export(session, "md"),
        orjson.loads(export(session, "json")),
        app_result(state),
        app_result(replay),
        monitor_text.header(state, job.label, paused=False, stopping=False).plain,
    )


def in_every_text(views: Views, line: str) -> None:
    """`line` ("server    cpu …") as each text view lays it out."""
    label, value = line.split(maxsplit=1)
    shown = {
        "summary": f"{label:<9} {value}",
        "md": f"| {label} | {value} |",
        "app": f"{label:<10} {value}",
        "replay": f"{label:<10} {value}",
    }
    for view, text in views.texts().items():
        assert shown[view] in text.splitlines(), f"{view}: {line!r} not in\n{text}"


def resource_line(resources: Mapping[str, Any]) -> str:
    def share(key: str) -> str:
        value = resources.get(key)
        return "–" if value is None else f"{value:.0f}%"

    return (
        f"server cpu mean {share('server_cpu_mean_pct')}, max {share('server_cpu_max_pct')}, "
        f"rss peak {fmt_bytes(resources.get('server_rss_max_bytes'))}"
    )


async def test_a_run_shorter_than_the_interval_has_its_server_figures(
    nginx: DemoTarget, sessions: Any
) -> None:
    need("ab")
    # A run of 1 s: long enough for a CPU figure (over 0.1 s) however fast the machine, which
    # a count of requests is not (5,000 took 0.16 s here).
    spec = RunSpec(urls=(nginx.urls["h1"],), tool="ab", duration_s=1, keepalive=True)
    # A tick a minute: none comes in a run of a second.
    views = await run_views(spec, server_pid=nginx.pid, interval_s=60.0)
    assert views.finished.result is not None
    assert (views.finished.result.duration_s or 0) < 30.0
    resources = views.payload["resources"]
    assert resources["server_rss_max_bytes"] > 0
    assert resources["server_cpu_mean_pct"] is not None
    for name, doc in views.documents().items():
        assert doc["resources"] == resources, name
    # A reading when the tool started and one when it ended.
    assert len(rows_of(views.doc["samples"]) or []) == 2
    in_every_text(views, resource_line(resources))
    # Over in a few milliseconds, too soon to tell CPU: the memory is known all the same.
    fifty = RunSpec(urls=spec.urls, tool="ab", requests=50, keepalive=True)
    tiny = await run_views(fifty, server_pid=nginx.pid, interval_s=60.0)
    assert tiny.payload["resources"]["server_rss_max_bytes"] > 0
    in_every_text(tiny, resource_line(tiny.payload["resources"]))


async def test_status_classes_count_the_requests_of_the_total(
    nginx: DemoTarget, sessions: Any
) -> None:
    need("h2load")
    # Many streams under way when -D ends: h2load's own status count runs ahead of its
    # total by the responses whose headers came in but whose streams it never closed.
    spec = RunSpec(urls=(nginx.urls["h2c"],), connections=50, streams=10, duration_s=1.0)
    views = await run_views(spec, server_pid=None, interval_s=0.5)
    result = views.doc["result"]
    total = result["requests"]["total"]
    assert sum(result["status"].values()) + result["requests"]["failed"] == total
    assert sum(row["2xx"] for row in rows_of(views.doc["series"]) or []) == result["status"]["2xx"]
    for name, doc in views.documents().items():
        got = doc if name == "json" else doc["result"]
        assert (got["status"], got["requests"]["total"]) == (result["status"], total), name
    status = ", ".join(f"{v:,} {k}" for k, v in result["status"].items())
    in_every_text(views, f"status {status}")
    # Nothing sampled of a server not looked for: unknown, never left out.
    in_every_text(views, "server cpu mean –, max –, rss peak –")


async def test_a_slow_log_step_at_the_end_loses_no_second(
    nginx: DemoTarget, sessions: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    need("h2load")
    # Each reading of the request log held up in its thread (0.5 s), so that the tool ends
    # (at 1.3 s) in the middle of the one that reads past the first second and its grace
    # (1.25 s): the second that step closes must still be a row.
    slow = LogFeed.step

    def held_up(self: LogFeed, now_s: float | None = None) -> list[Any]:
        time.sleep(0.5)
        return slow(self, now_s)

    monkeypatch.setattr(LogFeed, "step", held_up)
    spec = RunSpec(urls=(nginx.urls["h2c"],), connections=4, duration_s=1.3)
    views = await run_views(spec, server_pid=None, interval_s=0.5)
    result = views.doc["result"]
    assert (
        sum(row["requests"] for row in rows_of(views.doc["series"]) or [])
        == result["requests"]["total"]
    )


async def test_a_loop_busy_as_the_tool_ends_does_not_stretch_the_last_second(
    nginx: DemoTarget, sessions: Any
) -> None:
    need("h2load")
    # The event loop held up (as by a frame being painted) from just before the tool ends
    # (1.3 s) until well after (4.15 s): the run still ends when the tool did, so its last
    # second is the 0.3 s the tool ran in it (0.33 s measured, busy machine or not), not a
    # window stretched by the wait with no requests.
    spec = RunSpec(urls=(nginx.urls["h2c"],), connections=4, duration_s=1.3)
    job = await prepare_run(RunRequest(spec, server_mode="none"), JobSettings(interval_s=0.5))
    loop = asyncio.get_running_loop()
    state = LiveState(job.spec)

    def listener(event: Event) -> None:
        state.apply(event)
        if isinstance(event, RunStarted):
            loop.call_later(1.15, time.sleep, 3.0)

    finished = await job.controller(listener).run()
    assert isinstance(finished, RunFinished) and finished.session_path is not None
    series = store.load(finished.session_path).series
    assert [row["t_s"] for row in series] == [0, 1], series
    assert 0.3 <= series[-1]["window_s"] < 1.0, series[-1]
    # The live view's clock ends where the run did, not at the last tick before it.
    assert state.elapsed_s == pytest.approx(1 + series[-1]["window_s"], abs=0.002)
    header = monitor_text.header(state, job.label, paused=False, stopping=False).plain
    assert "elapsed 00:01" in header and "completed" in header


async def test_the_warm_up_is_shown_apart_from_the_measured_window(
    nginx: DemoTarget, sessions: Any
) -> None:
    need("h2load")
    spec = RunSpec(urls=(nginx.urls["h2c"],), connections=4, duration_s=1.0, warm_up_s=0.5)
    views = await run_views(spec, server_pid=None, interval_s=0.5)
    result = views.doc["result"]
    # h2load says `finished in 1.50s`; its req/s is over the 1 s after the warm-up.
    assert (result["duration_s"], result["warm_up_s"]) == (1.0, 0.5)
    assert result["rps"] == pytest.approx(result["requests"]["total"] / 1.0, abs=0.01)
    for name, doc in views.documents().items():
        got = doc if name == "json" else doc["result"]
        assert (got["duration_s"], got["warm_up_s"], got["rps"]) == (1.0, 0.5, result["rps"])
    in_every_text(views, f"duration {fmt_seconds(1.0)}")
    in_every_text(views, f"warm-up {fmt_seconds(0.5)} before it, not measured")
    in_every_text(views, f"req/s {fmt_count(result['rps'], 2)}")
    progress = "\n".join(views.progress)
    assert "100% of -d 1s after 500ms warm-up" in progress, progress
    assert "of -d 1.5s" not in progress
    # The live screen's header, as it ran.
    assert "mode -d 1s after 500ms warm-up" in views.header


async def test_a_duration_the_tool_rounds_is_said(nginx: DemoTarget, sessions: Any) -> None:
    need("ab")
    spec = RunSpec(urls=(nginx.urls["h1"],), tool="ab", duration_s=0.5, keepalive=True)
    views = await run_views(spec, server_pid=None, interval_s=0.5)
    argv = views.doc["argv"]
    assert argv[argv.index("-t") + 1] == "1"
    note = "ab runs whole seconds: -d 500ms runs 1s"
    assert {"code": "whole-seconds", "message": note} in views.doc["warnings"]
    assert f"warning: {note}" in views.progress
    assert f"> warning: {note}" in views.md
    assert note in views.app and note in views.replayed
    rounded = "-d 1s (500ms asked: ab runs whole seconds)"
    assert f"100% of {rounded}" in "\n".join(views.progress)
    assert f"mode {rounded}" in views.header
    # The run form's line of what it will start.
    assert rounded in describe(RunRequest(spec))
    # The second ab ran (1.000-1.001 s measured), not the half asked for.
    assert 0.9 < views.doc["result"]["duration_s"] < 1.5
