"""Small changes look small: sparklines are anchored at zero and say their top; the big
chart starts at the run's start and keeps a single point off the frame."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import App, ComposeResult
from textual.geometry import Region
from textual.widgets import Label

from tui_bench.engine.events import SecondClosed
from tui_bench.engine.live_state import LiveState
from tui_bench.formats import fmt_compact
from tui_bench.spec import RunSpec
from tui_bench.storage.series_columns import window_end
from tui_bench.ui.widgets.metric_panel import MetricPanel
from tui_bench.ui.widgets.run_chart import LEGEND, RunChart
from tui_bench.ui.widgets.zero_sparkline import ZeroSparkline, levels


class Panel(App[None]):
    def compose(self) -> ComposeResult:
        yield MetricPanel("Throughput", sparklines={"req/s": fmt_compact}, id="throughput")


async def test_a_four_percent_wobble_is_drawn_against_zero() -> None:
    app = Panel()
    async with app.run_test(size=(60, 8)) as pilot:
        panel = app.query_one(MetricPanel)
        panel.show(Text("now"), {"req/s": [50_000.0, 52_000.0, 50_500.0]})
        await pilot.pause()
        spark = panel.query_one(ZeroSparkline)
        assert spark.data == [50_000.0, 52_000.0, 50_500.0]
        drawn = str(spark.render())
        # Against zero: the lowest second is ~96 % of the highest, one step down at most.
        assert set(drawn) <= {"▇", "█"} and len(drawn) == spark.size.width
        top = panel.query_one(".top", Label)
        assert str(top.content) == "≤52k"


def test_rows_are_drawn_where_their_window_ends() -> None:
    assert window_end({"t_s": 0}) == 1.0
    assert window_end({"t_s": 3, "window_s": 0.5}) == 3.5


class Chart(App[None]):
    def __init__(self, kind: type[RunChart] = RunChart) -> None:
        super().__init__()
        self._kind = kind

    def compose(self) -> ComposeResult:
        yield self._kind()


async def test_one_second_of_data_has_axes_from_zero_and_a_legend_in_words() -> None:
    app = Chart()
    state = LiveState(RunSpec(urls=("http://127.0.0.1:1/",), duration_s=1.0))
    state.apply(SecondClosed({"t_s": 0, "window_s": 1.0, "rps": 4000, "p99_s": 0.002}))
    async with app.run_test(size=(80, 20)) as pilot:
        chart = app.query_one(RunChart)
        chart.show(state)
        await pilot.pause()
        assert chart.border_subtitle == LEGEND and "req/s (left axis)" in LEGEND
        drawn = chart.plt.uncolorize(chart.plt.build()).splitlines()
        # Round ticks from zero; the point sits below the top, not on it.
        assert drawn[1].startswith("5k┤") and drawn[1].endswith("├2.5")
        assert "•" not in drawn[1] and drawn[-3].split("┤")[0].strip() == "0"
        assert drawn[-1].split() == ["0.0", "0.2", "0.4", "0.6", "0.8", "1.0"]


async def test_the_axes_of_a_long_run_have_round_ticks() -> None:
    app = Chart()
    state = LiveState(RunSpec(urls=("http://127.0.0.1:1/",), duration_s=30.0))
    for t in range(30):
        rps = 70_862.0 - 100 * t
        state.apply(SecondClosed({"t_s": t, "window_s": 1.0, "rps": rps, "p99_s": 0.0123}))
    async with app.run_test(size=(118, 16)) as pilot:
        chart = app.query_one(RunChart)
        chart.show(state)
        await pilot.pause()
        drawn = chart.plt.uncolorize(chart.plt.build()).splitlines()
        left = [line.split("┤")[0].strip() for line in drawn if "┤" in line]
        right = [
            line.rsplit("├", 1)[1].strip()
            for line in drawn
            if "├" in line and line.rstrip()[-1].isdigit()
        ]
        assert left == ["80k", "60k", "40k", "20k", "0"]
        assert right == ["15", "10", "5", "0"]
        assert drawn[-1].split() == ["0", "5", "10", "15", "20", "25", "30"]


def test_levels_stretch_few_values_and_keep_the_greatest_of_many() -> None:
    assert levels([1.0, 2.0], 4) == [0.5, 0.5, 1.0, 1.0]
    assert levels([1.0, 4.0, 2.0, 2.0], 2) == [1.0, 0.5]
    assert levels([0.0, 0.0], 3) == [0.0, 0.0, 0.0]
    assert levels([], 5) == []


async def test_a_sparkline_writes_a_run_of_bars_of_one_height_in_one_colour() -> None:
    app = Panel()
    async with app.run_test(size=(60, 8)) as pilot:
        panel = app.query_one(MetricPanel)
        panel.show(Text("now"), {"req/s": [10.0, 10.0, 80.0, 80.0]})
        await pilot.pause()
        drawn = panel.query_one(ZeroSparkline).render()
        assert isinstance(drawn, Text)
        # Two heights of bar: two runs, however many cells each covers.
        low, high = drawn.spans
        assert (low.start, low.end, high.end) == (0, high.start, len(drawn.plain))
        assert set(drawn.plain[: low.end]) == {"▂"} and set(drawn.plain[high.start :]) == {"█"}


class Refreshes(RunChart):
    """Records what each refresh asked to be painted again."""

    def __init__(self) -> None:
        super().__init__()
        self.painted: list[list[int] | None] = []

    def refresh(self, *regions: Region, **kwargs: Any) -> Refreshes:
        if not kwargs and self.is_mounted and self._frame is not None:
            self.painted.append([r.y for r in regions] if regions else None)
        return super().refresh(*regions, **kwargs)


async def test_a_new_second_paints_again_only_the_chart_rows_it_changed() -> None:
    app = Chart(Refreshes)
    state = LiveState(RunSpec(urls=("http://127.0.0.1:1/",), duration_s=30.0))
    for t in range(10):
        state.apply(SecondClosed({"t_s": t, "window_s": 1.0, "rps": 50_000.0, "p99_s": 0.01}))
    async with app.run_test(size=(118, 16)) as pilot:
        chart = app.query_one(Refreshes)
        chart.show(state)
        await pilot.pause()
        chart.painted.clear()
        # The same axes (0–20 s, 0–60k req/s): a point more on each line.
        state.apply(SecondClosed({"t_s": 10, "window_s": 1.0, "rps": 50_000.0, "p99_s": 0.01}))
        chart.show(state)
        await pilot.pause()
        (rows,) = chart.painted
        assert rows is not None and 0 < len(rows) <= 4, rows
        # Another top of the axis: all of it.
        state.apply(SecondClosed({"t_s": 11, "window_s": 1.0, "rps": 90_000.0, "p99_s": 0.01}))
        chart.show(state)
        await pilot.pause()
        rows = chart.painted[-1]
        assert rows is not None and len(rows) > chart.size.height // 2, rows
        drawn = chart.plt.uncolorize(chart.plt.build())
        assert str(chart.render()).splitlines() == drawn.splitlines()


async def test_a_panel_title_set_again_unchanged_repaints_nothing() -> None:
    app = Panel()
    async with app.run_test(size=(60, 8)) as pilot:
        panel = app.query_one(MetricPanel)
        panel.show(Text("now"), title="Server nginx 12", note="n 4k")
        await pilot.pause()
        assert (panel.border_title, panel.border_subtitle) == ("Server nginx 12", "n 4k")
        refreshed = []
        panel.refresh = lambda *a, **k: refreshed.append(a) or panel  # type: ignore[method-assign]
        panel.show(Text("now"), title="Server nginx 12", note="n 4k")
        assert refreshed == []
        panel.show(Text("now"), title="Server nginx 13", note="n 4k")
        assert refreshed == [()]
