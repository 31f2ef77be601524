"""The first frame of a run or sweep started from the command line: what is about to run, on
the screen at once, while the job layer prepares it (finds the tools, asks the URL, finds
the server); then the job's own screen takes its place, or the app leaves with the refusal.

Light on purpose: this module imports Textual and nothing of the engine, so the frame is up
before the engine, the analysis and numpy are imported."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import Footer, Static

from tui_bench.errors import TuibenchError
from tui_bench.printable import printable
from tui_bench.ui.text.run_title import run_title

if TYPE_CHECKING:
    from tui_bench.ui.app import TuibenchApp

# Builds the job's own screen: the job layer's preparation and the screen's import.
Prepare = Callable[[], Awaitable[Screen[None]]]


def preparing_text(what: str, urls: Sequence[str], note: str | None = None) -> Text:
    """What runs (the tool, a sweep) and where, as its own header will show it, and that it
    is being prepared."""
    text = run_title(what, urls)
    text.append("\n")
    text.append("preparing: finding the tools, asking the URL, finding the server…", "dim")
    if note:
        text.append(f"\n{printable(note)}")
    return text


class PreparingScreen(Screen[None]):
    # Stays under the screen it prepared (Textual cannot replace an app's first screen):
    # that screen still counts as the first (`messages.opened_first`).
    STAND_IN = True
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("q", "app.quit", "Quit", tooltip="quit before anything runs"),
    ]
    DEFAULT_CSS = """
    PreparingScreen #header {
        padding: 0 1;
        height: auto;
    }
    """

    def __init__(self, shown: Text, prepare: Prepare) -> None:
        super().__init__()
        self._shown = shown
        self._prepare = prepare

    def compose(self) -> ComposeResult:
        yield Static(self._shown, id="header")
        yield Footer()

    def on_mount(self) -> None:
        # Prepared once this frame is on the screen: the imports it takes would hold it back.
        self.call_after_refresh(self.run_worker, self._open(), exclusive=True)

    async def _open(self) -> None:
        app: TuibenchApp = self.app  # type: ignore[assignment]
        try:
            screen = await self._prepare()
        except TuibenchError as exc:
            app.refuse(exc)
            return
        await app.open_job_screen(screen)
