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
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Static

from tui_bench.analysis.compare import (
    Difference,
    MetricDelta,
    series_points,
    setup_differences,
)
from tui_bench.analysis.names import TESTED
from tui_bench.analysis.significance import (
    Report,
    Side,
    compare_sides,
    median_deltas,
    side_title,
)
from tui_bench.errors import UsageError
from tui_bench.printable import printable
from tui_bench.report.comparison import COMPARE_FORMATS, comparison_text
from tui_bench.storage import store
from tui_bench.storage.atomic import write_new
from tui_bench.ui.messages import leave
from tui_bench.ui.text.compare_text import (
    chart_note,
    differences_line,
    differences_table,
    notes_text,
    others_table,
    sessions_header,
    verdicts_table,
)
from tui_bench.ui.tones import Tones, follow_theme
from tui_bench.ui.widgets.compare_chart import CompareChart, Line
from tui_bench.ui.widgets.dialogs import HelpScreen
from tui_bench.ui.widgets.save_dialog import SaveChoice, SaveDialog

WIDE = 120
COMPARISONS_DIR = "comparisons"
# (chart id, title, series column, scale to the unit in the title)
CHARTS = (
    ("rps-chart", "req/s", "rps", 1.0),
    ("p99-chart", "p99 latency (ms)", "p99_s", 1e3),
    ("cpu-chart", "server CPU (%)", "server_cpu_pct", 1.0),
)


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
        leave(self, 0)

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

        async def write(choice: SaveChoice) -> Path:
            return await self._export(a, b, choice)

        def written(path: Path | None) -> None:
            if path is not None:
                self.notify(printable(f"comparison written to {path}"), timeout=10, markup=False)

        dialog = SaveDialog(title, COMPARE_FORMATS, str(stem), hint, write)
        self.app.push_screen(dialog, written)

    async def _export(self, a: Side, b: Side, choice: SaveChoice) -> Path:
        """The comparison written as `choice` says; UsageError (one line) when it cannot."""
        report = self.report if (a, b) == (self.a, self.b) else None
        if report is None:
            # The tests have not finished yet: wait for a run of them.
            report = await asyncio.to_thread(compare_sides, a, b)
        # Off the loop too: the document reads every run's result again.
        text = await asyncio.to_thread(comparison_text, report, choice.fmt)
        if choice.path.parent == self._exports_dir:
            # The directory offered is made; one the user typed must be there already.
            try:
                await asyncio.to_thread(self._exports_dir.mkdir, parents=True, exist_ok=True)
            except OSError as exc:
                raise UsageError(f"cannot write {choice.path}: {exc.strerror}") from None
        return await asyncio.to_thread(write_new, choice.path, text, force=choice.overwrite)

    @property
    def _exports_dir(self) -> Path:
        """Where exports go unless the user says otherwise: beside the sessions, not among
        them (the store lists every .json file in it)."""
        sessions = getattr(self.app, "sessions_dir", None) or store.sessions_dir()
        return Path(sessions) / COMPARISONS_DIR

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen(b for b in self.BINDINGS if isinstance(b, Binding)))
