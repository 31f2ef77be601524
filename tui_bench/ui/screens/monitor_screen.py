"""The base of the screens that show a run as it goes: the engine folds events into a
LiveState, and one timer paints from it.

The engine's listener only calls `LiveState.apply` (event rate, no widgets touched); the
paint timer reads the state at a fixed rate and skips frames in which nothing changed.
`MonitorScreen` is shared by the live and the replay screen, which feeds the same panels
from a saved session instead of a process.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Container, VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, ProgressBar, RichLog

from tui_bench.engine.live_state import LiveState
from tui_bench.formats import fmt_bytes, fmt_compact, fmt_latency
from tui_bench.ui.messages import leave
from tui_bench.ui.text import monitor_text, result_text, text_lines
from tui_bench.ui.tones import Tones, follow_theme
from tui_bench.ui.widgets.dialogs import HelpScreen
from tui_bench.ui.widgets.metric_panel import MetricPanel
from tui_bench.ui.widgets.run_chart import READABLE_HEIGHT, SPANS, RunChart
from tui_bench.ui.widgets.steady_static import SteadyStatic

# The paint clock's ticks a second: a tick that finds nothing to paint costs nothing.
NUMBERS_HZ = 4
# Between closed seconds a frame is painted once a second at most. The figures change when
# a second closes, and that frame is painted at the next tick; what else changes (samples,
# the elapsed time, a warning) waits for it or for this. Every cycle the screen takes is
# taken from a load generator that fills a core, and every frame is bytes down an SSH link.
PAINT_EVERY = NUMBERS_HZ
# The columns a vertical scrollbar takes beside a result too long for its box.
SCROLLBAR_ROOM = 2
# The big chart takes a new point every this many closed seconds while the run goes.
CHART_SECONDS = 2
# Below this many rows the panels drop their sparklines beside the chart (see the CSS).
CHART_MIN_HEIGHT = 36
# From this many columns on, the panels stand three to a row, else two.
WIDE = 120
# The rows around the panels: the header's three, the progress bar's and the footer's.
FRAME_ROWS = 5
# A panel's rows with its figures whole: the server's three lines, two sparklines, the border
# (see the CSS).
PANEL_HEIGHT = 7
# The most of the screen an ended run's result takes beside the chart (see the CSS).
RESULT_SHARE = 0.35


def chart_fits(width: int, height: int, *, ended: bool) -> bool:
    """Whether the big chart gets a height it can be read at (`READABLE_HEIGHT`) below the
    panels, at the heights the CSS gives them, and the result of an ended run."""
    panel_rows = 2 if width >= WIDE else 3
    # While it runs, the panels' tall height, even where a short screen gives them a row
    # less: a chart that fits at some height then fits at every greater one.
    panel_height = PANEL_HEIGHT - 1 if ended else PANEL_HEIGHT
    result = int(height * RESULT_SHARE) if ended else 0
    return FRAME_ROWS + result + panel_rows * panel_height + READABLE_HEIGHT <= height


def panels_fit(width: int, height: int) -> bool:
    """Whether the panels of a going run get the height of their figures without the chart."""
    panel_rows = 2 if width >= WIDE else 3
    return FRAME_ROWS + panel_rows * PANEL_HEIGHT <= height


# The keys both monitor screens have; each screen lists its keys in the order its footer shows.
# Expand and Theme are only in the help: with them the ended run's footer (Again, Compare,
# Label, Baseline) does not fit in 80 columns, and they matter least there.
EXPAND = Binding("e", "expand", "Expand", show=False, tooltip="expand the focused panel / back")
LOG = Binding("l", "toggle_log", "Log", tooltip="show / hide the tool's raw output")
CHART = Binding("c", "toggle_chart", "Chart", tooltip="show / hide the big chart")
ZOOM = Binding(
    "z",
    "zoom",
    "Zoom",
    show=False,
    tooltip="the chart: the whole run, its last 10 minutes, its last minute",
)
THEME = Binding("t", "app.cycle_theme", "Theme", show=False, tooltip="next colour theme")
HELP = Binding("question_mark", "help", "Help", key_display="?", tooltip="this help")


class MonitorScreen(Screen[None]):
    """The panels of a run and their painting from `self.state`, on a fixed clock.

    Subclasses feed the state (replace it with `show_state`), paint the header and start
    their source in `begin`.
    """

    # The theme's, from mounting on.
    tones: Tones

    # The first panel, not the result above the panels (hidden until the run ends).
    AUTO_FOCUS = "MetricPanel"
    # Textual types these as plain lists (not ClassVar), so they are assigned as such.
    HORIZONTAL_BREAKPOINTS = [  # noqa: RUF012
        (0, "-narrow"),
        (WIDE, "-wide"),
    ]
    VERTICAL_BREAKPOINTS = [  # noqa: RUF012
        (0, "-short"),
        (CHART_MIN_HEIGHT, "-tall"),
    ]

    def __init__(self, state: LiveState, *, basic: bool) -> None:
        super().__init__()
        self.state = state
        self.basic = basic
        # The chart as the user asked for it with `c`; None: shown when the screen is tall.
        self._chart_asked: bool | None = None
        # What the chart spans (`z`): the whole run, or its last seconds.
        self._span: float | None = SPANS[0]
        self._painted_version = -1
        self._chart_version = -1
        # The sparklines change only with a new second: redrawn then, not every frame.
        self._sparks_version = -1
        self._lines_painted = 0
        self._frame = 0
        self._painted_frame = 0
        # Whether the frame painted last showed the run ended: its end is painted at once.
        self._painted_end = False

    def compose(self) -> ComposeResult:
        yield SteadyStatic(id="header")
        yield ProgressBar(total=1.0, show_eta=False, id="progress")
        # Focusable: on a short screen the result is longer than its room and scrolls.
        with VerticalScroll(id="result", classes="framed"):
            yield SteadyStatic(id="summary")
        with Container(id="panels"):
            yield MetricPanel("Throughput", sparklines={"req/s": fmt_compact}, id="throughput")
            yield MetricPanel(
                monitor_text.LATENCY_TITLE, sparklines={"p99": fmt_latency}, id="latency"
            )
            yield MetricPanel("Status & errors", id="status")
            yield MetricPanel(
                "Server", sparklines={"cpu": text_lines.pct, "rss": fmt_bytes}, id="server"
            )
            yield MetricPanel(
                "Client (load generator)", sparklines={"cpu": text_lines.pct}, id="client"
            )
            yield MetricPanel("Warnings", id="warnings")
        yield RunChart(id="chart")
        yield RichLog(id="log", max_lines=self.state.output.maxlen, markup=False, wrap=False)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#result").border_title = "Result"
        self.query_one("#log").border_title = "Tool output"
        self._place_chart()
        self.tones = follow_theme(self, self._retone)
        self.set_interval(1 / NUMBERS_HZ, self.paint)
        self.begin()
        # The first frame shows what is known at once, not a timer tick later.
        self.paint(force=True)

    def on_resize(self) -> None:
        self._place_chart()
        # Its ticks and points follow its size: drawn again on the next frame, once laid out.
        self._chart_version = -1
        self.mark_dirty()

    def _place_chart(self) -> None:
        """Shown unless asked not to, when it gets a height it can be read at below the
        panels (and the result, once the run ended): resized smaller, the chart gives its
        room back to the panels' figures and the result's."""
        shown = not self.basic and self._chart_asked is not False and self._chart_fits()
        chart = self.query_one(RunChart)
        if shown != chart.display:
            chart.display = shown
            self._chart_version = -1
            self.mark_dirty()
        # With the chart on, the panels keep the height of their figures (see the CSS).
        self.set_class(shown, "-chart")
        # Without it too, while the run goes and where they fit: a box stretched past its
        # figures is rows of nothing, sent again whenever its border changes.
        size = self.app.size
        self.set_class(
            not shown
            and self.state.finished is None
            and not self.has_class("-expand")
            and panels_fit(size.width, size.height),
            "-fitted",
        )

    def _chart_fits(self) -> bool:
        size = self.app.size
        return chart_fits(size.width, size.height, ended=self.state.finished is not None)

    def begin(self) -> None:
        """Start feeding the state (called once the panels exist)."""

    def show_state(self, state: LiveState) -> None:
        """Paint from `state` from now on, from scratch."""
        self.state = state
        self._painted_version = self._chart_version = self._sparks_version = -1
        self._lines_painted = state.lines_seen - len(state.output)
        self.query_one(RichLog).clear()
        self.query_one(ProgressBar).update(progress=state.fraction or 0)

    # Painting

    @property
    def painting_held(self) -> bool:
        return False

    def mark_dirty(self) -> None:
        """Something the state does not hold changed: repaint on the next tick."""
        self._painted_version = -1
        self._painted_frame = -PAINT_EVERY

    def _retone(self, tones: Tones) -> None:
        """Another theme: what is coloured by meaning is painted again now; the panels whose
        text is the same are left alone."""
        self.tones = tones
        self.mark_dirty()
        self.paint()

    def paint(self, force: bool = False) -> None:
        """One tick of the paint clock: a frame when a second closed, when the run ended, or
        once a second when anything else changed; each widget only when its part changed."""
        state = self.state
        self._frame += 1
        if not force and not self._due(state):
            return
        self._painted_version = state.version
        self._painted_frame = self._frame
        self._painted_end = state.finished is not None
        self.paint_header()
        if state.fraction is not None:
            self.query_one(ProgressBar).update(progress=state.fraction)
        rows = client_rows = None
        new_second = state.rows_version != self._sparks_version
        if new_second:
            self._sparks_version = state.rows_version
            rows = {
                "req/s": state.series("rps"),
                "p99": state.series("p99_s"),
                "cpu": state.series("server_cpu_pct"),
                "rss": state.series("server_rss_bytes"),
            }
            client_rows = {"cpu": state.series("client_cpu_pct")}
        shown = monitor_text.spark_figures(state)
        self._panel("throughput").show(
            monitor_text.throughput(state), rows, shown=shown["throughput"]
        )
        latency = self._panel("latency")
        latency.show(
            monitor_text.latency(state, latency.content_region.width or None),
            rows,
            title=monitor_text.latency_title(state),
            note=monitor_text.latency_count(state),
            shown=shown["latency"],
        )
        self._panel("status").show(monitor_text.status(state, self.tones))
        self._panel("server").show(
            monitor_text.server(state),
            rows,
            title=monitor_text.server_title(state),
            shown=shown["server"],
        )
        client = self._panel("client")
        client.show(
            monitor_text.client(state, self.tones),
            client_rows,
            title=monitor_text.client_title(state),
            shown=shown["client"],
        )
        client.set_class(state.client_bound, "-alert")
        warnings = self._panel("warnings")
        warnings.show(monitor_text.warnings(state, self.tones))
        warnings.set_class(bool(state.warnings), "-alert")
        ended = state.finished is not None
        if ended and not self.has_class("-finished") and self.has_class("-short"):
            # The result takes the panels' place: with the focus, ↓ and PgDn scroll it.
            self.query_one("#result").focus()
        self.set_class(ended, "-finished")
        self._place_chart()
        self._paint_result(retry=ended)
        self._paint_log()
        self._paint_chart(force)

    def _paint_result(self, retry: bool = False) -> None:
        # Less the scrollbar a long result takes once laid out, so that no row is wrapped
        # by the screen rather than between its items (`p90 58` and `µs,` on a line).
        # Counted from the box, whose content keeps its width whether its scrollbar shows
        # or not: the same result is wrapped the same way whenever it is painted.
        box = self.query_one("#result").content_region.width
        width = max(0, box - SCROLLBAR_ROOM) if box else 0
        if not width and retry:
            # Shown only now: painted again as soon as laid out, at its width, not a paint
            # tick later (a picture taken in between would hold the unwrapped rows).
            self.call_after_refresh(self._paint_result)
        summary = self.query_one("#summary", SteadyStatic)
        summary.show(result_text.summary(self.state, self.tones, width or None))

    def _due(self, state: LiveState) -> bool:
        if self.painting_held or state.version == self._painted_version:
            return False
        return (
            state.rows_version != self._sparks_version
            or (state.finished is not None) != self._painted_end
            or self._frame - self._painted_frame >= PAINT_EVERY
            # Until the first second closes, the first figures are shown as they come.
            or (state.running and not state.rows)
        )

    def paint_header(self) -> None:
        raise NotImplementedError

    def _paint_chart(self, force: bool = False) -> None:
        chart = self.query_one(RunChart)
        state = self.state
        if not chart.display or self._chart_version == state.rows_version:
            return
        # Drawing it is most of a frame's CPU (plotext): while the run goes, every
        # CHART_SECONDS; at once when shown, resized, ended or asked for.
        drawn = self._chart_version >= 0
        recent = state.rows_version - self._chart_version < CHART_SECONDS
        if state.running and drawn and recent and not force:
            return
        self._chart_version = self.state.rows_version
        chart.show(self.state, self._span)

    def _paint_log(self) -> None:
        log = self.query_one(RichLog)
        if not log.display:
            return
        for line in self.state.new_lines(self._lines_painted):
            log.write(line.text.rstrip("\n"))
        self._lines_painted = self.state.lines_seen

    def _panel(self, name: str) -> MetricPanel:
        return self.query_one(f"#{name}", MetricPanel)

    def leave(self, code: int) -> None:
        leave(self, code)

    # Actions

    def action_expand(self) -> None:
        panels = list(self.query(MetricPanel))
        expanded = [p for p in panels if p.has_class("-expanded")]
        for panel in expanded:
            panel.remove_class("-expanded")
        if expanded:
            self.remove_class("-expand")
            self._place_chart()
            return
        focused = self.focused
        target = focused if isinstance(focused, MetricPanel) else panels[0]
        target.add_class("-expanded")
        target.focus()
        self.add_class("-expand")
        self._place_chart()

    def action_toggle_log(self) -> None:
        log = self.query_one(RichLog)
        log.display = not log.display
        if log.display:
            log.clear()
            self._lines_painted = self.state.lines_seen - len(self.state.output)
            self._paint_log()

    def action_zoom(self) -> None:
        self._span = SPANS[(SPANS.index(self._span) + 1) % len(SPANS)]
        if not self.query_one(RunChart).display:
            self.notify("the chart is hidden: c shows it")
        self._chart_version = -1
        self._paint_chart()

    def action_toggle_chart(self) -> None:
        if self.basic:
            self.notify("basic mode draws no chart")
            return
        self._chart_asked = not self.query_one(RunChart).display
        if self._chart_asked and not self._chart_fits():
            beside = "the panels and the result" if self.state.finished else "the panels"
            self.notify(f"too small for a readable chart beside {beside}")
        self._place_chart()
        self._paint_chart()

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen(self.help_keys()))

    def help_keys(self) -> list[Binding]:
        return [b for b in self.BINDINGS if isinstance(b, Binding)]
