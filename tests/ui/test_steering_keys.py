"""The keys that steer a run: each asks the engine, a refusal is said in a line, `=` asks for
the rate in a dialog."""

from __future__ import annotations

from textual.widgets import Input

from tests.ui import help_text, screen_is
from tests.ui.test_live_screen import make_app, settle
from tui_bench.ui.widgets.dialogs import RateDialog


async def test_each_key_asks_the_engine_and_a_refusal_is_said() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        for key in ("plus", "minus", "right_square_bracket", "left_square_bracket", "space"):
            await pilot.press(key)
        await pilot.pause()
        (engine,) = app.engines  # type: ignore[attr-defined]
        assert [c for c, _ in engine.steered] == ["faster", "slower", "more", "fewer", "pause"]
        said = [n.message for n in app._notifications]
        assert said == ["a closed loop has no rate to change: run with --rate"]


async def test_equals_asks_for_the_rate_and_refuses_what_is_not_one() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("equals_sign")
        dialog = await screen_is(pilot, RateDialog, "the rate dialog")
        field = dialog.query_one("#rate", Input)
        field.value = "fast"
        await pilot.press("enter")
        assert "expected requests per second" in str(dialog.query_one("#why").render())
        field.value = "2.5k"
        await pilot.press("enter")
        await pilot.pause()
        (engine,) = app.engines  # type: ignore[attr-defined]
        assert engine.steered == [("set", 2500.0)]


async def test_the_steering_keys_are_in_help() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        shown = await help_text(pilot)
    for said in ("raise the rate 25 %", "set the rate", "pause / resume the load"):
        assert said in shown


async def test_a_steered_run_marks_its_segments_on_the_chart_and_in_the_header() -> None:
    from tui_bench.engine.events import SegmentStarted
    from tui_bench.ui.widgets.run_chart import SEGMENTS_LEGEND, RunChart

    first = SegmentStarted(0, 0.0, None, 16, "start")
    begun = SegmentStarted(1, 2.5, None, 14, "key", gap_s=0.0066)
    app = make_app(extra=[first, begun])
    async with app.run_test(size=(160, 48)) as pilot:
        live = await settle(pilot)
        while live.state.segment != begun:
            await pilot.pause()
        live.paint(force=True)
        await pilot.pause()
        assert list(live.state.segment_starts) == [2.5]
        assert live.query_one(RunChart).border_subtitle == SEGMENTS_LEGEND
        header = str(live.query_one("#header").render())
        assert "segment 2, gap 6.60 ms" in header
        assert "c14" in header
