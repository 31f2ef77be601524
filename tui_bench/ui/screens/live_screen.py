"""The live monitor: a run as it goes, painted by `MonitorScreen` (monitor_screen.py) and
driven by `DrivingScreen` (driving_screen.py); after the end, run it again, compare, label it."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import ClassVar, Protocol, cast

from textual.binding import Binding, BindingType

from tui_bench.engine.events import Event, RunFinished
from tui_bench.engine.live_state import LiveState
from tui_bench.engine.steering import FASTER, FEWER, MORE, PAUSE, SET_RATE, SLOWER
from tui_bench.errors import TuibenchError
from tui_bench.printable import printable
from tui_bench.report.exit_codes import EXIT_CODES, run_exit_code
from tui_bench.spec import RunSpec
from tui_bench.storage import store
from tui_bench.storage.catalog import Previous, previous_run, unfit_reason
from tui_bench.storage.index import indexed_rows
from tui_bench.storage.refs import Located
from tui_bench.ui.baseline_key import BASELINE_KEY, compare_with_baseline
from tui_bench.ui.messages import OpenCompare
from tui_bench.ui.screens.driving_screen import EXIT_CRASHED, DrivingScreen
from tui_bench.ui.screens.monitor_screen import CHART, EXPAND, HELP, LOG, THEME, ZOOM, MonitorScreen
from tui_bench.ui.text import monitor_text
from tui_bench.ui.widgets.dialogs import LabelDialog, Labels, RateDialog
from tui_bench.ui.widgets.steady_static import SteadyStatic


class Engine(Protocol):
    """What the screen needs of a run: RunController, or a scripted fake in tests."""

    async def run(self) -> RunFinished: ...

    def stop(self) -> None: ...

    def steer(self, change: str, value: float | None = None) -> str | None:
        """None when the load will change, else why it cannot, in a line."""


EngineFactory = Callable[[RunSpec, Callable[[Event], None]], Engine]


class LiveScreen(MonitorScreen, DrivingScreen):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("s", "stop", "Stop", tooltip="stop the run; the session keeps what was measured"),
        Binding("q", "quit_run", "Quit", tooltip="quit (asks first while a run is going)"),
        Binding("p", "pause", "Pause", tooltip="pause / resume painting (the run goes on)"),
        EXPAND,
        LOG,
        CHART,
        ZOOM,
        THEME,
        Binding("r", "rerun", "Again", tooltip="run the same spec again (after the end)"),
        Binding(
            "v",
            "compare_previous",
            "Compare",
            tooltip="compare with the previous run of the same tool and URLs (after the end)",
        ),
        Binding("n", "label", "Label", tooltip="name, tag and note the saved session"),
        Binding("plus", f"steer('{FASTER}')", "Rate +", show=False, tooltip="raise the rate 25 %"),
        Binding("minus", f"steer('{SLOWER}')", "Rate -", show=False, tooltip="lower the rate 25 %"),
        Binding("equals_sign", "set_rate", "Rate =", show=False, tooltip="set the rate"),
        Binding(
            "right_square_bracket",
            f"steer('{MORE}')",
            "Conns +",
            show=False,
            tooltip="add 25 % connections (h2load)",
        ),
        Binding(
            "left_square_bracket",
            f"steer('{FEWER}')",
            "Conns -",
            show=False,
            tooltip="remove 25 % of the connections (h2load)",
        ),
        Binding(
            "space",
            f"steer('{PAUSE}')",
            "Load",
            show=False,
            tooltip="pause / resume the load (h2load)",
        ),
        BASELINE_KEY,
        HELP,
    ]

    def __init__(
        self,
        spec: RunSpec,
        engine_factory: EngineFactory,
        *,
        tool_label: str,
        basic: bool,
        baseline: Located | None = None,
        note: str | None = None,
    ) -> None:
        super().__init__(LiveState(spec), basic=basic)
        self.baseline = baseline
        self.engine_factory = engine_factory
        self.tool_label = tool_label
        self.note = note
        self.paused = False
        # The session of the run before a "run again", the natural one to compare with.
        self._previous: Path | None = None

    def begin(self) -> None:
        self._start()

    def _start(self) -> None:
        self.drive(self.engine_factory(self.state.spec, self.state.apply))

    @property
    def exit_code(self) -> int:
        if self._crashed:
            return EXIT_CRASHED
        finished = self.state.finished
        return run_exit_code(finished) if finished else EXIT_CODES["interrupted"]

    # Painting

    @property
    def painting_held(self) -> bool:
        return self.paused

    def paint_header(self) -> None:
        header = self.query_one("#header", SteadyStatic)
        header.show(
            monitor_text.header(
                self.state,
                self.tool_label,
                paused=self.paused,
                stopping=self._stopping,
                note=self.note,
                width=header.content_region.width or None,
            )
        )

    # Actions

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "stop":
            return self._engine is not None
        if action == "rerun":
            return self._engine is None
        if action == "pause":
            return self._engine is not None
        if action in ("label", "compare_previous"):
            return self._engine is None and self._saved() is not None
        if action == "compare_baseline":
            return self.baseline is not None and self._engine is None and self._saved() is not None
        return True

    def _saved(self) -> Path | None:
        path = self.state.session_path
        return path if path is not None and path.name != "" else None

    def action_steer(self, change: str, value: float | None = None) -> None:
        engine = self._engine
        refused = (
            "the run is over: its load cannot change"
            if engine is None
            else cast(Engine, engine).steer(change, value)
        )
        if refused is not None:
            self.notify(printable(refused), severity="warning", timeout=4, markup=False)

    async def action_set_rate(self) -> None:
        async def set_rate(rate: float | None) -> None:
            if rate is not None:
                self.action_steer(SET_RATE, rate)

        await self.app.push_screen(RateDialog(self.state.target_rps), set_rate)

    def action_quit_run(self) -> None:
        self.ask_and_quit(leave_app=False)

    def action_pause(self) -> None:
        self.paused = not self.paused
        if self.paused:
            self.paint_header()
        else:
            self.paint(force=True)

    def action_rerun(self) -> None:
        if self._engine is not None:
            return
        self._previous = self._saved() or self._previous
        self.show_state(LiveState(self.state.spec))
        self._start()
        self.paint(force=True)

    async def action_compare_previous(self) -> None:
        current = self._saved()
        if current is None:
            return
        found = await asyncio.to_thread(_previous_run, current, self._previous)
        # Passed over in words, never silently: a stopped or invalid run is no yardstick.
        passed = ", ".join(f"{row.name or row.id} ({unfit_reason(row)})" for row in found.skipped)
        if found.path is None:
            more = f" (passed over: {passed})" if passed else ""
            self.notify(
                f"no earlier completed, valid run of this tool on these URLs{more}",
                severity="warning" if passed else "information",
            )
            return
        if passed:
            self.notify(
                f"passed over {passed}: compared with the last completed, valid run before",
                severity="warning",
            )
        self.post_message(OpenCompare(found.path, current))

    def action_compare_baseline(self) -> None:
        compare_with_baseline(self, self.baseline, self._saved())

    async def action_label(self) -> None:
        path = self._saved()
        if path is None:
            return
        try:
            session = await asyncio.to_thread(store.load, path)
        except TuibenchError as exc:
            self.notify(str(exc), severity="error")
            return

        async def save(labels: Labels | None) -> None:
            if labels is None:
                return
            try:
                await asyncio.to_thread(store.amend, path, labels.changes())
            except (TuibenchError, OSError) as exc:
                self.notify(printable(f"labels not saved: {exc}"), severity="error", markup=False)
                return
            self.notify(printable(f"saved: {labels.name or 'no name'}"), timeout=3, markup=False)

        await self.app.push_screen(LabelDialog(Labels.of(session)), save)


def _previous_run(current: Path, before: Path | None) -> Previous:
    """The run before "run again" when it is fit to compare with, else the newest fit
    earlier one of the same tool and URLs."""
    rows = indexed_rows(current.parent)
    if before is None:
        return previous_run(rows, current)
    if before.parent != current.parent:
        rows += indexed_rows(before.parent)
    row = next((r for r in rows if r.path == before and r.readable), None)
    if row is not None and unfit_reason(row) is None:
        return Previous(before)
    found = previous_run(rows, current)
    if row is None or row in found.skipped:
        return found
    return Previous(found.path, (row, *found.skipped))
