"""What screens ask of the app: screens never build one another, the app routes these."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from textual.message import Message
from textual.screen import Screen

if TYPE_CHECKING:
    from tui_bench.request.run import RunRequest
    from tui_bench.request.sweep_settings import SweepSettings


@runtime_checkable
class ExitStatus(Protocol):
    """The app as a screen that may end it sees it: what it returns when it ends."""

    def exit_status(self) -> int: ...


def is_stand_in(screen: Screen[Any]) -> bool:
    """Whether `screen` only stands in for the one it prepares (`PreparingScreen`)."""
    return bool(getattr(screen, "STAND_IN", False))


def opened_first(screen: Screen[Any]) -> bool:
    """Whether `screen` is what the app was opened for (from the command line), not a screen
    another opened: nothing under it but the stand-in that prepared it."""
    stack = screen.app.screen_stack
    below = stack[: stack.index(screen)] if screen in stack else stack[:-1]
    return all(is_stand_in(under) for under in below)


def leave(screen: Screen[Any], code: int | None = None) -> None:
    """Back to the screen before, or end the app when `screen` is the first: with `code`,
    else the app's own exit status."""
    app = screen.app
    if not opened_first(screen):
        screen.dismiss()
    elif code is not None:
        app.exit(code)
    else:
        app.exit(app.exit_status() if isinstance(app, ExitStatus) else 0)


class StartRun(Message):
    """Launch this run in a new live screen."""

    def __init__(self, request: RunRequest) -> None:
        super().__init__()
        self.request = request


class StartSweep(Message):
    """Launch a sweep in a new sweep screen: `request` is the base of every point, as the
    run options are for `tuibench sweep`."""

    def __init__(self, request: RunRequest, sweep: SweepSettings) -> None:
        super().__init__()
        self.request = request
        self.sweep = sweep


class OpenRunForm(Message):
    """Open the run form, filled in from `request` when given."""

    def __init__(self, request: RunRequest | None = None) -> None:
        super().__init__()
        self.request = request


class OpenSessions(Message):
    """Open the sessions browser."""


class OpenReplay(Message):
    def __init__(self, path: Path) -> None:
        super().__init__()
        self.path = path


class OpenCompare(Message):
    """Compare session `b` against session `a` (the baseline); `a_point` names A's sweep
    point when it is known (else a sweep of several points asks)."""

    def __init__(self, a: Path, b: Path, a_point: str | None = None) -> None:
        super().__init__()
        self.a = a
        self.b = b
        self.a_point = a_point


class OpenHistory(Message):
    """Open the history of the benchmark named `name`."""

    def __init__(self, name: str) -> None:
        super().__init__()
        self.name = name
