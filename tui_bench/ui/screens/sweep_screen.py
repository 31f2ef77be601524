"""The sweep screen: a sweep as it goes, or a saved one as it ended.

Which run of how many and the time left, the going run's numbers, a table with one row per
point that fills in as runs end, and charts of the points against the varied parameter with
the knee marked (and where the sweep varies rate, its latencies against the req/s achieved).
The sweep's listener only folds events into a SweepState; one timer paints from it. The
table's rows exist from the start and only their cells change; the points'
aggregates come with each ended run, and the charts are redrawn only then.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import ClassVar, Protocol

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Container, Horizontal
from textual.widgets import DataTable, Footer, ProgressBar, RichLog, Static

from tui_bench.engine.live_state import MAX_LINES, LiveState
from tui_bench.engine.sweep import SweepFinished
from tui_bench.engine.sweep_state import PointRow, StateEvent, SweepState, SweepTitle
from tui_bench.errors import SessionError
from tui_bench.report.exit_codes import EXIT_CODES, sweep_exit_code
from tui_bench.storage.refs import Located
from tui_bench.storage.session import Session
from tui_bench.ui.baseline_key import BASELINE_KEY, compare_with_baseline
from tui_bench.ui.screens.driving_screen import EXIT_CRASHED, DrivingScreen
from tui_bench.ui.screens.monitor_screen import CHART_MIN_HEIGHT, HELP
from tui_bench.ui.text.sweep_table import Column, columns, head_cell, point_cell, spread
from tui_bench.ui.text.sweep_text import header, now, summary, where
from tui_bench.ui.tones import Tones, follow_theme
from tui_bench.ui.widgets.dialogs import HelpScreen
from tui_bench.ui.widgets.run_chart import READABLE_HEIGHT
from tui_bench.ui.widgets.sweep_chart import SweepChart

PAINT_HZ = 4
WIDE = 120
# The rows around the body: the title's two, the progress line's and the footer's.
FRAME_ROWS = 4
# The most of the body the table takes beside the charts (see the CSS).
TABLE_SHARE = 0.5


def charts_fit(height: int, points: int, *, ending: int | None) -> bool:
    """Whether the charts get a height they can be read at (`READABLE_HEIGHT`) below the
    table of `points` rows, at the heights the CSS gives it, and above the ended sweep's
    summary of `ending` rows (None: going, the going run's line instead, above)."""
    body = height - FRAME_ROWS - (1 if ending is None else ending)
    # Its head row, and its border where the screen is tall.
    table = points + 1 + 2 * (height >= CHART_MIN_HEIGHT)
    return body - min(table, int(body * TABLE_SHARE)) >= READABLE_HEIGHT


class SweepEngine(Protocol):
    """What the screen needs of a sweep: SweepRunner, or a scripted fake in tests."""

    async def run(self) -> SweepFinished: ...

    def stop(self) -> None: ...


SweepEngineFactory = Callable[[Callable[[StateEvent], None]], SweepEngine]


class SweepScreen(DrivingScreen):
    JOB_NAME = "sweep"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("s", "stop", "Stop", tooltip="stop the sweep; the runs so far are kept"),
        Binding("q", "quit_sweep", "Quit", tooltip="quit (asks first while the sweep goes)"),
        Binding("c", "toggle_charts", "Charts", tooltip="show / hide the charts of the points"),
        Binding("l", "toggle_log", "Log", tooltip="show / hide the going run's raw output"),
        BASELINE_KEY,
        HELP,
    ]
    # Textual types these as plain lists (not ClassVar), so they are assigned as such.
    HORIZONTAL_BREAKPOINTS = [  # noqa: RUF012
        (0, "-narrow"),
        (WIDE, "-wide"),
    ]
    VERTICAL_BREAKPOINTS = [  # noqa: RUF012
        (0, "-short"),
        (CHART_MIN_HEIGHT, "-tall"),
    ]
    DEFAULT_CSS = """
    SweepScreen { layout: vertical; }
    SweepScreen > #title {
        height: 2; padding: 0 1; background: $boost;
        text-wrap: nowrap; text-overflow: ellipsis;
    }
    SweepScreen > #where-row { height: 1; padding: 0 1; }
    SweepScreen #where { width: auto; max-width: 70%; text-wrap: nowrap; text-overflow: ellipsis; }
    SweepScreen #bar { width: 1fr; padding: 0 0 0 2; & > Bar { width: 1fr; } }
    SweepScreen > #now { height: 1; padding: 0 1; text-wrap: nowrap; text-overflow: ellipsis; }
    SweepScreen > #body { height: 1fr; layout: vertical; }
    /* As tall as its rows (the room below is the charts'), as wide as the screen: its
       columns are spread to fill it (see _fit_table). */
    SweepScreen #points {
        width: 100%; height: auto; max-height: 100%;
        border: round $primary-darken-1;
    }
    /* Short: every row for the figures (nor is its focus framed then: see on_resize). */
    SweepScreen.-short #points { border: none; }
    /* Below the table: side by side when short (stacked, each would be too flat to read) or
       wide (a third of the width each), stacked when tall and narrow. */
    SweepScreen #charts { height: 1fr; layout: horizontal; display: none; }
    SweepScreen.-tall #charts { layout: vertical; }
    SweepScreen.-wide #charts { layout: horizontal; }
    SweepScreen.-charts #charts { display: block; }
    SweepScreen.-charts #points { max-height: 50%; }
    SweepScreen > #ending {
        height: auto; max-height: 40%; overflow-y: auto; padding: 0 1;
        border: round $success; border-title-color: $text; display: none;
    }
    SweepScreen.-finished > #ending { display: block; }
    SweepScreen.-finished > #now { display: none; }
    SweepScreen > #output { height: 1fr; border: round $secondary; display: none; }
    """
    # The theme's, from mounting on.
    tones: Tones

    def __init__(
        self,
        state: SweepState,
        title: SweepTitle,
        engine_factory: SweepEngineFactory | None = None,
        *,
        basic: bool = False,
        baseline: Located | None = None,
    ) -> None:
        """With `engine_factory`, runs the sweep; without, shows `state` as it is (a saved
        sweep). `baseline`: what `b` compares the ended sweep with."""
        super().__init__()
        self.state = state
        self.baseline = baseline
        self.title_info = title
        self.engine_factory = engine_factory
        self.basic = basic
        self._columns = columns(state)
        # The charts as the user asked for them with `c`; None: shown where they fit.
        self._charts_asked: bool | None = None
        self._painted = -1
        self._table_painted = -1
        self._charts_painted = -1
        self._log_source: LiveState | None = None
        self._lines_painted = 0

    @classmethod
    def of_session(cls, session: Session, *, basic: bool = False) -> SweepScreen:
        """A saved sweep, as it ended; SessionError when its plan cannot be read."""
        # A session is built in memory (no path) only by tests and imports.
        path = session.path or Path(f"{session.id}.json")
        try:
            state = SweepState.of_session(session, path)
            title = SweepTitle.of_session(session)
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise SessionError(f"{path}: sweep session file is damaged ({exc!r})") from None
        return cls(state, title, basic=basic)

    def compose(self) -> ComposeResult:
        yield Static(id="title")
        with Horizontal(id="where-row"):
            yield Static(id="where")
            yield ProgressBar(total=1.0, show_eta=False, id="bar")
        yield Static(id="now")
        with Container(id="body"):
            yield DataTable[Text](id="points", classes="framed", cursor_type="none", cell_padding=0)
            with Container(id="charts"):
                yield SweepChart("req/s", ["rps"], "rps", id="rps-chart")
                yield SweepChart("latency (ms)", ["p50", "p99", "max"], "p99", id="latency-chart")
                yield SweepChart("server CPU (%)", ["cpu"], "cpu", id="cpu-chart")
                if self.state.plan.varies_rate:
                    yield SweepChart.curve(id="curve-chart")
        yield Static(id="ending")
        yield RichLog(id="output", classes="framed", max_lines=MAX_LINES, markup=False, wrap=False)
        yield Footer()

    def on_resize(self, event: events.Resize) -> None:
        # The app's focus frame would give the short screen's borderless table a border back.
        self.query_one("#points").set_class(event.size.height >= CHART_MIN_HEIGHT, "framed")
        # The table's width and the summary's height are known once laid out.
        self.call_after_refresh(self._fit_table)
        self.call_after_refresh(self._place_charts)

    def on_mount(self) -> None:
        self.query_one("#ending").border_title = "Sweep"
        self.query_one("#output").border_title = "Tool output (the going run)"
        self.tones = follow_theme(self, self._retone)
        self._build_table(self._columns)
        self._place_charts()
        self.set_interval(1 / PAINT_HZ, self.paint)
        if self.engine_factory is not None:
            self.drive(self.engine_factory(self.state.apply))
        self.paint(force=True)

    @property
    def finished(self) -> SweepFinished | None:
        return self.state.finished

    @property
    def exit_code(self) -> int:
        """As `tuibench sweep --headless` would exit; 0 for a saved sweep shown again."""
        if self._crashed:
            return EXIT_CRASHED
        finished = self.state.finished
        if finished is None:
            return EXIT_CODES["interrupted"]
        if self.engine_factory is None:
            return 0
        return sweep_exit_code(finished)

    # Painting

    def paint(self, force: bool = False) -> None:
        """The numbers when anything changed; the table when runs started or ended; the
        charts only when the aggregates changed."""
        state = self.state
        if state.version == self._painted and not force:
            return
        self._painted = state.version
        self.query_one("#title", Static).update(header(self.title_info, state))
        self.query_one("#where", Static).update(where(state, stopping=self._stopping))
        self.query_one(ProgressBar).update(progress=state.fraction)
        self.query_one("#now", Static).update(now(state, self.tones))
        if self.has_class("-finished") != (state.finished is not None):
            self.set_class(state.finished is not None, "-finished")
            # The summary takes its rows from the charts': counted once laid out.
            self.call_after_refresh(self._place_charts)
        if state.finished is not None:
            self.query_one("#ending", Static).update(summary(state, self.tones))
        if state.points_version != self._table_painted or force:
            self._paint_table()
        self._paint_charts(force)
        self._paint_log()

    def _retone(self, tones: Tones) -> None:
        """Another theme: the words and the table again, with its colours; not the charts."""
        self.tones = tones
        self._painted = self._table_painted = -1
        self.paint()

    def _build_table(self, cols: list[Column]) -> None:
        """The table's columns and rows, from scratch."""
        self._columns = cols
        table = self.query_one(DataTable)
        table.clear(columns=True)
        for i, column in enumerate(cols):
            table.add_column(
                head_cell(column, i == 0), width=column.width + (i == 0), key=column.key
            )
        for row in self.state.rows():
            table.add_row(*self._cells(row), key=str(row.index))
        self._table_painted = self.state.points_version

    def _fit_table(self) -> None:
        """The columns spread over the table's width: no box around empty columns."""
        width = self.query_one(DataTable).scrollable_content_region.width
        cols = spread(columns(self.state), width)
        if cols != self._columns:
            self._build_table(cols)

    def _place_charts(self) -> None:
        """Shown unless asked not to, where they get a height they can be read at."""
        size = self.app.size
        ending = self.query_one("#ending").outer_size.height if self.finished else None
        fits = charts_fit(size.height, len(self.state.points), ending=ending)
        asked = self._charts_asked
        shown = not self.basic and (fits if asked is None else asked)
        if shown != self.has_class("-charts"):
            self.set_class(shown, "-charts")
            self._paint_charts(force=True)

    def _paint_table(self) -> None:
        table = self.query_one(DataTable)
        rows = self.state.rows()
        if table.row_count != len(rows):
            # A search's next step: a row more, the columns fitted to its values again.
            self._columns = []
            self._fit_table()
            return
        self._table_painted = self.state.points_version
        for row in rows:
            for column, cell in zip(self._columns, self._cells(row), strict=True):
                table.update_cell(str(row.index), column.key, cell)

    def _cells(self, row: PointRow) -> list[Text]:
        return [
            point_cell(column, column.cell(row, self.tones), i == 0, going=row.going)
            for i, column in enumerate(self._columns)
        ]

    def _paint_charts(self, force: bool = False) -> None:
        if not self.has_class("-charts"):
            return
        if self.state.summary_version == self._charts_painted and not force:
            return
        state = self.state
        self._charts_painted = state.summary_version
        for chart in self.query(SweepChart):
            chart.show(state.plan, state.summary, state.slo)

    def _paint_log(self) -> None:
        log = self.query_one(RichLog)
        live = self.state.live
        if not log.display or live is None:
            return
        if live is not self._log_source:
            # A new run: its output from the start.
            log.clear()
            self._log_source = live
            self._lines_painted = live.lines_seen - len(live.output)
        for line in live.new_lines(self._lines_painted):
            log.write(line.text.rstrip("\n"))
        self._lines_painted = live.lines_seen

    # Actions

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "stop":
            return self._engine is not None
        if action == "toggle_log":
            # A saved sweep keeps no output of its own.
            return self.engine_factory is not None
        if action == "compare_baseline":
            return self.baseline is not None and self.state.finished is not None
        return True

    def action_quit_sweep(self) -> None:
        self.ask_and_quit(leave_app=False)

    def action_toggle_charts(self) -> None:
        if self.basic:
            self.notify("basic mode draws no chart")
            return
        self._charts_asked = not self.has_class("-charts")
        self._place_charts()

    def action_toggle_log(self) -> None:
        log = self.query_one(RichLog)
        log.display = not log.display
        self._log_source = None
        self._paint_log()

    def action_compare_baseline(self) -> None:
        finished = self.state.finished
        compare_with_baseline(self, self.baseline, finished.session_path if finished else None)

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen(b for b in self.BINDINGS if isinstance(b, Binding)))
