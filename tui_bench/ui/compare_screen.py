"""Two sides side by side: B compared with A (the baseline). A side is a run, or a point of
a sweep with its repeated runs.

Headline metrics (medians of the runs) with their change, and for the tested family its
95 % CI, p (Holm-adjusted), n and verdict, coloured by the metric's direction; every
difference in how the runs were set up; req/s, p99 and server CPU of both on one time axis
(a sweep point's first completed run). Wide terminals put the figures beside the charts;
narrow ones stack everything in one scrolling column. The tests run in a thread: scipy
takes most of a second to import, and a bootstrap per metric a moment more.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Sequence
from pathlib import Path
from typing import ClassVar

from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Static

from tui_bench.analysis.compare import (
    Difference,
    MetricDelta,
    fmt_delta,
    fmt_delta_pct,
    fmt_value,
    series_points,
    setup_differences,
    started,
    target,
    tool_label,
)
from tui_bench.analysis.significance import (
    TESTED,
    Report,
    Side,
    compare_sides,
    fmt_ci,
    fmt_n,
    fmt_p,
    median_deltas,
    side_title,
)
from tui_bench.errors import TuibenchError
from tui_bench.report.comparison import COMPARE_FORMATS, comparison_text
from tui_bench.storage import store
from tui_bench.storage.atomic import write_new
from tui_bench.ui.tones import LABEL, Tones, follow_theme
from tui_bench.ui.widgets.compare_chart import CompareChart, Line, hex_colour
from tui_bench.ui.widgets.dialogs import HelpScreen
from tui_bench.ui.widgets.save_dialog import SaveChoice, SaveDialog
from tui_bench.ui.widgets.session_table import MIN_NAME_WIDTH, elide_middle

WIDE = 120
COMPARISONS_DIR = "comparisons"
# (chart id, title, series column, scale to the unit in the title)
CHARTS = (
    ("rps-chart", "req/s", "rps", 1.0),
    ("p99-chart", "p99 latency (ms)", "p99_s", 1e3),
    ("cpu-chart", "server CPU (%)", "server_cpu_pct", 1.0),
)
# A statistic still being computed.
PENDING = "…"


def change_style(word: str | None, tones: Tones) -> str:
    """A Rich style for a change or a verdict: better and worse in colour, anything else
    (same, no difference, insufficient data) as a label."""
    if word == "better":
        return f"bold {tones.success}"
    if word == "worse":
        return f"bold {tones.error}"
    # The lower tier in the same colours, not bold: it rests on few runs.
    if word == "likely better":
        return tones.success
    if word == "likely worse":
        return tones.error
    return LABEL


def mark(letter: str) -> Text:
    # A span, not the Text's own style: a table would paint its whole cell with that.
    return Text.assemble((f" {letter} ", f"bold #000000 on {hex_colour(letter)}"))


def side_header(side: Side) -> Text:
    """`name-or-id`, or for a sweep point `name-or-id@c=200, 10 runs`."""
    if not side.is_point:
        return Text(side_title(side), "bold")
    return Text.assemble((side_title(side), "bold"), f", {side.runs_label}")


class MiddleElided:
    """One line of text that, short of room, gives up its middle, never breaking a word: the
    end of a URL's path is what tells two runs apart."""

    def __init__(self, text: str) -> None:
        self.text = Text(text, no_wrap=True)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement(min(MIN_NAME_WIDTH, self.text.cell_len), self.text.cell_len)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield elide_middle(self.text, options.max_width)


def sessions_header(a: Side, b: Side) -> Table:
    grid = Table.grid(padding=(0, 1))
    grid.add_column(no_wrap=True)
    grid.add_column(overflow="fold")
    grid.add_column(no_wrap=True, style=LABEL)
    grid.add_column(no_wrap=True)
    grid.add_column(ratio=1)
    for letter, side in (("A", a), ("B", b)):
        grid.add_row(
            mark(letter),
            side_header(side),
            started(side.session),
            tool_label(side.shown),
            MiddleElided(target(side.shown)),
        )
    return grid


def differences_line(differences: Sequence[Difference], tones: Tones) -> Text:
    if not differences:
        return Text("same set-up: the runs differ only in what they measured", LABEL)
    known = [d for d in differences if d.a is not None and d.b is not None]
    unknown = len(differences) - len(known)
    badge_style = f"bold reverse {tones.warning}"
    if not known:
        return Text.assemble(
            (" set-up unknown ", badge_style),
            f" {unknown} fields are known for one run only: ",
            ", ".join(d.label for d in differences),
        )
    badge = f" {len(known)} set-up difference{'s' if len(known) > 1 else ''} "
    line = Text.assemble((badge, badge_style), " ", ", ".join(d.label for d in known))
    if unknown:
        line.append(f"; {unknown} unknown", LABEL)
    return line


def verdicts_table(deltas: Sequence[MetricDelta], report: Report | None, tones: Tones) -> Table:
    """The tested family: the medians, Δ%, its 95 % CI, the adjusted p, n and the verdict
    (`PENDING` until `report` is known). Δ% is coloured by the verdict, not by its sign."""
    table = _table("metric", "Δ%", "95% CI", "p adj", "n")
    # The one column that may wrap ("insufficient data") on a narrow terminal.
    table.add_column("B is")
    for d in sorted((d for d in deltas if d.name in TESTED), key=lambda d: TESTED.index(d.name)):
        verdict = report.verdict_of(d.name) if report else None
        if verdict is None:
            delta_pct = Text(fmt_delta_pct(d.delta_pct), LABEL)
            table.add_row(*_values(d), delta_pct, *[Text(PENDING, LABEL)] * 4)
            continue
        c = verdict.comparison
        style = change_style(c.verdict, tones)
        table.add_row(
            *_values(d),
            Text(fmt_delta_pct(c.delta_pct), style),
            Text(fmt_ci(c.ci_low_pct, c.ci_high_pct), style),
            fmt_p(c.p_adjusted),
            Text(fmt_n(c), LABEL),
            Text(c.verdict, style),
        )
    return table


def others_table(deltas: Sequence[MetricDelta], tones: Tones) -> Table:
    """The metrics outside the family with their plain change of the medians, coloured by
    its direction (dim within 2 %). No word: better and worse are what the tests say."""
    table = _table("not tested", "Δ", "Δ%")
    for d in deltas:
        if d.name in TESTED:
            continue
        style = change_style(d.change, tones)
        table.add_row(
            *_values(d),
            Text(fmt_delta(d.unit, d.delta), style),
            Text(fmt_delta_pct(d.delta_pct), style),
        )
    return table


def _table(first: str, *numbers: str) -> Table:
    table = Table(box=None, padding=(0, 1, 0, 0), pad_edge=False, header_style="bold")
    table.add_column(first, style=LABEL, no_wrap=True)
    table.add_column(mark("A"), justify="right", no_wrap=True)
    table.add_column(mark("B"), justify="right", no_wrap=True)
    for header in numbers:
        table.add_column(header, justify="right", no_wrap=True)
    return table


def _values(d: MetricDelta) -> list[str]:
    return [d.label, fmt_value(d.unit, d.a), fmt_value(d.unit, d.b)]


def notes_text(report: Report | None) -> Text:
    if report is None:
        return Text("testing the metrics run by run…", LABEL)
    return Text("\n").join(Text(f"• {note}") for note in report.notes)


def differences_table(differences: Sequence[Difference]) -> Table | Text:
    if not differences:
        return Text(
            "tool, version, flags, protocol, load, URL, body size, host and server all match",
            LABEL,
        )
    table = Table(box=None, padding=(0, 1), expand=True, header_style="bold")
    table.add_column("", style=LABEL, no_wrap=True)
    table.add_column(mark("A"), overflow="fold", ratio=1)
    table.add_column(mark("B"), overflow="fold", ratio=1)
    for diff in differences:
        table.add_row(diff.label, _value(diff.a), _value(diff.b))
    return table


def _value(value: str | None) -> Text:
    return Text("unknown", "italic dim") if value is None else Text(value)


def chart_note(a: Side, b: Side) -> str:
    """Which run a sweep point's line is."""
    points = [letter for letter, side in (("A", a), ("B", b)) if side.is_point]
    return f"first run of {' and '.join(points)}" if points else ""


def file_part(label: str) -> str:
    return re.sub(r"[^A-Za-z0-9._=-]+", "-", label).strip("-")


class CompareScreen(Screen[None]):
    DEFAULT_CSS = """
    CompareScreen { layout: vertical; }
    CompareScreen #sessions { height: auto; padding: 0 1; background: $boost; }
    /* One line: the whole list is in the differences panel. */
    CompareScreen #verdict {
        height: 1; padding: 0 1; background: $boost; text-wrap: nowrap; text-overflow: ellipsis;
    }
    CompareScreen #body { height: 1fr; scrollbar-size-vertical: 1; }
    CompareScreen #figures { height: auto; overflow-y: hidden; }
    CompareScreen #metrics {
        height: auto; border: round $primary-darken-1; border-title-color: $text; padding: 0 1;
    }
    CompareScreen #notes { height: auto; margin: 1 0; }
    CompareScreen #differences {
        height: auto; border: round $warning; border-title-color: $text; padding: 0 1;
    }
    CompareScreen #differences.-same { border: round $success; }
    CompareScreen #charts { height: auto; }
    CompareScreen.-wide #body { layout: horizontal; overflow-y: hidden; }
    CompareScreen.-wide #figures {
        width: 84; height: 1fr; overflow-y: auto; scrollbar-size-vertical: 1;
    }
    CompareScreen.-wide #charts { width: 1fr; height: 1fr; }
    CompareScreen.-wide CompareChart { height: 1fr; }
    /* Wide without charts: the set-up differences take the charts' place. */
    CompareScreen.-wide.-no-charts #figures { width: 1fr; layout: horizontal; }
    CompareScreen.-wide.-no-charts #metrics { width: 84; }
    CompareScreen.-wide.-no-charts #differences { width: 1fr; }
    """
    # Textual types these as plain lists (not ClassVar), so they are assigned as such.
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (WIDE, "-wide")]  # noqa: RUF012
    # The theme's, from mounting on.
    tones: Tones
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "q,escape",
            "back",
            "Back",
            key_display="q",
            tooltip="back (or escape); quits when nothing else is open",
        ),
        Binding("x", "swap", "Swap A/B", tooltip="swap A and B: the baseline becomes B"),
        Binding("c", "toggle_charts", "Charts", tooltip="show / hide the charts"),
        Binding("e", "export", "Export", tooltip="write the comparison as md or json (asks where)"),
        Binding("question_mark", "help", "Help", key_display="?", tooltip="this help"),
    ]

    def __init__(self, a: Side, b: Side) -> None:
        super().__init__()
        self.a = a
        self.b = b
        # B against A once the tests have run; None while they run.
        self.report: Report | None = None
        self._deltas: list[MetricDelta] = []
        self._differences: list[Difference] = []

    def compose(self) -> ComposeResult:
        yield Static(id="sessions")
        yield Static(id="verdict")
        with VerticalScroll(id="body"):
            with VerticalScroll(id="figures"):
                with Vertical(id="metrics", classes="framed"):
                    yield Static(id="tested")
                    yield Static(id="notes")
                    yield Static(id="others")
                yield Static(id="differences", classes="framed")
            with VerticalScroll(id="charts"):
                for chart_id, title, _, _ in CHARTS:
                    yield CompareChart(title, id=chart_id, classes="framed")
        yield Footer()

    def on_mount(self) -> None:
        self.tones = follow_theme(self, self._retone)
        if getattr(self.app, "basic", False):
            self._show_charts(False)
        self.paint()
        self.query_one("#figures").focus()

    def _retone(self, tones: Tones) -> None:
        self.tones = tones
        self._paint_verdict()
        self._paint_metrics()

    @property
    def charts_shown(self) -> bool:
        return not self.has_class("-no-charts")

    def paint(self) -> None:
        """Everything but the tests at once; the tests when their worker is done."""
        a, b = self.a, self.b
        self._differences = differences = setup_differences(a.shown, b.shown)
        self.query_one("#sessions", Static).update(sessions_header(a, b))
        self._paint_verdict()
        several = len(a.runs) > 1 or len(b.runs) > 1
        self.query_one("#metrics").border_title = (
            "B against A: medians of the runs" if several else "Metrics: B against A"
        )
        self.report = None
        # Every run's result is parsed for these: once per order of the sides, not per paint.
        self._deltas = median_deltas(a, b)
        self._paint_metrics()
        self.run_worker(self._test(a, b), name="report", group="report", exclusive=True)
        panel = self.query_one("#differences", Static)
        panel.update(differences_table(differences))
        panel.border_title = "Set-up differences" if differences else "Same set-up"
        panel.set_class(not differences, "-same")
        note = chart_note(a, b)
        for chart_id, _, column, scale in CHARTS:
            lines = []
            for letter, side in (("A", a), ("B", b)):
                seconds, values = series_points(side.shown, column)
                lines.append(Line(letter, seconds, [v * scale for v in values]))
            self.query_one(f"#{chart_id}", CompareChart).show(lines, note)

    async def _test(self, a: Side, b: Side) -> None:
        report = await asyncio.to_thread(compare_sides, a, b)
        # A swap while the tests ran started new ones: these are for the old order.
        if a is self.a and b is self.b:
            self.report = report
            self._paint_metrics()

    def _paint_verdict(self) -> None:
        self.query_one("#verdict", Static).update(differences_line(self._differences, self.tones))

    def _paint_metrics(self) -> None:
        deltas, tones = self._deltas, self.tones
        self.query_one("#tested", Static).update(verdicts_table(deltas, self.report, tones))
        self.query_one("#notes", Static).update(notes_text(self.report))
        others = self.query_one("#others", Static)
        others.update(others_table(deltas, tones))
        others.display = any(d.name not in TESTED for d in deltas)

    # Actions

    def action_back(self) -> None:
        if len(self.app.screen_stack) <= 1:
            self.app.exit(0)
        else:
            self.dismiss()

    def action_swap(self) -> None:
        self.a, self.b = self.b, self.a
        self.paint()

    def action_toggle_charts(self) -> None:
        if getattr(self.app, "basic", False):
            self.notify("basic mode draws no chart")
            return
        self._show_charts(not self.charts_shown)

    def _show_charts(self, shown: bool) -> None:
        self.set_class(not shown, "-no-charts")
        self.query_one("#charts").display = shown

    def action_export(self) -> None:
        a, b = self.a, self.b
        stem = self._exports_dir / f"compare-{file_part(a.label)}-vs-{file_part(b.label)}"
        title = Text.assemble("Export ", (f"{side_title(b)} against {side_title(a)}", "bold"))
        hint = "md the tables · json every figure of the comparison"
        dialog = SaveDialog(title, COMPARE_FORMATS, str(stem), hint)

        def chosen(choice: SaveChoice | None) -> None:
            if choice is not None:
                self.run_worker(self._export(a, b, choice), group="compare-export")

        self.app.push_screen(dialog, chosen)

    async def _export(self, a: Side, b: Side, choice: SaveChoice) -> None:
        report = self.report if (a, b) == (self.a, self.b) else None
        if report is None:
            # The tests have not finished yet: wait for a run of them.
            report = await asyncio.to_thread(compare_sides, a, b)
        # Off the loop too: the document reads every run's result again.
        text = await asyncio.to_thread(comparison_text, report, choice.fmt)
        try:
            if choice.path.parent == self._exports_dir:
                # The directory offered is made; one the user typed must be there already.
                await asyncio.to_thread(self._exports_dir.mkdir, parents=True, exist_ok=True)
            written = await asyncio.to_thread(write_new, choice.path, text, force=choice.overwrite)
        except TuibenchError as exc:
            self.notify(str(exc), severity="error", timeout=10)
            return
        except OSError as exc:
            self.notify(f"cannot write {choice.path}: {exc.strerror}", severity="error", timeout=10)
            return
        self.notify(f"comparison written to {written}", timeout=10)

    @property
    def _exports_dir(self) -> Path:
        """Where exports go unless the user says otherwise: beside the sessions, not among
        them (the store lists every .json file in it)."""
        sessions = getattr(self.app, "sessions_dir", None) or store.sessions_dir()
        return Path(sessions) / COMPARISONS_DIR

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen(b for b in self.BINDINGS if isinstance(b, Binding)))
