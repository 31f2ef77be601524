"""The compare screen on the example sessions (single runs), on synthetic sweeps with
repeats (verdicts) and on longer synthetic runs: keys, layout, colours by direction and
verdict, the tests off the event loop, export."""

from __future__ import annotations

import io
import math
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest
from rich.console import Console, RenderableType
from rich.table import Table
from rich.text import Text
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import Input, RadioButton, Static

from tests.analysis.test_significance import runs, sweep
from tests.ui import help_text, until
from tests.ui.test_tones import styles_at
from tui_bench.analysis.compare import Difference
from tui_bench.analysis.significance import Report, Side, compare_sides, median_deltas, side_of
from tui_bench.storage import store
from tui_bench.storage.session import Session
from tui_bench.ui.app import TuibenchApp
from tui_bench.ui.messages import OpenCompare
from tui_bench.ui.screens import compare_screen as compare_module
from tui_bench.ui.screens.compare_screen import CHARTS, CompareScreen
from tui_bench.ui.text.compare_text import differences_line, others_table, verdicts_table
from tui_bench.ui.tones import ANSI, Tones, tones_of, verdict_style
from tui_bench.ui.widgets.compare_chart import CompareChart
from tui_bench.ui.widgets.save_dialog import ConfirmOverwrite, SaveDialog

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


def make_app(a: Session | Side, b: Session | Side, **kwargs: Any) -> TuibenchApp:
    sides = [x if isinstance(x, Side) else side_of(x) for x in (a, b)]
    return TuibenchApp(lambda app: CompareScreen(*sides), **kwargs)


def with_series(documents: list[dict[str, Any]], rps: float) -> list[dict[str, Any]]:
    """The runs with a minute of synthetic series each, so the charts have lines."""
    series = long_run(example(H2C), 60, rps, "").series
    return [{**document, "series": series} for document in documents]


def repeated_sweeps() -> tuple[Side, Side]:
    """A: ten runs; B: ten runs with 10 % more req/s, the same latency and 20 % less server
    CPU."""
    a = with_series(runs(10, 10_000), 10_000)
    b = with_series(runs(10, 11_000, start=10, cpu=40.0), 11_000)
    return (
        side_of(Session(sweep({"": a}, "20260102-120000-000-sweep-before", "before"))),
        side_of(Session(sweep({"": b}, "20260102-130000-000-sweep-after", "after"))),
    )


def two_points() -> tuple[Side, Side]:
    """Two points of one sweep of five runs each: c=20 has 30 % more p99."""
    points = {
        "c=10": with_series(runs(5, 10_000), 10_000),
        "c=20": with_series(runs(5, 10_000, start=10, p99=0.013, connections=20), 7_700),
    }
    session = Session(sweep(points, "20260102-140000-000-sweep-grid"))
    return side_of(session, "c=10"), side_of(session, "c=20")


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


async def settled(pilot: Pilot[Any]) -> CompareScreen:
    """The compare screen once its tests have run."""
    screen = await compare_screen(pilot)
    await until(pilot, lambda: screen.report is not None, "the tests")
    return screen


def row(screen: Screen[Any], selector: str, label: str) -> str:
    lines = text_of(screen, selector).splitlines()
    return next(line.rstrip() for line in lines if line.startswith(label))


async def test_header_metrics_and_differences() -> None:
    async with make_app(example(H2C), example(H1)).run_test(size=(160, 48)) as pilot:
        screen = await settled(pilot)
        header = text_of(screen, "#sessions").splitlines()
        assert "h2c-m10" in header[0] and "http://127.0.0.1:49249/" in header[0]
        assert "h1-duration-warmup" in header[1] and "h2load 1.52.0" in header[1]
        assert "2026-11-21 11:20" in header[1]
        assert "run" not in header[0], "a single run says nothing of runs"
        verdict = text_of(screen, "#verdict")
        assert "7 set-up differences" in verdict and "connections" in verdict
        assert verdict.rstrip().endswith("; 1 unknown")
        rps = row(screen, "#tested", "req/s")
        assert "42,915" in rps and "41,563" in rps and "-3.1%" in rps
        assert rps.split()[-3:] == ["1/1", "insufficient", "data"]
        assert "good req/s" in text_of(screen, "#others")
        notes = text_of(screen, "#notes")
        assert "fewer than 4 runs a side (A has 1, B has 1)" in notes
        differences = text_of(screen, "#differences")
        assert "50,000 requests" in differences and "--warm-up-time 1000ms" in differences
        assert screen.query_one("#differences").border_title == "Set-up differences"
        assert screen.query_one("#metrics").border_title == "Metrics: B against A"
        assert screen.has_class("-wide")


def with_url(session: Session, url: str) -> Session:
    return Session({**session.doc, "spec": {**session.doc["spec"], "urls": [url]}})


async def test_at_80_columns_a_long_url_gives_up_its_middle_not_its_end() -> None:
    long = "http://127.0.0.1:49249/static/assets/payloads/f64k.bin"
    app = make_app(with_url(example(H2C), long), example(H1))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await settled(pilot)
        header = screen.query_one("#sessions", Static)
        lines = plain(header.content, header.content_region.width).splitlines()
        # One line a side: the URL is not broken mid-word onto the next.
        assert len(lines) == 2, lines
        assert lines[0].rstrip().endswith("f64k.bin") and "…" in lines[0], lines
        assert lines[0].split()[-1].startswith("http://"), lines


async def test_verdicts_of_two_sweeps_with_repeats() -> None:
    async with make_app(*repeated_sweeps()).run_test(size=(160, 48)) as pilot:
        screen = await settled(pilot)
        header = text_of(screen, "#sessions").splitlines()
        assert "before, 10 runs" in header[0] and "after, 10 runs" in header[1]
        rps = row(screen, "#tested", "req/s")
        assert rps.split()[-2:] == ["10/10", "better"]
        assert "+9.4%" in rps and "+7.6…+12%" in rps and "<0.001" in rps
        assert row(screen, "#tested", "p99").endswith("no difference")
        assert row(screen, "#tested", "server CPU").endswith("better")
        assert "req/s is the primary metric" in text_of(screen, "#notes")
        assert screen.query_one("#metrics").border_title == "B against A: medians of the runs"
        assert "same set-up" in text_of(screen, "#verdict")
        subtitle = str(screen.query_one("#rps-chart", CompareChart).border_subtitle)
        assert "first run of A and B" in subtitle


async def test_two_points_of_one_sweep() -> None:
    async with make_app(*two_points()).run_test(size=(80, 24)) as pilot:
        screen = await settled(pilot)
        header = text_of(screen, "#sessions").splitlines()
        assert "20260102-140000-000-sweep-grid@c=10, 5 runs" in header[0]
        assert "@c=20, 5 runs" in header[1]
        assert row(screen, "#tested", "p99").endswith("worse")
        assert "connections" in text_of(screen, "#verdict")
        notes = text_of(screen, "#notes")
        assert "1 significant before adjustment, not after" not in notes
        assert "cannot reach a tested verdict" not in notes


async def test_the_tests_run_off_the_event_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    """Until the tests are done the medians show with the statistics pending, and the screen
    answers keys meanwhile."""
    release = threading.Event()

    def slow(a: Side, b: Side) -> Report:
        release.wait(10)
        return compare_sides(a, b)

    monkeypatch.setattr(compare_module, "compare_sides", slow)
    async with make_app(*repeated_sweeps()).run_test(size=(160, 48)) as pilot:
        screen = await compare_screen(pilot)
        await pilot.pause()
        rps = row(screen, "#tested", "req/s")
        assert "+9.4%" in rps and rps.split()[-4:] == ["…"] * 4
        assert "testing the metrics" in text_of(screen, "#notes")
        await pilot.press("c")
        assert not screen.charts_shown, "the screen answers while the tests run"
        release.set()
        await until(pilot, lambda: screen.report is not None, "the tests")
        assert row(screen, "#tested", "req/s").endswith("better")


async def test_x_swaps_a_and_b_and_tests_again() -> None:
    async with make_app(*repeated_sweeps()).run_test(size=(120, 40)) as pilot:
        screen = await settled(pilot)
        await pilot.press("x")
        assert screen.a.session.name == "after" and screen.b.session.name == "before"
        assert text_of(screen, "#sessions").splitlines()[0].find("after") >= 0
        screen = await settled(pilot)
        assert screen.report is not None and screen.report.a is screen.a
        rps = row(screen, "#tested", "req/s")
        assert "-8.6%" in rps and rps.endswith("worse")


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
    assert "same set-up" in differences_line([], ANSI).plain
    line = differences_line(
        [Difference("connections", "10", "20"), Difference("hostname", "a", None)], ANSI
    ).plain
    assert "1 set-up difference " in line and "connections" in line
    assert "host" not in line and "1 unknown" in line
    only = differences_line([Difference("hostname", "a", None)], ANSI).plain
    assert "set-up unknown" in only and "host" in only


def test_changes_and_verdicts_are_coloured_by_direction_in_the_theme() -> None:
    dark = Tones(success="#8ad4a1", error="#d17e92", warning="#ffc473")
    light = Tones(success="#337e4a", error="#7a273c", warning="#a86d1c")
    assert verdict_style("worse", dark) == "bold #d17e92"
    assert verdict_style("better", light) == "bold #337e4a"
    for word in ("same", "no difference", "insufficient data", None):
        assert verdict_style(word, light) == "dim"
    a, b = repeated_sweeps()
    report = compare_sides(a, b)
    table = verdicts_table(median_deltas(a, b), report, dark)
    labels = [str(cell) for cell in table.columns[0].cells]
    delta_pct, verdict = list(table.columns[3].cells), list(table.columns[-1].cells)
    rps, p99 = labels.index("req/s"), labels.index("p99")
    said, delta_rps, delta_p99 = verdict[rps], delta_pct[rps], delta_pct[p99]
    assert isinstance(said, Text) and said.plain == "better"
    for cell in (delta_rps, said):
        assert isinstance(cell, Text) and str(cell.style) == "bold #8ad4a1"
    assert isinstance(delta_p99, Text) and str(delta_p99.style) == "dim"
    # Untested metrics keep their plain change: coloured by direction, no word.
    single = median_deltas(side_of(example(H2C)), side_of(example(H1)))
    others = others_table(single, dark)
    assert [c.header for c in others.columns][3:] == ["Δ", "Δ%"]
    names = [str(cell) for cell in others.columns[0].cells]
    cells = list(others.columns[4].cells)
    good, mean = cells[names.index("good req/s")], cells[names.index("mean latency")]
    assert isinstance(good, Text) and str(good.style) == "bold #d17e92"
    assert isinstance(mean, Text) and str(mean.style) == "bold #8ad4a1"


async def test_colours_follow_the_theme() -> None:
    app = make_app(*repeated_sweeps(), theme="textual-dark")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await settled(pilot)

        def rps_style() -> str:
            table = screen.query_one("#tested", Static).content
            assert isinstance(table, Table)
            cell = next(iter(table.columns[-1].cells))
            assert isinstance(cell, Text) and cell.plain == "better"
            return str(cell.style)

        assert rps_style() == f"bold {tones_of(screen).success}"
        dark = rps_style()
        app.theme = "textual-light"
        await until(pilot, lambda: rps_style() != dark, "the light theme's colours")
        assert rps_style() == f"bold {tones_of(screen).success}"


async def test_the_set_up_badge_follows_the_theme() -> None:
    app = make_app(example(H2C), example(H1), theme="tuibench-dark")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await compare_screen(pilot)

        def badge_style() -> str:
            line = screen.query_one("#verdict", Static).content
            assert isinstance(line, Text)
            return styles_at(line, "set-up difference")[-1]

        dark = badge_style()
        assert dark == f"bold reverse {tones_of(screen).warning}"
        app.theme = "tuibench-light"
        await until(pilot, lambda: badge_style() != dark, "the light theme's badge")
        assert badge_style() == f"bold reverse {tones_of(screen).warning}"


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
        text = await help_text(pilot)
        for words in ("swap A and B", "charts", "md or json (asks where)", "back"):
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
        assert screen.a.session.name == H2C
        await pilot.press(key)
        while app.screen is not first:
            await pilot.pause()
        assert app.is_running


async def test_e_asks_where_and_writes_beside_the_sessions(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cwd, directory = tmp_path / "cwd", tmp_path / "sessions"
    cwd.mkdir()
    monkeypatch.chdir(cwd)
    a, b = example(H2C), example(H1)
    app = make_app(a, b, sessions_dir=directory)
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        await pilot.press("e")
        dialog = app.screen
        assert isinstance(dialog, SaveDialog)
        path = directory / "comparisons" / f"compare-{a.id}-vs-{b.id}.md"
        assert dialog.query_one("#path", Input).value == str(path)
        await pilot.press("enter")
        await until(pilot, path.exists, "the markdown file")
        await app.workers.wait_for_complete()
        assert any(f"comparison written to {path}" in n.message for n in app._notifications)
        # The same dialog as the browser's: json is a choice, and nothing is written over
        # without a yes.
        await pilot.press("e")
        dialog = app.screen
        assert isinstance(dialog, SaveDialog)
        dialog.query_one("#format-json", RadioButton).value = True
        field = dialog.query_one("#path", Input)
        await until(pilot, lambda: field.value == str(path.with_suffix(".json")), "json")
        field.value = str(path)
        await until(pilot, lambda: dialog.fmt == "md", "md again")
        field.focus()
        await pilot.press("enter")
        assert isinstance(app.screen, ConfirmOverwrite)
        await pilot.press("n")
        assert app.screen is dialog
        field.value = str(path.with_suffix(".json"))
        await pilot.press("enter")
        await until(pilot, path.with_suffix(".json").exists, "the json file")
    assert not list(cwd.iterdir())
    assert orjson.loads(path.with_suffix(".json").read_bytes())["metrics"]
    text = path.read_text()
    assert text.startswith("# h1-duration-warmup against h2c-m10\n")
    tested = "| req/s (primary) | 1/1 | 42,915 | 41,563 | -3.1% | – | – | – | insufficient data |"
    assert tested in text
    assert "| good req/s | 42,915 | 41,563 | -1,352 | -3.1% |" in text
    assert "| warm-up | – | 1 s |" in text


async def test_e_names_the_file_after_the_points(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TUIBENCH_SESSIONS", str(tmp_path))
    async with make_app(*two_points()).run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        await pilot.press("e", "enter")
        grid = "20260102-140000-000-sweep-grid"
        path = tmp_path / "comparisons" / f"compare-{grid}-c=10-vs-{grid}-c=20.md"
        await until(pilot, path.exists, "the markdown file")
    assert "| p99 | 5/5 |" in path.read_text()


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
        # Compact tick labels, and the x axis spans the longer run (thinned to the width)
        # to a round second at or after its end, a round step apart.
        assert "k┤" in drawn
        x_ticks = [int(word) for word in drawn.strip().splitlines()[-1].split()]
        assert x_ticks == list(range(0, 700, 100))
        assert "no per-second series" not in str(chart.border_subtitle)


async def test_runs_of_one_second_are_drawn() -> None:
    """One row of series: plotext cannot scale an axis of no length, so it gets one."""
    short = Session({**example(H2C).doc, "series": example(H2C).series[:1]})
    async with make_app(short, short).run_test(size=(80, 24)) as pilot:
        screen = await compare_screen(pilot)
        chart = screen.query_one("#rps-chart", CompareChart)
        await pilot.pause()
        rendered = chart.render()
        assert isinstance(rendered, Text)
        x_ticks = plain(rendered, width=chart.size.width).strip().splitlines()[-1].split()
        assert x_ticks == ["0.0", "0.2", "0.4", "0.6", "0.8", "1.0"]


async def test_sessions_without_series_say_so() -> None:
    bare = Session({**example(H2C).doc, "series": []})
    async with make_app(bare, bare).run_test(size=(80, 24)) as pilot:
        screen = await compare_screen(pilot)
        chart = screen.query_one("#cpu-chart", CompareChart)
        assert chart.border_subtitle == "no per-second series"


async def _to_the_end(pilot: Pilot[Any]) -> None:
    await settled(pilot)
    await pilot.press("end")
    body = pilot.app.screen.query_one("#body")
    while body.scroll_y < body.max_scroll_y:
        await pilot.pause()


def framed(screen: Screen[Any]) -> list[str]:
    """The ids of the panels framed as having the focus (double border, title in reverse)."""
    return [
        str(w.id)
        for w in screen.query(".framed")
        if w.styles.border_top[0] == "double" and w.styles.border_title_style.reverse
    ]


async def test_the_focused_pane_is_framed_not_only_coloured() -> None:
    app = make_app(example(H2C), example(H1))
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        assert framed(app.screen) == ["metrics", "differences"]
        await pilot.press("tab")
        assert framed(app.screen) == [chart_id for chart_id, *_ in CHARTS]


async def _settled(pilot: Pilot[Any]) -> None:
    await settled(pilot)


def test_snapshot_80x24(snap_compare: Any) -> None:
    app = make_app(example(H2C), example(H1))
    assert snap_compare(app, terminal_size=(80, 24), run_before=_settled)


def test_snapshot_80x24_scrolled_to_the_charts(snap_compare: Any) -> None:
    app = make_app(example(H2C), example(H1))
    assert snap_compare(app, terminal_size=(80, 24), run_before=_to_the_end)


def test_snapshot_120x40(snap_compare: Any) -> None:
    app = make_app(example(H2C), example(H1))
    assert snap_compare(app, terminal_size=(120, 40), run_before=_settled)


def test_snapshot_160x48(snap_compare: Any) -> None:
    app = make_app(example(H2C), example(H1))
    assert snap_compare(app, terminal_size=(160, 48), run_before=_settled)


def test_snapshot_long_runs_160x48(snap_compare: Any) -> None:
    a = long_run(example(H2C), 600, 40_000, "long-a")
    b = long_run(example(H1), 450, 45_000, "long-b")
    assert snap_compare(make_app(a, b), terminal_size=(160, 48), run_before=_settled)


def test_snapshot_verdicts_80x24(snap_compare: Any) -> None:
    app = make_app(*repeated_sweeps())
    assert snap_compare(app, terminal_size=(80, 24), run_before=_settled)


def test_snapshot_verdicts_160x48(snap_compare: Any) -> None:
    app = make_app(*repeated_sweeps())
    assert snap_compare(app, terminal_size=(160, 48), run_before=_settled)


def test_snapshot_two_points_160x48(snap_compare: Any) -> None:
    app = make_app(*two_points())
    assert snap_compare(app, terminal_size=(160, 48), run_before=_settled)


def test_a_long_run_id_in_the_header_keeps_to_its_line() -> None:
    from tui_bench.ui.text.compare_text import sessions_header

    a = example("h2c-m10")
    long_id = "20261127-233308-123-h2load-a-rather-long-name"
    b = Session({**a.doc, "name": "", "id": long_id})
    console = Console(width=78, record=True)
    console.print(sessions_header(side_of(a), side_of(b)))
    lines = console.export_text().splitlines()
    # One line a side, the id cut in its middle: its start and end still tell it apart.
    assert len(lines) == 2 and all(len(line) <= 78 for line in lines), lines
    assert "20261127-2" in lines[1] and "long-name" in lines[1] and "…" in lines[1]
