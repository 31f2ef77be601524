"""Two sessions side by side: B compared with A (the baseline).

Headline metrics with their change coloured by the metric's direction, every difference in how
the runs were set up, and req/s, p99 and server CPU of both on one time axis. Wide terminals
put the figures beside the charts; narrow ones stack everything in one scrolling column.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.theme import Theme
from textual.widgets import Footer, Static

from tui_bench.analysis.compare import (
    Change,
    Difference,
    MetricDelta,
    compare_metrics,
    comparison_markdown,
    fmt_delta,
    fmt_delta_pct,
    fmt_value,
    series_points,
    session_title,
    setup_differences,
    started,
    target,
    tool_label,
)
from tui_bench.storage.session import Session
from tui_bench.ui.widgets.compare_chart import CompareChart, Line, hex_colour
from tui_bench.ui.widgets.dialogs import HelpScreen

WIDE = 120
# (chart id, title, series column, scale to the unit in the title)
CHARTS = (
    ("rps-chart", "req/s", "rps", 1.0),
    ("p99-chart", "p99 latency (ms)", "p99_s", 1e3),
    ("cpu-chart", "server CPU (%)", "server_cpu_pct", 1.0),
)
# Theme variables for a change: text shades stay readable on light and dark backgrounds.
CHANGE_VARIABLES: Mapping[Change, str] = {"better": "text-success", "worse": "text-error"}
LABEL = "dim"


def change_style(change: Change | None, variables: Mapping[str, str]) -> str:
    """A Rich style for a change; no change is dim ($text-muted is an alpha colour, which
    Rich cannot take)."""
    if change is None or change == "same":
        return LABEL
    return f"bold {variables[CHANGE_VARIABLES[change]]}"


def mark(letter: str) -> Text:
    # A span, not the Text's own style: a table would paint its whole cell with that.
    return Text.assemble((f" {letter} ", f"bold #000000 on {hex_colour(letter)}"))


def sessions_header(a: Session, b: Session) -> Table:
    grid = Table.grid(padding=(0, 1))
    grid.add_column(no_wrap=True)
    grid.add_column(style="bold", overflow="fold")
    grid.add_column(no_wrap=True, style=LABEL)
    grid.add_column(no_wrap=True)
    grid.add_column(overflow="fold", ratio=1)
    for letter, session in (("A", a), ("B", b)):
        grid.add_row(
            mark(letter),
            session_title(session),
            started(session),
            tool_label(session),
            target(session),
        )
    return grid


def differences_line(differences: Sequence[Difference]) -> Text:
    if not differences:
        return Text("same set-up: the runs differ only in what they measured", LABEL)
    known = [d for d in differences if d.a is not None and d.b is not None]
    unknown = len(differences) - len(known)
    if not known:
        return Text.assemble(
            (" set-up unknown ", "bold reverse yellow"),
            f" {unknown} fields are known for one run only: ",
            ", ".join(d.label for d in differences),
        )
    badge = f" {len(known)} set-up difference{'s' if len(known) > 1 else ''} "
    line = Text.assemble((badge, "bold reverse yellow"), " ", ", ".join(d.label for d in known))
    if unknown:
        line.append(f"; {unknown} unknown", LABEL)
    return line


def metrics_table(deltas: Sequence[MetricDelta], variables: Mapping[str, str]) -> Table:
    table = Table(box=None, padding=(0, 1), expand=False, header_style="bold")
    table.add_column("metric", style=LABEL, no_wrap=True)
    table.add_column(mark("A"), justify="right", no_wrap=True)
    table.add_column(mark("B"), justify="right", no_wrap=True)
    table.add_column("Δ", justify="right", no_wrap=True)
    table.add_column("Δ%", justify="right", no_wrap=True)
    table.add_column("B is", no_wrap=True)
    for d in deltas:
        style = change_style(d.change, variables)
        table.add_row(
            d.label,
            fmt_value(d.unit, d.a),
            fmt_value(d.unit, d.b),
            Text(fmt_delta(d.unit, d.delta), style),
            Text(fmt_delta_pct(d.delta_pct), style),
            Text("~" if d.change == "same" else d.change or "", style),
        )
    return table


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
    CompareScreen #differences {
        height: auto; border: round $warning; border-title-color: $text; padding: 0 1;
    }
    CompareScreen #differences.-same { border: round $success; }
    CompareScreen #charts { height: auto; }
    CompareScreen.-wide #body { layout: horizontal; overflow-y: hidden; }
    CompareScreen.-wide #figures {
        width: 76; height: 1fr; overflow-y: auto; scrollbar-size-vertical: 1;
    }
    CompareScreen.-wide #charts { width: 1fr; height: 1fr; }
    CompareScreen.-wide CompareChart { height: 1fr; }
    /* Wide without charts: the set-up differences take the charts' place. */
    CompareScreen.-wide.-no-charts #figures { width: 1fr; layout: horizontal; }
    CompareScreen.-wide.-no-charts #metrics { width: 76; }
    CompareScreen.-wide.-no-charts #differences { width: 1fr; }
    """
    # Textual types these as plain lists (not ClassVar), so they are assigned as such.
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (WIDE, "-wide")]  # noqa: RUF012
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
        Binding(
            "e", "export", "Export", tooltip="write the comparison as markdown (current directory)"
        ),
        Binding("question_mark", "help", "Help", key_display="?", tooltip="this help"),
    ]

    def __init__(self, a: Session, b: Session) -> None:
        super().__init__()
        self.a = a
        self.b = b

    def compose(self) -> ComposeResult:
        yield Static(id="sessions")
        yield Static(id="verdict")
        with VerticalScroll(id="body"):
            with VerticalScroll(id="figures"):
                yield Static(id="metrics")
                yield Static(id="differences")
            with VerticalScroll(id="charts"):
                for chart_id, title, _, _ in CHARTS:
                    yield CompareChart(title, id=chart_id)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#metrics").border_title = "Metrics: B against A"
        self.app.theme_changed_signal.subscribe(self, self._theme_changed)
        if getattr(self.app, "basic", False):
            self._show_charts(False)
        self.paint()
        self.query_one("#figures").focus()

    def _theme_changed(self, theme: Theme) -> None:
        self._paint_metrics()

    @property
    def charts_shown(self) -> bool:
        return not self.has_class("-no-charts")

    def paint(self) -> None:
        differences = setup_differences(self.a, self.b)
        self.query_one("#sessions", Static).update(sessions_header(self.a, self.b))
        self.query_one("#verdict", Static).update(differences_line(differences))
        self._paint_metrics()
        panel = self.query_one("#differences", Static)
        panel.update(differences_table(differences))
        panel.border_title = "Set-up differences" if differences else "Same set-up"
        panel.set_class(not differences, "-same")
        for chart_id, _, column, scale in CHARTS:
            lines = []
            for letter, session in (("A", self.a), ("B", self.b)):
                seconds, values = series_points(session, column)
                lines.append(Line(letter, seconds, [v * scale for v in values]))
            self.query_one(f"#{chart_id}", CompareChart).show(lines)

    def _paint_metrics(self) -> None:
        table = metrics_table(compare_metrics(self.a, self.b), self.app.get_css_variables())
        self.query_one("#metrics", Static).update(table)

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

    async def action_export(self) -> None:
        path = Path.cwd() / f"compare-{self.a.id}-vs-{self.b.id}.md"
        text = comparison_markdown(self.a, self.b)
        try:
            await asyncio.to_thread(path.write_text, text)
        except OSError as exc:
            self.notify(f"cannot write {path}: {exc.strerror}", severity="error", timeout=10)
            return
        self.notify(f"comparison written to {path}", timeout=10)

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen(b for b in self.BINDINGS if isinstance(b, Binding)))
