"""The modal screens: the quit confirmation and the key help."""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

DIALOG_CSS = """
{name} {{ align: center middle; }}
{name} > Vertical {{
    width: 64; max-width: 100%; height: auto;
    border: thick $accent; background: $surface; padding: 1 2;
}}
"""


class ConfirmQuit(ModalScreen[bool]):
    DEFAULT_CSS = DIALOG_CSS.format(name="ConfirmQuit")
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", "Yes"),
        Binding("n,escape", "answer(False)", "No"),
    ]

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(
                "A run is going. Stop it (the session keeps what was measured) and quit?\n\n"
                "y yes · n no",
                id="question",
            )

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


class HelpScreen(ModalScreen[None]):
    DEFAULT_CSS = DIALOG_CSS.format(name="HelpScreen")
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,question_mark,q", "close", "Close")]

    def __init__(self, bindings: Iterable[Binding]) -> None:
        super().__init__()
        self._keys = list(bindings)

    def compose(self) -> ComposeResult:
        text = Text("Keys\n\n", "bold")
        for binding in self._keys:
            key = binding.key_display or binding.key.replace("question_mark", "?")
            text.append(f"{key:>3}  ", "bold")
            text.append(f"{binding.tooltip or binding.description}\n")
        text.append("\nescape or ? closes this help", "dim")
        with Vertical():
            yield Static(text, id="help")

    def action_close(self) -> None:
        self.dismiss(None)
