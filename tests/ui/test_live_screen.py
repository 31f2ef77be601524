"""The live monitor driven by a scripted engine: no tool, no sleeps, no wall clock.

Elapsed time on screen comes from the events, so the fake's script fixes every number.
"""

from __future__ import annotations

import asyncio
import gc
import warnings
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import timedelta
from pathlib import Path
from typing import Any

from rich.text import Text
from textual.pilot import Pilot
from textual.widgets import Input, Label, RichLog, Static

from tests.factories import h2load_result
from tests.history_sessions import run_doc, save
from tests.ui import example_store, help_text, screen_is, until
from tests.ui.test_tones import styles_at
from tui_bench.engine.events import (
    Event,
    GeneratorsSeen,
    GeneratorView,
    OutputLine,
    Progress,
    ResourcesSampled,
    RunFinished,
    RunStarted,
    SecondClosed,
)
from tui_bench.records.warning import Warning
from tui_bench.sampling.samples import ResourceSample
from tui_bench.sampling.summaries import summarize
from tui_bench.spec import RunSpec
from tui_bench.storage import store
from tui_bench.storage.catalog import previous_run, rows_of
from tui_bench.ui.app import TuibenchApp
from tui_bench.ui.screens.compare_screen import CompareScreen
from tui_bench.ui.screens.live_screen import LiveScreen
from tui_bench.ui.screens.monitor_screen import PAINT_EVERY, chart_fits
from tui_bench.ui.tones import tones_of
from tui_bench.ui.widgets.dialogs import ConfirmQuit, LabelDialog
from tui_bench.ui.widgets.metric_panel import MetricPanel
from tui_bench.ui.widgets.run_chart import READABLE_HEIGHT, RunChart
from tui_bench.ui.widgets.zero_sparkline import ZeroSparkline

SPEC = RunSpec(urls=("http://127.0.0.1:8080/",), connections=16, duration_s=10.0, streams=10)
SESSION = Path("/tmp/tuibench-sessions/20260101-120000-h2load-demo.json")
H2C_EXAMPLE = "20261121-112049-153-h2load-h2c-m10"
H1_EXAMPLE = "20261121-112050-592-h2load-h1-duration-warmup"
RESULT = h2load_result(duration_s=10.0, rps=40321.5, total=403215, failed=15)


def sample(t: float, client_thread_pct: float) -> ResourceSample:
    return ResourceSample(
        t_s=t,
        server_cpu_pct=120.0 + 10 * t,
        server_rss_bytes=int((40 + t) * 2**20),
        server_uss_bytes=None,
        server_pss_bytes=None,
        server_procs=5,
        server_threads=5,
        server_fds=64,
        system_cpu_pct=(95.0, 60.0, 30.0, 5.0),
        system_mem_used_bytes=3 * 2**30,
        system_mem_total_bytes=16 * 2**30,
        client_cpu_pct=client_thread_pct,
        client_thread_max_pct=client_thread_pct,
        sampler_cpu_pct=0.5,
    )


# What the scripted run's samples cost, as the engine sums them up.
RESOURCES = summarize([sample(t, 95.0) for t in range(6)])


def script(seconds: int = 6) -> list[Event]:
    events: list[Event] = [
        RunStarted("s1", ("h2load", "-c", "16", "-D", "10", "http://127.0.0.1:8080/"), 4242),
        OutputLine("stdout", "starting benchmark...\n"),
    ]
    for t in range(seconds):
        rps = 38000.0 + 800 * t
        errors = 3 if t == 2 else 0
        events += [
            OutputLine("stdout", f"progress line {t}\n"),
            SecondClosed(
                {
                    "t_s": t,
                    "rps": rps,
                    "good_rps": rps - errors,
                    "errors": errors,
                    "2xx": int(rps) - errors,
                    "3xx": 0,
                    "4xx": 0,
                    "5xx": errors,
                    "n": int(rps),
                    "p50_s": 0.0030 + 0.0001 * t,
                    "p90_s": 0.0060 + 0.0002 * t,
                    "p99_s": 0.0100 + 0.0005 * t,
                    "max_s": 0.0250,
                    "overall_p50_s": 0.0030 + 0.00005 * t,
                    "overall_p90_s": 0.0060 + 0.0001 * t,
                    "overall_p99_s": 0.0100 + 0.00025 * t,
                    "server_cpu_pct": 120.0 + 10 * t,
                    "server_rss_bytes": int((40 + t) * 2**20),
                    "client_cpu_pct": 60.0 + 7 * t,
                }
            ),
            ResourcesSampled(sample(t + 1, 60.0 + 7 * t)),
            Progress(t + 1.0, (t + 1) / 10, None, None),
        ]
    return events


class ScriptedEngine:
    """Posts its script at once; with `hold`, then waits to be stopped like a duration run."""

    def __init__(
        self,
        listener: Callable[[Event], None],
        events: Sequence[Event],
        hold: bool,
        session: Path = SESSION,
    ) -> None:
        self.session = session
        self.listener = listener
        self.events = events
        self.hold = hold
        self.stopped = asyncio.Event()
        self.runs = 0
        self.steered: list[tuple[str, float | None]] = []

    async def run(self) -> RunFinished:
        for event in self.events:
            self.listener(event)
        if self.hold:
            await self.stopped.wait()
        status = "interrupted" if self.stopped.is_set() else "completed"
        shared = Warning("same-machine", "the load generator runs on the server's box")
        warned = (*(e for e in self.events if isinstance(e, Warning)), shared)
        finished = RunFinished(
            status, 0, RESULT, self.session, None, resources=RESOURCES, warnings=warned
        )
        self.listener(shared)
        self.listener(finished)
        return finished

    def stop(self) -> None:
        self.stopped.set()

    def steer(self, change: str, value: float | None = None) -> str | None:
        self.steered.append((change, value))
        return (
            "a closed loop has no rate to change: run with --rate" if change == "faster" else None
        )


def make_app(
    *,
    hold: bool = True,
    basic: bool = False,
    sessions: Sequence[Path] = (),
    extra: Sequence[Event] = (),
    **kwargs: Any,
) -> TuibenchApp:
    """`sessions`: the files the runs save, one per run (else a path that does not exist);
    `extra`: events posted after the script."""
    engines: list[ScriptedEngine] = []

    def factory(spec: RunSpec, listener: Callable[[Event], None]) -> ScriptedEngine:
        saved = sessions[len(engines)] if len(engines) < len(sessions) else SESSION
        engine = ScriptedEngine(listener, [*script(), *extra], hold, saved)
        engines.append(engine)
        return engine

    app = TuibenchApp(
        lambda app: LiveScreen(SPEC, factory, tool_label="h2load 1.52.0", basic=basic), **kwargs
    )
    app.engines = engines  # type: ignore[attr-defined]
    return app


async def settle(pilot: Pilot[Any]) -> LiveScreen:
    """Wait until the engine has posted its script, then paint once."""
    app = pilot.app
    assert isinstance(app, TuibenchApp)
    live = app.job
    assert isinstance(live, LiveScreen)
    while live.state.version < len(script()):
        await pilot.pause()
    live.paint(force=True)
    await pilot.pause()
    return live


def text_of(live: LiveScreen, selector: str) -> str:
    widget = live.query_one(selector)
    if isinstance(widget, MetricPanel):
        widget = widget.query_one(".body", Static)
    assert isinstance(widget, Static)
    return str(widget.render())


async def test_panels_show_the_latest_second() -> None:
    async with make_app().run_test(size=(120, 40)) as pilot:
        live = await settle(pilot)
        assert "42,000 req/s" in text_of(live, "#throughput")
        assert "40,000 req/s" in text_of(live, "#throughput")  # overall: mean of 6 seconds
        assert "p99 12.50 ms" in text_of(live, "#latency")
        assert live.query_one("#latency").border_subtitle == "n 42k"
        assert "whole run p50 3.25 ms  p99 11.25 ms" in text_of(live, "#latency")
        assert "errors 3" in text_of(live, "#status")
        assert "procs 5" in text_of(live, "#server")
        assert "ETA 00:04" in text_of(live, "#header")
        assert "c16 t1 m10" in text_of(live, "#header")
        assert "CLIENT-BOUND" in text_of(live, "#client")
        assert live.query_one("#client").has_class("-alert")
        assert not live.query_one("#result").display


async def test_stop_ends_the_run_with_a_summary_and_r_runs_it_again() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        live = await settle(pilot)
        await pilot.press("s")
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert live.state.status == "interrupted"
        summary = text_of(live, "#summary")
        assert "interrupted" in summary and str(SESSION) in summary and "40,321.50" in summary
        assert "the load generator runs on the server's box" in summary
        assert live.query_one("#result").display
        await pilot.press("r")
        live = await settle(pilot)
        assert live.state.status == "running"
        assert not live.query_one("#result").display
        assert len(app.engines) == 2  # type: ignore[attr-defined]


async def test_a_new_second_is_painted_at_the_next_tick_and_the_rest_once_a_second() -> None:
    async with make_app().run_test(size=(120, 40)) as pilot:
        live = await settle(pilot)
        # From a frame just painted: where the app's own clock left the count is its timing.
        live.paint(force=True)
        painted = []
        for tick in range(2 * PAINT_EVERY):
            live.state.apply(Progress(10.0 + tick, None, None, None))
            before = text_of(live, "#header")
            live.paint()
            painted.append(text_of(live, "#header") != before)
        assert painted == 2 * ([False] * (PAINT_EVERY - 1) + [True])
        live.state.apply(SecondClosed({"t_s": 6, "rps": 51_000.0, "n": 51_000}))
        live.paint()
        assert "51,000 req/s" in text_of(live, "#throughput")


async def test_the_load_starts_once_the_first_frame_is_on_the_screen() -> None:
    shown_at_start: list[bool] = []

    class Watching(ScriptedEngine):
        async def run(self) -> RunFinished:
            header = app.screen.query_one("#header", Static)
            shown_at_start.append(bool(header.region) and "h2load" in str(header.render()))
            return await super().run()

    def factory(spec: RunSpec, listener: Callable[[Event], None]) -> ScriptedEngine:
        return Watching(listener, script(), hold=False)

    app = TuibenchApp(
        lambda app: LiveScreen(SPEC, factory, tool_label="h2load 1.52.0", basic=False)
    )
    async with app.run_test(size=(120, 40)):
        await app.workers.wait_for_complete()
    assert shown_at_start == [True]


async def test_pause_freezes_painting_until_resumed() -> None:
    async with make_app().run_test(size=(120, 40)) as pilot:
        live = await settle(pilot)
        await pilot.press("p")
        assert "PAUSED" in text_of(live, "#header")
        live.state.apply(Progress(9.0, 0.9, None, None))
        live.paint()
        assert "ETA 00:04" in text_of(live, "#header")
        await pilot.press("p")  # resuming paints at once, whatever the clock
        assert "ETA 00:01" in text_of(live, "#header")
        assert "PAUSED" not in text_of(live, "#header")


async def test_log_and_chart_toggle() -> None:
    async with make_app().run_test(size=(160, 48)) as pilot:
        live = await settle(pilot)
        log = live.query_one(RichLog)
        chart = live.query_one(RunChart)
        assert not log.display and chart.display
        await pilot.press("l")
        assert log.display
        assert len(log.lines) == len(live.state.output)
        live.state.apply(OutputLine("stderr", "late line\n"))
        live.paint(force=True)  # the script is client-bound: an unforced frame may be skipped
        assert log.lines[-1].text == "late line"
        await pilot.press("c")
        assert not chart.display
        await pilot.press("c", "l")
        assert chart.display and not log.display


async def test_small_terminal_and_basic_mode_start_without_the_chart() -> None:
    async with make_app().run_test(size=(80, 24)) as pilot:
        live = await settle(pilot)
        assert not live.query_one(RunChart).display
    async with make_app(basic=True).run_test(size=(160, 48)) as pilot:
        live = await settle(pilot)
        await pilot.press("c")
        assert not live.query_one(RunChart).display


def assert_figures_show(live: LiveScreen) -> None:
    """Every panel's figures lie whole on the screen: none is an empty border."""
    screen = live.region
    for panel in live.query(MetricPanel):
        body = panel.query_one(".body", Static)
        lines = len(text_of(live, f"#{panel.id}").splitlines())
        assert body.region.height >= lines, (panel.id, body.region, lines)
        assert screen.contains_region(body.region), (panel.id, body.region)


async def test_a_live_resize_from_wide_to_small_keeps_every_panels_figures() -> None:
    async with make_app().run_test(size=(160, 48)) as pilot:
        live = await settle(pilot)
        assert live.query_one(RunChart).display
        # Short, the chart the tall screen showed gives its room back; tall again, it is back.
        for width, height, charted in ((80, 24, False), (160, 48, True)):
            await pilot.resize_terminal(width, height)
            await pilot.pause()
            assert live.query_one(RunChart).display == charted
            assert_figures_show(live)


async def test_the_chart_asked_for_where_it_cannot_be_read_is_refused_in_words() -> None:
    async with make_app().run_test(size=(80, 24)) as pilot:
        live = await settle(pilot)
        await pilot.press("c")
        await pilot.pause()
        assert not live.query_one(RunChart).display
        assert [n.message for n in pilot.app._notifications] == [
            "too small for a readable chart beside the panels"
        ]
        assert_figures_show(live)
        # Asked for, it shows once the screen has room for it.
        await pilot.resize_terminal(120, 40)
        await pilot.pause()
        assert live.query_one(RunChart).display
        assert live.query_one(RunChart).size.height >= READABLE_HEIGHT - 2


def test_the_chart_is_shown_only_where_it_gets_a_readable_height() -> None:
    assert chart_fits(120, 40, ended=False) and chart_fits(80, 40, ended=False)
    assert not chart_fits(80, 36, ended=False) and not chart_fits(80, 24, ended=False)
    # Ended, the result takes its share of the screen too.
    assert not chart_fits(120, 40, ended=True) and chart_fits(160, 48, ended=True)
    assert not chart_fits(80, 48, ended=True)

    def least(width: int, ended: bool) -> int:
        fits = [chart_fits(width, h, ended=ended) for h in range(100)]
        # Once it fits, it fits at every greater height.
        assert fits == sorted(fits)
        return fits.index(True)

    # As the README says.
    assert [least(120, False), least(80, False), least(120, True), least(80, True)] == [
        31,
        38,
        44,
        53,
    ]


async def test_a_run_ending_small_with_the_chart_on_shows_its_key_figures() -> None:
    async with make_app().run_test(size=(80, 24)) as pilot:
        live = await settle(pilot)
        await pilot.press("c")
        await pilot.press("s")
        await pilot.app.workers.wait_for_complete()
        live.paint(force=True)
        await pilot.pause()
        summary = live.query_one("#summary", Static)
        lines = str(summary.render()).splitlines()
        # The key figures right under the status, inside the part of the panel on screen.
        shown = lines[: summary.content_region.height]
        assert any(line.startswith("req/s      40,321.50") for line in shown), lines
        assert any(line.startswith("latency    min 100 µs") for line in shown), lines
        assert live.region.contains_region(summary.content_region)


async def test_the_result_says_what_the_run_cost_the_server_and_the_generator() -> None:
    async with make_app().run_test(size=(120, 40)) as pilot:
        live = await settle(pilot)
        await pilot.press("s")
        await pilot.app.workers.wait_for_complete()
        live.paint(force=True)
        text = str(live.query_one("#summary", Static).render())
        # The scripted samples: server 120 % + 10 %/s over 0..5 s, 40 + t MiB; client 95 %.
        assert "server     cpu mean 145%, max 170%, rss peak 45.00 MiB" in text
        assert "client     cpu mean 95%, max 95%" in text


async def test_expand_shows_only_the_focused_panel() -> None:
    async with make_app().run_test(size=(80, 24)) as pilot:
        live = await settle(pilot)
        live.query_one("#latency").focus()
        await pilot.press("e")
        shown = [p.id for p in live.query(MetricPanel) if p.display]
        assert shown == ["latency"]
        # Its sparkline takes the room the others left, not one row over empty ones.
        panel = live.query_one("#latency", MetricPanel)
        spark = panel.query_one(ZeroSparkline)
        await until(pilot, lambda: spark.size.height > 5, "the sparkline grown")
        assert panel.size.height - spark.size.height <= 4
        await pilot.press("e")
        assert all(p.display for p in live.query(MetricPanel))


async def test_help_lists_every_key() -> None:
    async with make_app().run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        text = await help_text(pilot)
        for word in ("stop the run", "pause", "raw output", "big chart", "theme", "run the same"):
            assert word in text
        await pilot.press("escape")
        assert isinstance(pilot.app.screen, LiveScreen)


async def test_quit_during_a_run_asks_and_no_keeps_running() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        live = await settle(pilot)
        await pilot.press("q")
        assert isinstance(app.screen, ConfirmQuit)
        await pilot.press("n")
        assert isinstance(app.screen, LiveScreen) and live.state.running


async def test_quit_confirmed_stops_saves_and_exits_130() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("q", "y")
        await app.workers.wait_for_complete()
        await pilot.pause()
    assert app.return_value == 130
    assert app.finished is not None and app.finished.session_path == SESSION


async def test_the_runs_end_closes_the_quit_question() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        live = await settle(pilot)
        await pilot.press("q")
        assert isinstance(app.screen, ConfirmQuit)
        # The run ends (stopped from elsewhere: interrupted) just as `q` was pressed.
        app.engines[0].stop()  # type: ignore[attr-defined]
        await screen_is(pilot, LiveScreen, "the finished run, asked nothing")
        assert live.state.finished is not None and app.return_code is None
        await pilot.press("q")
    # Left at once, asked nothing more, with the ended run's status.
    assert app.return_value == 130


def test_quitting_just_after_run_again_leaves_no_coroutine_unawaited() -> None:
    async def again_and_quit() -> None:
        app = make_app(hold=False)
        async with app.run_test(size=(80, 24)):
            await app.workers.wait_for_complete()
            live = app.job
            assert isinstance(live, LiveScreen)
            # `r`, and the quit cancelling the new run's worker before it has started.
            live.action_rerun()
            app.workers.cancel_all()
            app.exit(0)

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        asyncio.run(again_and_quit())
        gc.collect()
    assert [str(w.message) for w in caught if "never awaited" in str(w.message)] == []


async def test_ctrl_c_stops_the_run_keeping_it_and_a_second_one_leaves() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        live = await settle(pilot)
        await pilot.press("ctrl+c")
        await app.workers.wait_for_complete()
        await pilot.pause()
        # Stopped, not asked about quitting: the screen shows what was measured.
        assert isinstance(app.screen, LiveScreen) and live.state.status == "interrupted"
        assert "40,321.50" in text_of(live, "#summary")
        assert app.return_code is None
        await pilot.press("ctrl+c")
    assert app.return_value == 130


async def test_ctrl_c_twice_while_the_run_stops_leaves_once_it_is_saved() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+c", "ctrl+c")
        await app.workers.wait_for_complete()
        await pilot.pause()
    assert app.return_value == 130
    assert app.finished is not None and app.finished.session_path == SESSION


async def test_quit_after_a_completed_run_exits_0_without_asking() -> None:
    app = make_app(hold=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.press("q")
    assert app.return_value == 0


async def test_theme_cycles_through_tuibench_themes_only() -> None:
    app = make_app(theme="textual-dark")
    seen = []
    async with app.run_test(size=(120, 40)) as pilot:
        for _ in range(4):
            await pilot.press("t")
            seen.append(app.theme)
    assert seen == ["tuibench-256", "tuibench-dark", "tuibench-light", "tuibench-256"]


def body(live: LiveScreen, panel: str) -> Text:
    content = live.query_one(f"#{panel}", MetricPanel).query_one(".body", Static).content
    assert isinstance(content, Text)
    return content


async def test_t_repaints_errors_and_warnings_in_the_next_themes_colours() -> None:
    app = make_app(hold=False, theme="tuibench-dark")
    async with app.run_test(size=(120, 40)) as pilot:
        await app.workers.wait_for_complete()
        live = app.job
        assert isinstance(live, LiveScreen)
        await until(pilot, lambda: "! " in body(live, "warnings").plain, "the ended run painted")
        dark = tones_of(live)
        # Ended: the tool's summary counts (15), not the rows' sum.
        assert f"bold {dark.error}" in styles_at(body(live, "status"), "errors 15")
        assert f"bold {dark.warning}" in styles_at(body(live, "warnings"), "! ")
        throughput = body(live, "throughput")
        await pilot.press("t")
        assert app.theme == "tuibench-light"
        light = tones_of(live)
        assert (light.error, light.warning) != (dark.error, dark.warning)
        await until(
            pilot,
            lambda: f"bold {light.error}" in styles_at(body(live, "status"), "errors 15"),
            "the error count in the light theme's colour",
        )
        assert f"bold {light.warning}" in styles_at(body(live, "warnings"), "! ")
        summary = live.query_one("#summary", Static).content
        assert isinstance(summary, Text) and light.warning in styles_at(summary, "warning ")
        # Nothing of the run changed: text without a tone is not painted again.
        assert body(live, "throughput") is throughput


def test_unknown_theme_is_a_usage_error() -> None:
    from tui_bench.errors import UsageError

    try:
        make_app(theme="no-such-theme")
    except UsageError as exc:
        assert "no-such-theme" in str(exc)
    else:
        raise AssertionError("expected UsageError")


async def _mid_run(pilot: Pilot[Any]) -> None:
    await settle(pilot)


async def _ended(pilot: Pilot[Any]) -> None:
    live = await settle(pilot)
    await pilot.press("s")
    await pilot.app.workers.wait_for_complete()
    live.paint(force=True)
    await pilot.pause()


def test_snapshot_mid_run_80x24(snap_compare: Any) -> None:
    assert snap_compare(make_app(), terminal_size=(80, 24), run_before=_mid_run)


def test_snapshot_mid_run_160x48(snap_compare: Any) -> None:
    assert snap_compare(make_app(), terminal_size=(160, 48), run_before=_mid_run)


def test_snapshot_ended_80x24(snap_compare: Any) -> None:
    assert snap_compare(make_app(), terminal_size=(80, 24), run_before=_ended)


# Enough to make the result longer than an 80x24 screen has room for.
MORE_WARNINGS = [
    Warning("keepalive", "the server closed connections: they were not reopened"),
    Warning("stall", "a stall of 1.2 s was seen by max only; p99 hides it from view"),
    Warning("errors", "15 of 403,215 requests failed"),
    Warning("client-bound", "the load generator used 95% of its CPU: the figures may be its"),
    Warning("warm-up", "no warm-up: the first second's cold caches are in the figures"),
    Warning("few-samples", "p99.9 rests on 40 requests: too few to tell"),
]


async def test_an_ended_result_longer_than_the_screen_scrolls_to_its_end() -> None:
    async with make_app(extra=MORE_WARNINGS).run_test(size=(80, 24)) as pilot:
        await _ended(pilot)
        live = pilot.app.screen
        result = live.query_one("#result")
        # The panels gave way to the result, which has the focus: ↓ and PgDn are its.
        assert pilot.app.focused is result
        await until(pilot, lambda: result.max_scroll_y > 0, "a result longer than its room")
        await pilot.press("pagedown", "pagedown", "pagedown")
        await until(pilot, lambda: result.scroll_y == result.max_scroll_y, "the end")
        summary = live.query_one("#summary", Static)
        # The last row on screen is the result's last (its lines as wrapped).
        shown = result.scrollable_content_region.height
        assert summary.outer_size.height > shown
        assert result.scroll_y + shown == summary.outer_size.height


def test_snapshot_ended_80x24_scrolled_to_the_end(snap_compare: Any) -> None:
    async def scrolled(pilot: Pilot[Any]) -> None:
        await _ended(pilot)
        await pilot.press("end")
        # The scroll animates: waited for to its end, not for a time it may overrun.
        await pilot.wait_for_scheduled_animations()
        await pilot.pause()

    assert snap_compare(make_app(extra=MORE_WARNINGS), terminal_size=(80, 24), run_before=scrolled)


def test_snapshot_mid_run_120x40(snap_compare: Any) -> None:
    assert snap_compare(make_app(), terminal_size=(120, 40), run_before=_mid_run)


def test_snapshot_ended_120x40(snap_compare: Any) -> None:
    assert snap_compare(make_app(), terminal_size=(120, 40), run_before=_ended)


def test_snapshot_ended_160x48(snap_compare: Any) -> None:
    assert snap_compare(make_app(), terminal_size=(160, 48), run_before=_ended)


def test_snapshot_quit_confirmation_80x24(snap_compare: Any) -> None:
    async def ask(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        await pilot.press("q")

    assert snap_compare(make_app(), terminal_size=(80, 24), run_before=ask)


GENERATORS = GeneratorsSeen(
    (
        GeneratorView("bench-c", "h2load", "1.52.0", 25_100.0, 0.6, 180.0, 93.0),
        GeneratorView("root@bench-d:2222", "h2load", "1.52.0", 16_700.0, 0.4, 95.0, 48.0),
        GeneratorView("bench-e", "h2load", "1.52.0", None, None, lost="bench-e: lost"),
    )
)


def test_snapshot_generators_80x24(snap_compare: Any) -> None:
    assert snap_compare(make_app(extra=[GENERATORS]), terminal_size=(80, 24), run_before=_mid_run)


async def test_the_generators_panel_names_each_and_the_saturated_one() -> None:
    app = make_app(extra=[GENERATORS])
    async with app.run_test(size=(120, 40)) as pilot:
        live = await settle(pilot)
        await until(pilot, lambda: live.state.generators != ())
        live.paint(force=True)
        panel = live.query_one("#client", MetricPanel)
        assert panel.border_title == "Load generators (3)"
        lines = text_of(live, "#client").splitlines()
        assert lines[0] == "bench-c 25.1k req/s 60%  cpu 180% CLIENT-BOUND"
        assert lines[1] == "root@bench-d:2222 16.7k req/s 40%  cpu 95%"
        assert lines[2] == "bench-e lost"
        assert panel.has_class("-alert")


async def test_n_labels_the_saved_session(tmp_path: Path) -> None:
    saved = example_store(tmp_path) / f"{H2C_EXAMPLE}.json"
    app = make_app(hold=False, sessions=[saved])
    async with app.run_test(size=(120, 40)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.press("n")
        await screen_is(pilot, LabelDialog, "the label dialog")
        assert app.screen.query_one("#name", Input).value == "h2c-m10"
        app.screen.query_one("#name", Input).value = "baseline"
        app.screen.query_one("#tags", Input).value = "nginx-1.22, tuned"
        await pilot.press("ctrl+s")
        await until(pilot, lambda: store.load(saved).name == "baseline", "the labels saved")
    doc = store.load(saved).doc
    assert doc["tags"] == ["nginx-1.22", "tuned"] and doc["result"]["rps"] == 42915.14


async def test_v_compares_with_the_run_before(tmp_path: Path) -> None:
    directory = example_store(tmp_path)
    first, second = directory / f"{H2C_EXAMPLE}.json", directory / f"{H1_EXAMPLE}.json"
    app = make_app(hold=False, sessions=[first, second])
    async with app.run_test(size=(120, 40)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.press("r")
        await until(pilot, lambda: len(app.engines) == 2, "the second run")  # type: ignore[attr-defined]
        await app.workers.wait_for_complete()
        await pilot.press("v")
        await screen_is(pilot, CompareScreen, "the comparison")
        screen = app.screen
        assert isinstance(screen, CompareScreen)
        assert (screen.a.session.name, screen.b.session.name) == ("h2c-m10", "h1-duration-warmup")


def test_previous_run_is_the_newest_earlier_one_on_the_same_urls(tmp_path: Path) -> None:
    rows = rows_of(store.list_sessions(example_store(tmp_path)))
    by_name = {r.name: r for r in rows}
    h2c = by_name["h2c-m10"]
    assert previous_run(rows, h2c.path).path is None  # the only run on its URL
    assert h2c.started is not None
    later = replace(h2c, path=tmp_path / "later.json", started=h2c.started + timedelta(hours=1))
    assert previous_run([*rows, later], later.path).path == h2c.path


def saved_runs(directory: Path, *runs: tuple[str, int, str, str]) -> list[Path]:
    """Sessions of one benchmark, each (name, day, status, verdict)."""
    paths = []
    for name, day, status, verdict in runs:
        doc = run_doc(name, day, 40_000.0, 0.01, status=status)
        doc["validity"]["verdict"] = verdict
        paths.append(save(directory, doc))
    return paths


async def compare_after(app: TuibenchApp, pilot: Pilot[Any]) -> CompareScreen:
    await app.workers.wait_for_complete()
    await pilot.press("v")
    screen = await screen_is(pilot, CompareScreen, "the comparison")
    assert isinstance(screen, CompareScreen)
    return screen


async def test_v_passes_over_interrupted_and_invalid_runs_and_says_so(tmp_path: Path) -> None:
    *_, now = saved_runs(
        tmp_path,
        ("base", 0, "completed", "valid"),
        ("stopped", 1, "interrupted", "invalid"),
        ("bad", 2, "completed", "invalid"),
        ("now", 3, "completed", "valid"),
    )
    app = make_app(hold=False, sessions=[now])
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await compare_after(app, pilot)
        assert (screen.a.session.name, screen.b.session.name) == ("base", "now")
        [note] = [n for n in app._notifications if "passed over" in n.message]
        assert note.message == (
            "passed over bad (invalid), stopped (interrupted): "
            "compared with the last completed, valid run before"
        )
        assert note.severity == "warning"


async def test_v_with_only_unfit_runs_before_compares_nothing_and_says_why(
    tmp_path: Path,
) -> None:
    *_, now = saved_runs(
        tmp_path, ("stopped", 1, "interrupted", "invalid"), ("now", 3, "completed", "valid")
    )
    app = make_app(hold=False, sessions=[now])
    async with app.run_test(size=(120, 40)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.press("v")
        await until(pilot, lambda: bool(app._notifications), "the warning")
        assert isinstance(app.screen, LiveScreen)
        [note] = app._notifications
        assert note.message == (
            "no earlier completed, valid run of this tool on these URLs "
            "(passed over: stopped (interrupted))"
        )
        assert note.severity == "warning"


async def test_v_after_again_passes_over_the_stopped_run_before_it(tmp_path: Path) -> None:
    base, stopped, now = saved_runs(
        tmp_path,
        ("base", 0, "completed", "valid"),
        ("stopped", 1, "interrupted", "invalid"),
        ("now", 3, "completed", "valid"),
    )
    app = make_app(sessions=[stopped, now])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("s")
        await app.workers.wait_for_complete()
        await pilot.press("r")
        await until(pilot, lambda: len(app.engines) == 2, "the second run")  # type: ignore[attr-defined]
        await settle(pilot)
        await pilot.press("s")
        screen = await compare_after(app, pilot)
        assert (screen.a.session.path, screen.b.session.path) == (base, now)
        assert any("passed over stopped (interrupted)" in n.message for n in app._notifications)


async def test_an_ended_run_shows_whole_run_figures_and_keeps_its_sparklines() -> None:
    async with make_app().run_test(size=(120, 40)) as pilot:
        live = await _ended_live(pilot)
        throughput = text_of(live, "#throughput")
        # The result's req/s, not the last (partial) window's.
        assert "overall 40,322 req/s" in throughput and "now" not in throughput
        assert live.query_one("#latency").border_title == "Latency (whole run)"
        assert text_of(live, "#latency").splitlines() == [
            "p50 3.50 ms  p90 –",
            "p99 12.00 ms  max 31.00 ms",
        ]
        assert live.query_one("#latency").border_subtitle == "n 400k"
        # The generator has exited: what it used while it ran, not `–`.
        assert text_of(live, "#client") == "cpu mean 95%  max 95%"
        assert text_of(live, "#server").splitlines()[0] == "cpu mean 145%  max 170%"
        assert "error rate 0.00%" in text_of(live, "#status")
        for spark in live.query(ZeroSparkline):
            assert spark.data and spark.region.height == 1, spark.name
            assert live.region.contains_region(spark.region)


async def _ended_live(pilot: Pilot[Any]) -> LiveScreen:
    live = await settle(pilot)
    await pilot.press("s")
    await pilot.app.workers.wait_for_complete()
    live.paint(force=True)
    await pilot.pause()
    return live


def top_label(live: LiveScreen, panel: str, name: str) -> str:
    return str(live.query_one(f"#{panel} .top.-{name}", Label).content)


async def test_a_sparklines_scale_is_never_below_the_figure_beside_it() -> None:
    async with make_app().run_test(size=(120, 40)) as pilot:
        live = await settle(pilot)
        # The last sample (96 % client CPU) is newer than the last closed second's 95 %.
        live.state.apply(ResourcesSampled(sample(7.0, 96.0)))
        live.paint(force=True)
        await pilot.pause()
        assert "cpu 96%" in text_of(live, "#client")
        assert top_label(live, "client", "cpu") == "≤96%"
        spark = live.query_one("#client ZeroSparkline", ZeroSparkline)
        assert spark.top == 96.0 and max(spark.data or []) == 95.0
        # Ended: the scale reaches the maximum over every sample, the figure shown.
        await pilot.press("s")
        await pilot.app.workers.wait_for_complete()
        live.paint(force=True)
        await pilot.pause()
        assert "max 170%" in text_of(live, "#server")
        assert top_label(live, "server", "cpu") == "≤170%"
