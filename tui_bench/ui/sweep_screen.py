"""The sweep screen: a sweep as it goes, or a saved one as it ended.

Which run of how many and the time left, the going run's numbers, a table with one row per
point that fills in as runs end, and charts of the points against the varied parameter with
the knee marked. The sweep's listener only folds events into a SweepState; one timer paints
from it. The table's rows exist from the start and only their cells change; the points'
aggregates come with each ended run, and the charts are redrawn only then.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import ClassVar, Protocol

from rich.table import Table
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
from tui_bench.formats import fmt_count, fmt_seconds
from tui_bench.redaction import redact_text
from tui_bench.report.exit_codes import EXIT_CODES, sweep_exit_code
from tui_bench.report.text import run_line
from tui_bench.storage.refs import Located
from tui_bench.storage.session import Session
from tui_bench.storage.sweep_doc import shown
from tui_bench.ui.baseline_key import BASELINE_KEY, compare_with_baseline
from tui_bench.ui.live_screen import CHART_MIN_HEIGHT, EXIT_CRASHED, HELP, DrivingScreen
from tui_bench.ui.render import clock, pct, verdict_rows
from tui_bench.ui.tones import LABEL, Tones, follow_theme
from tui_bench.ui.widgets.dialogs import HelpScreen
from tui_bench.ui.widgets.sweep_chart import KNEE_MARKER, SweepChart

PAINT_HZ = 4
WIDE = 120
GOING_MARK = "▶"


class SweepEngine(Protocol):
    """What the screen needs of a sweep: SweepRunner, or a scripted fake in tests."""

    async def run(self) -> SweepFinished: ...

    def stop(self) -> None: ...


SweepEngineFactory = Callable[[Callable[[StateEvent], None]], SweepEngine]


# ---- the words (Rich text from the state)


def header(title: SweepTitle, state: SweepState) -> Text:
    """What is swept: name, tools and URL, then what varies, how often and the SLO."""
    top = Text.assemble((" SWEEP ", "reverse bold"))
    target = redact_text(title.target)
    for part, style in ((title.name, "bold"), (title.tool_label, "bold"), (target, "")):
        if part:
            top.append(f"  {part}", style)
    varied = [
        f"{d['name']}={','.join(shown(d['name'], v) for v in d['values'])}"
        for d in state.plan.get("vary") or []
    ]
    labels = state.plan.get("labels") or []
    parts = [
        " × ".join(varied) or "nothing varies",
        f"labels {', '.join(labels)}" if labels else "",
        f"{state.rounds} rounds" if state.rounds > 1 else "",
        f"{_count(len(state.points), 'point')}, {_count(state.total, 'run')}",
        f"SLO {state.slo_text}" if state.slo_text else "",
    ]
    return Text("\n").join([top, Text(" · ".join(filter(None, parts)), LABEL)])


def _count(n: int, what: str) -> str:
    return f"{n} {what}" + "s" * (n != 1)


def where(state: SweepState, *, stopping: bool) -> Text:
    """`run 3/8 · c=200 rep 2 · ETA 01:20 · running`."""
    going = state.going
    if going is not None:
        parts = [f"run {going.index + 1}/{state.total}", going.point.name]
        if state.rounds > 1:
            parts[-1] += f" rep {going.repeat + 1}"
    else:
        parts = [f"{state.done}/{state.total} runs"]
    if state.running:
        parts.append(f"ETA {clock(state.eta_now)}")
    if stopping and state.running:
        status = "stopping…"
    elif state.cooling_s is not None:
        status = f"cooling down {state.cooling_s:g} s"
    else:
        status = state.status
    return Text(" · ".join([*filter(None, parts), status]))


def now(state: SweepState, tones: Tones) -> Text:
    """The going run's numbers as they come, else how the last run went."""
    live = state.live
    if state.going is not None and live is not None:
        text = Text.assemble(("now ", LABEL), f"{fmt_count(live.rps_now)} req/s")
        text.append("  p99 ", LABEL)
        text.append(fmt_seconds(live.latency["p99_s"]))
        text.append("  errors ", LABEL)
        text.append(f"{live.error_total:,}", f"bold {tones.error}" if live.error_total else "")
        text.append("  elapsed ", LABEL)
        text.append(clock(live.elapsed_s))
        return text
    if state.last is not None:
        # The time left is on the line above.
        return Text.assemble(("last ", LABEL), run_line(replace(state.last, eta_s=None)))
    return Text("waiting for the first run", LABEL)


def summary(state: SweepState, tones: Tones) -> Table:
    """How the sweep ended: status, knee, failed thresholds, session, warnings; a long value
    wraps beside its label."""
    grid = Table.grid(padding=(0, 1))
    grid.add_column(no_wrap=True)
    grid.add_column(overflow="fold")
    finished = state.finished
    if finished is None:
        return grid
    doc = finished.document
    status = Text.assemble((finished.status, "bold"))
    if finished.message:
        status.append(f" — {finished.message}")
    grid.add_row(Text("status", LABEL), status)
    knee = doc.get("knee")
    if isinstance(knee, Mapping):
        if knee.get("point") is None:
            found = Text(f"no valid point meets {knee.get('slo')}")
        else:
            found = Text.assemble(
                (f"{KNEE_MARKER} {knee.get('name')}", "bold"),
                f": {fmt_count(knee.get('rps'))} req/s for {knee.get('slo')}",
            )
        grid.add_row(Text("knee", LABEL), found)
    for label, text in verdict_rows(finished.verdicts, tones):
        grid.add_row(label, text)
    grid.add_row(Text("session", LABEL), str(finished.session_path))
    for warning in doc.get("warnings") or []:
        grid.add_row(Text("warning", tones.warning), str(warning.get("message")))
    return grid


# ---- the table


@dataclass(frozen=True)
class Column:
    """A column of the points table. Cells are laid out here, to the column's exact width
    (the table adds no padding): a number's leading space parts it from its neighbour."""

    key: str
    label: str
    width: int
    cell: Callable[[PointRow, Tones], Text]
    left: bool = False

    def fit(self, text: Text) -> Text:
        pad = " " * max(self.width - text.cell_len, 0)
        return text + pad if self.left else Text(pad) + text


def _spread(row: PointRow) -> str:
    """The runs' sd as a share of their mean: `±1.2%`, `±16%`."""
    if row.rps_sd is None or not row.rps:
        return ""
    share = row.rps_sd / row.rps * 100
    return f"±{share:.1f}%" if share < 10 else f"±{share:.0f}%"


def _rps(row: PointRow, tones: Tones) -> Text:
    return Text.assemble((f"{fmt_count(row.rps):>8}", "bold"), (f" {_spread(row):<5}", LABEL))


def _errors(row: PointRow, tones: Tones) -> Text:
    if row.error_rate is None:
        return Text("–")
    return Text(f"{row.error_rate * 100:.2f}%", f"bold {tones.error}" if row.error_rate else "")


def _slo(row: PointRow, tones: Tones) -> Text:
    if row.meets_slo is None:
        return Text()
    # The star before the mark: the marks stay in one column.
    text = Text(f"{KNEE_MARKER} " if row.knee else "", f"bold {tones.warning}")
    if row.meets_slo:
        text.append("✓", tones.success)
    else:
        text.append("✗", f"bold {tones.error}")
    return text


def _verdict(row: PointRow, tones: Tones) -> Text:
    if row.verdict is None:
        return Text("–", LABEL)
    styles = {"valid": LABEL, "suspect": tones.warning, "invalid": f"bold {tones.error}"}
    word = row.verdict.upper() if row.verdict == "invalid" else row.verdict
    return Text(word, styles.get(row.verdict, ""))


def _latency(key: str) -> Callable[[PointRow, Tones], Text]:
    return lambda row, _: Text(fmt_seconds(getattr(row, key)))


def columns(state: SweepState) -> list[Column]:
    """The label and each varied parameter, then the figures; fixed widths, so that the
    table does not shift as figures arrive. 78 columns with a label and one parameter."""
    plan = state.plan
    cols = []
    if plan.get("labels"):
        width = max(len("label"), *(len(p["label"] or "") for p in state.points))
        cols.append(Column("label", "label", width + 1, lambda r, _: Text(r.label or ""), True))
    for dim in plan.get("vary") or []:
        name = dim["name"]
        width = max(len(name), *(len(shown(name, v)) for v in dim["values"]))

        def value(row: PointRow, _: Tones, name: str = name) -> Text:
            return Text(shown(name, row.values[name]))

        cols.append(Column(f"v:{name}", name, width + 1, value))
    if not cols:
        width = max(len("point"), *(len(p["name"] or "all") for p in state.points))
        cols.append(Column("point", "point", width + 1, lambda r, _: Text(r.name or "all"), True))
    runs = f"{state.rounds}/{state.rounds}"
    cols += [
        Column("runs", "runs", max(len(runs), 4) + 1, lambda r, _: Text(f"{r.done}/{r.planned}")),
        Column("rps", "req/s ±  ", 14, _rps),
        Column("p50", "p50", 10, _latency("p50_s")),
        Column("p99", "p99", 10, _latency("p99_s")),
        Column("max", "max", 10, _latency("max_s")),
        Column("errors", "errors", 7, _errors),
        Column("cpu", "server", 7, lambda r, _: Text(pct(r.server_cpu_pct))),
        Column("validity", "validity", 9, _verdict),
    ]
    if state.slo:
        cols.append(Column("slo", "SLO", 4, _slo))
    return cols


def _label(column: Column, first: bool) -> Text:
    return _cell(column, Text(column.label, "bold"), first, going=False)


def _cell(column: Column, text: Text, first: bool, *, going: bool) -> Text:
    """The first column starts with the mark of the point going (one more character)."""
    if not first:
        return column.fit(text)
    return Text.assemble((GOING_MARK if going else " ", "bold"), column.fit(text))


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
    SweepScreen #points { height: 1fr; border: round $primary-darken-1; }
    /* Short: every row for the figures (nor is its focus framed then: see on_resize). */
    SweepScreen.-short #points { border: none; }
    /* Side by side below the table when short: stacked, each would be too flat to read. */
    SweepScreen #charts { height: 1fr; layout: horizontal; display: none; }
    SweepScreen.-tall #charts { layout: vertical; }
    SweepScreen.-charts #charts { display: block; }
    SweepScreen.-charts #points { height: auto; max-height: 50%; }
    SweepScreen.-wide > #body { layout: horizontal; }
    SweepScreen.-wide #points { width: auto; height: 1fr; max-height: 100%; }
    SweepScreen.-wide #charts { width: 1fr; layout: vertical; }
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
            state = SweepState.from_document(session.doc, path)
            title = SweepTitle.of_document(session.doc)
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
        yield Static(id="ending")
        yield RichLog(id="output", classes="framed", max_lines=MAX_LINES, markup=False, wrap=False)
        yield Footer()

    def on_resize(self, event: events.Resize) -> None:
        # The app's focus frame would give the short screen's borderless table a border back.
        self.query_one("#points").set_class(event.size.height >= CHART_MIN_HEIGHT, "framed")

    def on_mount(self) -> None:
        self.query_one("#ending").border_title = "Sweep"
        self.query_one("#output").border_title = "Tool output (the going run)"
        self.tones = follow_theme(self, self._retone)
        table = self.query_one(DataTable)
        for i, column in enumerate(self._columns):
            table.add_column(_label(column, i == 0), width=column.width + (i == 0), key=column.key)
        for row in self.state.rows():
            table.add_row(*self._cells(row), key=str(row.index))
        self._table_painted = self.state.points_version
        charts = not self.basic and self.app.size.height >= CHART_MIN_HEIGHT
        self.set_class(charts, "-charts")
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
        self.set_class(state.finished is not None, "-finished")
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

    def _paint_table(self) -> None:
        self._table_painted = self.state.points_version
        table = self.query_one(DataTable)
        for row in self.state.rows():
            for column, cell in zip(self._columns, self._cells(row), strict=True):
                table.update_cell(str(row.index), column.key, cell)

    def _cells(self, row: PointRow) -> list[Text]:
        return [
            _cell(column, column.cell(row, self.tones), i == 0, going=row.going)
            for i, column in enumerate(self._columns)
        ]

    def _paint_charts(self, force: bool = False) -> None:
        if not self.has_class("-charts"):
            return
        if self.state.summary_version == self._charts_painted and not force:
            return
        state = self.state
        self._charts_painted = state.summary_version
        doc = {"sweep": state.plan, **(state.summary or {})}
        for chart in self.query(SweepChart):
            chart.show(doc, state.slo)

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
        self.toggle_class("-charts")
        self._paint_charts(force=True)

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
