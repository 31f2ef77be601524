"""The Textual app: routes the screens' requests (messages) to new screens.

Screens never build one another: the home screen, the sessions browser and the run form post
`ui.messages` requests and the app opens what they ask for, loading sessions off the event loop.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, runtime_checkable

from textual import events
from textual.app import App
from textual.await_complete import AwaitComplete
from textual.binding import Binding, BindingType
from textual.screen import ModalScreen, Screen

from tui_bench.errors import EXIT_INTERRUPTED, TuibenchError, UsageError
from tui_bench.ui.messages import (
    OpenCompare,
    OpenHistory,
    OpenReplay,
    OpenRunForm,
    OpenSessions,
    StartRun,
    StartSweep,
    is_stand_in,
)
from tui_bench.ui.terminal_driver import TerminalDriver
from tui_bench.ui.themes import DEFAULT_THEME, load_themes

# The engine, the job layer and the screens that show them are imported when first needed:
# a run started from the command line has its first frame up before they are.
if TYPE_CHECKING:
    from tui_bench.analysis.history import History
    from tui_bench.engine.events import RunFinished
    from tui_bench.jobs.capacity_job import CapacityJob
    from tui_bench.jobs.run_job import RunJob
    from tui_bench.jobs.sweep_job import SweepJob
    from tui_bench.request.run import RunRequest
    from tui_bench.request.sweep_settings import SweepSettings
    from tui_bench.storage.session import Session
    from tui_bench.ui.widgets.point_picker import PointChoice

# Prepares a run through the job layer (ui.launch.JobLauncher); what cannot run or is
# refused (a TuibenchError) becomes a notification, before any load.
Launcher = Callable[["RunRequest"], Awaitable["RunJob"]]
# The first screen is built once the app exists, so that it may read the app's options.
FirstScreen = Callable[["TuibenchApp"], Screen[None]]


async def job_screens_imported() -> None:
    """The job layer, the engine and their screens imported off the event loop: the screen
    shown stays responsive while they load, the first time a run is asked for."""
    await asyncio.to_thread(import_module, "tui_bench.ui.job_parts")


@runtime_checkable
class Settling(Protocol):
    """A screen that mounts part of itself after its first frame (the home screen's form):
    the app leaves once that is done, not in the middle of it."""

    async def settled(self) -> None: ...


@runtime_checkable
class SweepLauncher(Protocol):
    """A launcher that can also prepare sweeps (`ui.launch.JobLauncher`); tests may give
    one that only runs."""

    async def sweep(self, request: RunRequest, sweep: SweepSettings) -> SweepJob | CapacityJob: ...


@runtime_checkable
class JobScreen(Protocol):
    """A screen that drives a run or a sweep: quitting or a signal must let it save first."""

    @property
    def engine_running(self) -> bool: ...

    @property
    def exit_code(self) -> int: ...

    @property
    def stopping(self) -> bool: ...

    def action_stop(self) -> None: ...

    def ask_and_quit(self, *, leave_app: bool) -> None: ...

    def stop_and_quit(self, *, leave_app: bool = True) -> None: ...


@runtime_checkable
class AskingForm(Protocol):
    """The run form that asked for a job: told whether it started."""

    def started(self) -> None: ...

    def refused(self, reason: str) -> None: ...


class TuibenchApp(App[int]):
    """Returns the exit status of the last run it showed (0 completed, 1 failed, 130 interrupted),
    or 0 when none ran."""

    TITLE = "tuibench"
    # Its footer hint takes room the keys need at 80 columns; every action has a key.
    ENABLE_COMMAND_PALETTE = False
    # The focus frame of every screen and the monitor screens' layout. On the app: a default
    # screen's own CSS_PATH is not loaded.
    CSS_PATH = "tuibench.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        # As wrk, oha and k6 do: Ctrl+C stops a going run and keeps what was measured; a
        # second one, or one when nothing runs, leaves (Textual's own asks for Ctrl+Q).
        Binding("ctrl+c", "interrupt", show=False, priority=True, system=True),
        # Taken before the key goes to the focused widget: Textual's own Tab is seen only
        # once the field has handled what came before it, so text typed quickly after a
        # Tab (a burst from the terminal) landed in the field it left.
        Binding("tab", "focus_next", show=False, priority=True, system=True),
        Binding("shift+tab", "focus_previous", show=False, priority=True, system=True),
    ]

    def __init__(
        self,
        first: FirstScreen,
        *,
        launcher: Launcher | None = None,
        basic: bool = False,
        theme: str | None = None,
        sessions_dir: Path | None = None,
    ) -> None:
        super().__init__(driver_class=TerminalDriver)
        loaded = load_themes()
        for loaded_theme in loaded.themes:
            self.register_theme(loaded_theme)
        self._theme_problems = loaded.problems
        # `t` cycles through these: tuibench's and the user's, not all of Textual's.
        self.theme_names = loaded.names
        if theme is not None and theme not in self.available_themes:
            names = ", ".join(sorted(self.available_themes))
            raise UsageError(f"unknown theme {theme!r}: choose one of {names}")
        if theme is None and DEFAULT_THEME in self.available_themes:
            # Missing only with its file (a broken install): then Textual's default stays.
            theme = DEFAULT_THEME
        if theme is not None:
            self._start_with_theme(theme)
        self.launcher = launcher
        self.basic = basic
        self.sessions_dir = sessions_dir
        # The run or sweep screen shown last; it holds the exit status.
        self.job: JobScreen | None = None
        # What the job layer refused while the first screen prepared a run (the command line
        # says it in one line once the app has left).
        self.refusal: TuibenchError | None = None
        self._first = first(self)
        if isinstance(self._first, JobScreen):
            self.job = self._first

    def _start_with_theme(self, name: str) -> None:
        """What Textual's theme watcher (`App._watch_theme`, Textual 8.2.8) does, less the
        stylesheet parsed again and every node restyled: nothing is parsed or styled yet, so
        the theme's variables are simply the stylesheet's from the start. Setting `theme`
        here parsed the whole stylesheet twice before the first frame. tests/ui/test_themes.py
        holds the app started so to one whose theme is chosen while it runs."""
        self.set_reactive(App.theme, name)
        self.stylesheet.set_variables(self.get_css_variables())
        dark = self.current_theme.dark
        self.set_class(True, f"-theme-{name}", update=False)
        self.set_class(dark, "-dark-mode", update=False)
        self.set_class(not dark, "-light-mode", update=False)
        # The ANSI colours of Rich renderables mapped by the theme's terminal palette.
        self._refresh_truecolor_filter(self.ansi_theme)

    def on_mount(self) -> None:
        self.call_after_refresh(self._size_once_more)
        if self._theme_problems:
            # Markup off: the problems quote the files' text.
            self.notify(
                "\n".join(self._theme_problems),
                title="Theme files left out",
                severity="warning",
                timeout=20,
                markup=False,
            )

    def _size_once_more(self) -> None:
        """The terminal's size, told to the first screen again once it is up: in a real
        terminal the first Resize may come before the screen is ready, which left its layout
        classes (`-wide`…) at the default 80x24 now and then."""
        self.screen.post_message(events.Resize(self.size, self.size))

    def action_cycle_theme(self) -> None:
        names = list(self.theme_names) or sorted(self.available_themes)
        current = names.index(self.theme) if self.theme in names else -1
        self.theme = names[(current + 1) % len(names)]
        self.notify(f"theme {self.theme}", timeout=2)

    def get_default_screen(self) -> Screen[None]:
        return self._first

    @property
    def finished(self) -> RunFinished | None:
        """How the last run ended; None if the app was left before any run ended."""
        if self.job is None:
            # Nothing ran: the live screen (and the engine it imports) is not loaded to say so.
            return None
        from tui_bench.ui.screens.live_screen import LiveScreen

        return self.job.state.finished if isinstance(self.job, LiveScreen) else None

    @property
    def run_going(self) -> bool:
        return self.job is not None and self.job.engine_running

    def exit_status(self) -> int:
        if self.job is not None:
            return self.job.exit_code
        # Opened for a run that was still being prepared: stopped before it began.
        return EXIT_INTERRUPTED if self._stand_ins() else 0

    def _stand_ins(self) -> list[Screen[Any]]:
        return [s for s in self.screen_stack if is_stand_in(s)]

    def _leave(self) -> None:
        for stand_in in self._stand_ins():
            # What it prepares must not start a run once the app is leaving.
            stand_in.workers.cancel_all()
        unsettled = [s for s in self.screen_stack if isinstance(s, Settling)]
        if unsettled:
            self.run_worker(self._leave_once_settled(unsettled), group="leave", exclusive=True)
        else:
            self.exit(self.exit_status())

    async def _leave_once_settled(self, screens: Sequence[Settling]) -> None:
        for screen in screens:
            await screen.settled()
        self.exit(self.exit_status())

    async def action_quit(self) -> None:
        # ctrl+q too must not drop a going run unsaved: it asks, like q.
        if self.job is not None and self.job.engine_running:
            self.job.ask_and_quit(leave_app=True)
        else:
            self._leave()

    def pop_screen(self) -> AwaitComplete:
        # A toast is about the screen it was said on: left, it goes too (a dialog closing
        # leaves its screen's toasts).
        if not isinstance(self.screen, ModalScreen):
            self.clear_notifications()
        return super().pop_screen()

    def action_interrupt(self) -> None:
        job = self.job
        if job is not None and job.engine_running and not job.stopping:
            job.action_stop()
        else:
            self.stop_and_quit()

    def stop_and_quit(self) -> None:
        """A signal (SIGTERM, a dropped SSH session): save a going run, then leave."""
        if self.job is not None and self.job.engine_running:
            self.job.stop_and_quit(leave_app=True)
        else:
            self._leave()

    # Requests from the screens

    async def on_start_run(self, message: StartRun) -> None:
        if self.run_going:
            self.notify("a run is going: stop it first", severity="warning")
            return
        if self.launcher is None:
            self.notify("runs cannot be started from here", severity="error")
            return
        launcher = self.launcher
        await self._start(lambda: launcher(message.request))

    async def on_start_sweep(self, message: StartSweep) -> None:
        if self.run_going:
            self.notify("a run is going: stop it first", severity="warning")
            return
        if not isinstance(self.launcher, SweepLauncher):
            self.notify("sweeps cannot be started from here", severity="error")
            return
        launcher = self.launcher
        await self._start(lambda: launcher.sweep(message.request, message.sweep))

    async def _start(
        self, prepare: Callable[[], Awaitable[RunJob | SweepJob | CapacityJob]]
    ) -> None:
        """A job the run form asked for, over it; what the job layer refuses is said on the
        form (where one asked), else notified."""
        forms = [w for w in self.screen.query("RunForm") if isinstance(w, AskingForm)]
        try:
            screen = await self.prepared_screen(prepare, basic=self.basic)
        except TuibenchError as exc:
            for form in forms:
                form.refused(str(exc))
            if not forms:
                self.notify(str(exc), severity="error", timeout=10)
            return
        for form in forms:
            form.started()
        await self.open_job_screen(screen)

    async def prepared_screen(
        self,
        prepare: Callable[[], Awaitable[RunJob | SweepJob | CapacityJob]],
        *,
        basic: bool,
        note: str | None = None,
    ) -> Screen[None]:
        """The screen of the job `prepare` gives, once the job layer and its screens are
        imported (off the event loop); what the job said is told. What the job layer
        refuses (a TuibenchError) is raised."""
        await job_screens_imported()
        from tui_bench.ui.job_parts import job_screen

        job = await prepare()
        self.tell(job.notes)
        return job_screen(job, basic=basic, note=note, store_dir=self.sessions_dir)

    async def open_job_screen(self, screen: Screen[None]) -> None:
        """A run's or a sweep's screen, over the screen that asked for it."""
        if isinstance(screen, JobScreen):
            self.job = screen
        await self.push_screen(screen)

    def refuse(self, refusal: TuibenchError) -> None:
        """The run the first screen prepared was refused before any load: leave, saying why."""
        self.refusal = refusal
        self.exit(refusal.exit_code)

    def tell(self, notes: Sequence[str]) -> None:
        """What the job said before the load (a tier taken, versions that differ)."""
        if notes:
            self.notify("\n".join(notes), severity="warning", timeout=10, markup=False)

    async def on_open_run_form(self, message: OpenRunForm) -> None:
        from tui_bench.ui.screens.run_form_screen import RunFormScreen

        await self.push_screen(RunFormScreen(message.request))

    async def on_open_sessions(self, message: OpenSessions) -> None:
        from tui_bench.ui.screens.sessions_screen import SessionsScreen

        await self.push_screen(SessionsScreen(self.sessions_dir))

    async def on_open_replay(self, message: OpenReplay) -> None:
        from tui_bench.ui.screens.replay_screen import ReplayScreen
        from tui_bench.ui.screens.sweep_screen import SweepScreen

        loaded = await self._load(message.path)
        if not loaded:
            return
        session = loaded[0]
        if not session.is_sweep:
            await self.push_screen(ReplayScreen(session, basic=self.basic))
            return
        # A sweep has no series of its own to play: it is shown as it ended.
        try:
            screen = SweepScreen.of_session(session, basic=self.basic)
        except TuibenchError as exc:
            self.notify(str(exc), severity="error", timeout=10)
            return
        await self.push_screen(screen)

    async def on_open_history(self, message: OpenHistory) -> None:
        from tui_bench.analysis.history import history_of
        from tui_bench.storage.index import indexed
        from tui_bench.ui.screens.history_screen import HistoryScreen

        def read() -> History:
            return history_of(message.name, indexed(self.sessions_dir, named=message.name))

        try:
            # Every session's entry is read (from the index): never on the event loop.
            history = await asyncio.to_thread(read)
        except TuibenchError as exc:
            self.notify(str(exc), severity="error", timeout=10)
            return
        await self.push_screen(HistoryScreen(history))

    async def on_open_compare(self, message: OpenCompare) -> None:
        # A sweep of several points asks which point, and waiting on a dialog takes a worker.
        compare = self._compare(message.a, message.b, message.a_point)
        self.run_worker(compare, group="compare", exclusive=True)

    async def _compare(self, a_path: Path, b_path: Path, a_point: str | None = None) -> None:
        from tui_bench.analysis.significance import point_refs
        from tui_bench.ui.screens.compare_screen import CompareScreen

        loaded = await self._load(a_path, b_path)
        if not loaded:
            return
        same = loaded[0].id == loaded[1].id
        if same and len(point_refs(loaded[0])) < 2:
            self.notify("A and B are the same run: comparing it with itself says nothing")
            return
        picked_a = await self._side(loaded[0], "A", point=a_point)
        if picked_a is None:
            return
        # The same sweep on both sides: two of its points, not one twice.
        picked_b = await self._side(loaded[1], "B", picked_a.ref if same else None)
        if picked_b is not None:
            await self.push_screen(CompareScreen(picked_a.side, picked_b.side))

    async def _side(
        self, session: Session, letter: str, taken: str | None = None, point: str | None = None
    ) -> PointChoice | None:
        """The side `session` stands for, with the point's ref (None for a single run): the
        `point` given, else for a sweep of several points the one the user picks. None when
        the user cancels, or after saying why there is none."""
        from tui_bench.analysis.significance import point_refs, side_of
        from tui_bench.ui.widgets.point_picker import PointChoice, PointPicker, point_choices

        if point is None and len(point_refs(session)) > 1:
            choices = await asyncio.to_thread(point_choices, session)
            return await self.push_screen_wait(PointPicker(session, choices, letter, taken=taken))
        try:
            return PointChoice.of(side_of(session, point))
        except TuibenchError as exc:
            # A sweep without points.
            self.notify(str(exc), severity="error", timeout=10)
            return None

    async def _load(self, *paths: Path) -> list[Session]:
        """The sessions, or [] after telling the user which one could not be read."""
        from tui_bench.storage import store

        try:
            return [await asyncio.to_thread(store.load, path, self.sessions_dir) for path in paths]
        except TuibenchError as exc:
            self.notify(str(exc), severity="error", timeout=10)
            return []
