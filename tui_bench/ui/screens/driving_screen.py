"""The base of the screens that drive a job (the live and the sweep screen): run it in a
worker, stop it, and quit only once it has saved itself."""

from __future__ import annotations

from functools import partial
from typing import ClassVar, Protocol

from textual.screen import Screen

from tui_bench.printable import printable
from tui_bench.ui.messages import leave
from tui_bench.ui.widgets.dialogs import ConfirmQuit

EXIT_CRASHED = 1


class Job(Protocol):
    """A run or a sweep as a screen drives it: Engine or SweepEngine."""

    async def run(self) -> object: ...

    def stop(self) -> None: ...


class DrivingScreen(Screen[None]):
    """A screen that drives a run or a sweep (the app's JobScreen): runs it in a worker,
    stops it, and quits only once it has saved itself, asking first while it goes."""

    # What the job is called in messages, and the name of its worker.
    JOB_NAME: ClassVar[str] = "run"

    def __init__(self) -> None:
        super().__init__()
        self._engine: Job | None = None
        self._stopping = False
        self._crashed = False
        # After the job ends: None stays, False leaves this screen, True leaves the app.
        self._leave_after: bool | None = None
        # "Stop it and quit?", while it is asked: the job's end answers it.
        self._asking: ConfirmQuit | None = None

    @property
    def exit_code(self) -> int:
        """What the app exits with for this job; EXIT_CRASHED once `_crashed`."""
        raise NotImplementedError

    def paint(self, force: bool = False) -> None:
        raise NotImplementedError

    def drive(self, engine: Job) -> None:
        """Run `engine` in a worker until it ends; then paint, and leave if quitting
        stopped it."""
        self._engine = engine
        self._stopping = self._crashed = False
        self.refresh_bindings()
        # The coroutine is made when the worker starts: a worker cancelled before (a quit
        # just after `r`) leaves none behind unawaited. (mypy cannot solve Textual's WorkType
        # union for a coroutine function.)
        self.run_worker(
            partial(self._drive, engine),  # type: ignore[arg-type]
            name=self.JOB_NAME,
            exclusive=True,
            exit_on_error=False,
        )

    async def _drive(self, engine: Job) -> None:
        try:
            # The load starts once the frame painted before it is on the screen: laying out
            # and painting the whole screen takes a core for a moment, which a load generator
            # starting beside it would lose.
            await self.wait_for_refresh()
            await engine.run()
        except Exception as exc:
            # It broke (a sweep has saved what it had): say so instead of vanishing.
            self._crashed = True
            self.notify(
                printable(f"the {self.JOB_NAME} failed: {exc}"),
                severity="error",
                timeout=30,
                markup=False,
            )
        finally:
            self._engine = None
            self.refresh_bindings()
        asking, self._asking = self._asking, None
        if asking is not None and asking.is_current:
            # Nothing is going any more: the question would hang over the finished job.
            asking.dismiss(None)
        self.paint(force=True)
        if self._leave_after is not None:
            self._leave(self._leave_after, self.exit_code)

    @property
    def engine_running(self) -> bool:
        return self._engine is not None

    @property
    def stopping(self) -> bool:
        """Asked to stop, and saving what it measured."""
        return self._stopping

    def action_stop(self) -> None:
        if self._engine is not None:
            self._stopping = True
            self._engine.stop()
            self.paint(force=True)

    def ask_and_quit(self, *, leave_app: bool) -> None:
        """Leave; while the job goes, first ask, then stop it and let it save itself."""
        if self._engine is None:
            self._leave(leave_app, self.exit_code)
            return

        def answered(yes: bool | None) -> None:
            self._asking = None
            if yes:
                self.stop_and_quit(leave_app=leave_app)

        self._asking = ConfirmQuit()
        self.app.push_screen(self._asking, answered)

    def stop_and_quit(self, *, leave_app: bool = True) -> None:
        """Stop the job, let it save itself, then leave."""
        if self._engine is None:
            self._leave(leave_app, self.exit_code)
            return
        self._leave_after = leave_app
        self.action_stop()

    def _leave(self, leave_app: bool, code: int) -> None:
        self._leave_after = None
        if leave_app:
            self.app.exit(code)
        else:
            leave(self, code)
