"""Small changes look small: sparklines are anchored at zero and say their top; the big
chart starts at the run's start and keeps a single point off the frame."""

from __future__ import annotations

from rich.text import Text
from textual.app import App, ComposeResult
from textual.widgets import Label

from tui_bench.engine.events import SecondClosed
from tui_bench.engine.live_state import LiveState
from tui_bench.formats import fmt_compact
from tui_bench.spec import RunSpec
from tui_bench.storage.session import window_end
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
    def compose(self) -> ComposeResult:
        yield RunChart()


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
