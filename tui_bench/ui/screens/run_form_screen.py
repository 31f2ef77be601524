"""The run form as a screen of its own: `tuibench` opens it for a new run or a run again."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import Footer, Static

from tui_bench.request.run import RunRequest
from tui_bench.ui.messages import opened_first
from tui_bench.ui.widgets.dialogs import HelpScreen
from tui_bench.ui.widgets.form_width import WIDE_CLASS, WIDE_FROM
from tui_bench.ui.widgets.run_form import RunForm


class RunFormScreen(Screen[None]):
    """Filled from `request`, else from the config started last, else the CLI's defaults."""

    # The field most often changed; its id is the form's.
    AUTO_FOCUS = "#urls"
    # The form is as wide as the screen.
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (WIDE_FROM, WIDE_CLASS)]  # noqa: RUF012
    DEFAULT_CSS = """
    RunFormScreen > #title { height: 1; padding: 0 1; background: $boost; text-style: bold; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "Back", tooltip="back (leaves tuibench if this is all)"),
        # The whole screen is the form: a letter is meant for a field, never for the screen.
        Binding("question_mark", "help", "Help", key_display="?", tooltip="this help"),
    ]

    def __init__(self, request: RunRequest | None = None) -> None:
        super().__init__()
        self._request = request

    def compose(self) -> ComposeResult:
        yield Static("tuibench · new run", id="title")
        yield RunForm(self._request, id="form")
        yield Footer()

    async def action_back(self) -> None:
        if not opened_first(self):
            self.dismiss()
        else:
            await self.app.action_quit()

    def action_help(self) -> None:
        keys = [*RunForm.BINDINGS, *self.BINDINGS]
        self.app.push_screen(HelpScreen(b for b in keys if isinstance(b, Binding)))
