"""The compare screen on the example sessions (and a longer synthetic run): keys, layout,
colours by direction, export."""

from __future__ import annotations

import io
import math
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console, RenderableType
from rich.table import Table
from rich.text import Text
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import Static

from tui_bench.analysis.compare import Difference, compare_metrics
from tui_bench.storage import store
from tui_bench.storage.session import Session
from tui_bench.ui.app import TuibenchApp
from tui_bench.ui.compare_screen import (
    CompareScreen,
    change_style,
    differences_line,
    metrics_table,
)
from tui_bench.ui.messages import OpenCompare
from tui_bench.ui.widgets.compare_chart import CompareChart
from tui_bench.ui.widgets.dialogs import HelpScreen

EXAMPLES = Path(__file__).parents[2] / "sessions"


def example_path(name: str) -> Path:
    (path,) = EXAMPLES.glob(f"*-{name}.json")
    return path


def example(name: str) -> Session:
    return store.load(example_path(name))


H2C = "h2c-m10"
H1 = "h1-duration-warmup"


@pytest.fixture(autouse=True)
def utc(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Start times are shown in local time: fix it for the snapshots."""
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def long_run(base: Session, seconds: int, rps: float, name: str) -> Session:
    """`base` with a synthetic series of `seconds` rows: slow waves; p99 and CPU follow rps."""
    rows = []
    for t in range(seconds):
        wave = math.sin(t / 40)
        rows.append(
            {
                "t_s": t,
                "rps": rps * (1 + 0.1 * wave),
                "p99_s": 100 / rps * (1 - 0.2 * wave),
                "server_cpu_pct": rps / 600 * (1 + 0.1 * wave),
            }
        )
    return Session({**base.doc, "name": name, "series": rows})


def make_app(a: Session, b: Session, **kwargs: Any) -> TuibenchApp:
    return TuibenchApp(lambda app: CompareScreen(a, b), **kwargs)


def plain(renderable: RenderableType, width: int = 160) -> str:
    console = Console(width=width, file=io.StringIO(), color_system=None)
    with console.capture() as capture:
        console.print(renderable)
    return capture.get()


def text_of(screen: Screen[Any], selector: str) -> str:
    content = screen.query_one(selector, Static).content
    assert isinstance(content, (Text, Table))
    return plain(content)


async def compare_screen(pilot: Pilot[Any]) -> CompareScreen:
    while not isinstance(pilot.app.screen, CompareScreen):
        await pilot.pause()
    return pilot.app.screen


async def test_header_metrics_and_differences() -> None:
    async with make_app(example(H2C), example(H1)).run_test(size=(160, 48)) as pilot:
        screen = await compare_screen(pilot)
        header = text_of(screen, "#sessions").splitlines()
        assert "h2c-m10" in header[0] and "http://127.0.0.1:49249/" in header[0]
        assert "h1-duration-warmup" in header[1] and "h2load 1.52.0" in header[1]
        assert "2026-11-21 11:20" in header[1]
        verdict = text_of(screen, "#verdict")
        assert "7 set-up differences" in verdict and "connections" in verdict
        assert verdict.rstrip().endswith("; 1 unknown")
        metrics = text_of(screen, "#metrics")
        assert "42,915" in metrics and "41,563" in metrics and "-3.1%" in metrics
        differences = text_of(screen, "#differences")
        assert "50,000 requests" in differences and "--warm-up-time 1000ms" in differences
        assert screen.query_one("#differences").border_title == "Set-up differences"
        assert screen.has_class("-wide")


async def test_narrow_stacks_everything_in_one_scrolling_column() -> None:
    async with make_app(example(H2C), example(H1)).run_test(size=(80, 24)) as pilot:
        screen = await compare_screen(pilot)
        await pilot.pause()
        parts = [screen.query_one(f"#{name}") for name in ("metrics", "differences", "charts")]
        assert [p.region.x for p in parts] == [0, 0, 0]
        assert parts[0].region.y < parts[1].region.y < parts[2].region.y
        body = screen.query_one("#body")
        assert body.max_scroll_y > 0
        await pilot.press("end")
        while body.scroll_y < body.max_scroll_y:
            await pilot.pause()
        chart = screen.query_one("#cpu-chart")
        assert chart.region.bottom <= body.region.bottom


async def test_same_set_up_says_so() -> None:
    a = example(H2C)
    async with make_app(a, a).run_test(size=(80, 24)) as pilot:
        screen = await compare_screen(pilot)
        assert "same set-up" in text_of(screen, "#verdict")
        assert screen.query_one("#differences").has_class("-same")
        assert screen.has_class("-narrow")


def test_the_differences_line_tells_unknown_from_different() -> None:
    assert "same set-up" in differences_line([]).plain
    line = differences_line(
        [Difference("connections", "10", "20"), Difference("hostname", "a", None)]
    ).plain
    assert "1 set-up difference " in line and "connections" in line
    assert "host" not in line and "1 unknown" in line
    only = differences_line([Difference("hostname", "a", None)]).plain
    assert "set-up unknown" in only and "host" in only


async def test_x_swaps_a_and_b() -> None:
    async with make_app(example(H2C), example(H1)).run_test(size=(120, 40)) as pilot:
        screen = await compare_screen(pilot)
        await pilot.press("x")
        assert screen.a.name == H1 and screen.b.name == H2C
        assert text_of(screen, "#sessions").splitlines()[0].find(H1) >= 0
        rps = next(line for line in text_of(screen, "#metrics").splitlines() if "req/s" in line)
        assert "+3.3%" in rps and "better" in rps


def test_changes_are_coloured_by_direction_in_the_theme() -> None:
    deltas = {d.name: d for d in compare_metrics(example(H2C), example(H1))}
    dark = {"text-success": "#8AD4A1", "text-error": "#D17E92"}
    light = {"text-success": "#337E4A", "text-error": "#7A273C"}
    assert deltas["rps"].change == "worse" and deltas["p99_s"].change == "better"
    assert change_style("worse", dark) == "bold #D17E92"
    assert change_style("better", light) == "bold #337E4A"
    assert change_style("same", light) == change_style(None, light) == "dim"
    table = metrics_table([deltas["rps"], deltas["p99_s"]], dark)
    delta_pct = list(table.columns[4].cells)
    assert isinstance(delta_pct[0], Text) and str(delta_pct[0].style) == "bold #D17E92"
    assert isinstance(delta_pct[1], Text) and str(delta_pct[1].style) == "bold #8AD4A1"


async def test_colours_follow_the_theme() -> None:
    app = make_app(example(H2C), example(H1), theme="textual-dark")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await compare_screen(pilot)

        def rps_style() -> str:
            table = screen.query_one("#metrics", Static).content
            assert isinstance(table, Table)
            cell = next(iter(table.columns[4].cells))
            assert isinstance(cell, Text)
            return str(cell.style)

        assert rps_style() == f"bold {app.get_css_variables()['text-error']}"
        dark = rps_style()
        app.theme = "textual-light"
        while rps_style() == dark:
            await pilot.pause()
        assert rps_style() == f"bold {app.get_css_variables()['text-error']}"


async def test_c_toggles_the_charts_and_basic_mode_has_none() -> None:
    async with make_app(example(H2C), example(H1)).run_test(size=(160, 48)) as pilot:
        screen = await compare_screen(pilot)
        charts = screen.query_one("#charts")
        assert charts.display and screen.charts_shown
        await pilot.press("c")
        assert not charts.display and screen.has_class("-no-charts")
        await pilot.pause()
        # Wide without charts: the differences move up beside the metrics.
        metrics, differences = screen.query_one("#metrics"), screen.query_one("#differences")
        assert differences.region.x > metrics.region.right - 1
        assert differences.region.y == metrics.region.y
        await pilot.press("c")
        assert charts.display and not screen.has_class("-no-charts")
    app = make_app(example(H2C), example(H1), basic=True)
    async with app.run_test(size=(160, 48)) as pilot:
        screen = await compare_screen(pilot)
        assert not screen.charts_shown
        await pilot.press("c")
        assert not screen.charts_shown


async def test_help_lists_the_keys() -> None:
    async with make_app(example(H2C), example(H1)).run_test(size=(80, 24)) as pilot:
        await compare_screen(pilot)
        await pilot.press("question_mark")
        assert isinstance(pilot.app.screen, HelpScreen)
        text = str(pilot.app.screen.query_one("#help", Static).render())
        for words in ("swap A and B", "charts", "markdown", "back"):
            assert words in text
        await pilot.press("escape")
        assert isinstance(pilot.app.screen, CompareScreen)


async def test_q_quits_with_0_when_it_is_the_only_screen() -> None:
    app = make_app(example(H2C), example(H1))
    async with app.run_test(size=(80, 24)) as pilot:
        await compare_screen(pilot)
        await pilot.press("q")
    assert app.return_value == 0


@pytest.mark.parametrize("key", ["q", "escape"])
async def test_opened_from_another_screen_q_and_escape_go_back(key: str) -> None:
    app = TuibenchApp(lambda app: Screen())
    async with app.run_test(size=(80, 24)) as pilot:
        first = app.screen
        app.post_message(OpenCompare(example_path(H2C), example_path(H1)))
        screen = await compare_screen(pilot)
        assert screen.a.name == H2C
        await pilot.press(key)
        while app.screen is not first:
            await pilot.pause()
        assert app.is_running


async def test_e_exports_the_comparison_as_markdown(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    a, b = example(H2C), example(H1)
    async with make_app(a, b).run_test(size=(80, 24)) as pilot:
        await compare_screen(pilot)
        await pilot.press("e")
        path = tmp_path / f"compare-{a.id}-vs-{b.id}.md"
        for _ in range(200):
            if path.exists():
                break
            await pilot.pause()
    text = path.read_text()
    assert "# h1-duration-warmup compared with h2c-m10" in text
    assert "| req/s | 42,915 | 41,563 | -1,352 | -3.1% | worse |" in text
    assert "| warm-up | – | 1 s |" in text


async def test_a_long_run_is_drawn_to_its_end() -> None:
    a = long_run(example(H2C), 600, 40_000, "long-a")
    b = long_run(example(H1), 450, 45_000, "long-b")
    async with make_app(a, b).run_test(size=(160, 48)) as pilot:
        screen = await compare_screen(pilot)
        chart = screen.query_one("#rps-chart", CompareChart)
        await pilot.pause()
        rendered = chart.render()
        assert isinstance(rendered, Text)
        drawn = plain(rendered, width=chart.size.width)
        # Compact tick labels, and the x axis spans the longer run (thinned to the width).
        assert "k┤" in drawn
        x_ticks = [int(word) for word in drawn.strip().splitlines()[-1].split()]
        assert x_ticks[0] == 0 and 590 <= x_ticks[-1] <= 599
        assert "no per-second series" not in str(chart.border_subtitle)


async def test_sessions_without_series_say_so() -> None:
    bare = Session({**example(H2C).doc, "series": []})
    async with make_app(bare, bare).run_test(size=(80, 24)) as pilot:
        screen = await compare_screen(pilot)
        chart = screen.query_one("#cpu-chart", CompareChart)
        assert chart.border_subtitle == "no per-second series"


async def _to_the_end(pilot: Pilot[Any]) -> None:
    await compare_screen(pilot)
    await pilot.press("end")
    body = pilot.app.screen.query_one("#body")
    while body.scroll_y < body.max_scroll_y:
        await pilot.pause()


def test_snapshot_80x24(snap_compare: Any) -> None:
    assert snap_compare(make_app(example(H2C), example(H1)), terminal_size=(80, 24))


def test_snapshot_80x24_scrolled_to_the_charts(snap_compare: Any) -> None:
    app = make_app(example(H2C), example(H1))
    assert snap_compare(app, terminal_size=(80, 24), run_before=_to_the_end)


def test_snapshot_160x48(snap_compare: Any) -> None:
    assert snap_compare(make_app(example(H2C), example(H1)), terminal_size=(160, 48))


def test_snapshot_long_runs_160x48(snap_compare: Any) -> None:
    a = long_run(example(H2C), 600, 40_000, "long-a")
    b = long_run(example(H1), 450, 45_000, "long-b")
    assert snap_compare(make_app(a, b), terminal_size=(160, 48))
