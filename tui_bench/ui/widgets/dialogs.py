"""The modal screens: the quit confirmation, the key help, a session's labels."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from tui_bench.errors import UsageError
from tui_bench.typed_values import parse_rate

if TYPE_CHECKING:
    from tui_bench.storage.session import Session

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
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,question_mark,q,f1", "close", "Close")]

    def __init__(self, bindings: Iterable[Binding]) -> None:
        super().__init__()
        self._keys = list(bindings)

    def compose(self) -> ComposeResult:
        text = Text("Keys\n\n", "bold")
        for binding in self._keys:
            key = binding.key_display or binding.key.replace("question_mark", "?")
            text.append(f"{key:>3}  ", "bold")
            text.append(f"{binding.tooltip or binding.description}\n")
        text.append("\nescape, ? or f1 closes this help", "dim")
        with Vertical():
            yield Static(text, id="help")

    def action_close(self) -> None:
        self.dismiss(None)


@dataclass(frozen=True)
class Labels:
    name: str
    tags: tuple[str, ...]
    notes: str

    @classmethod
    def of(cls, session: Session) -> Labels:
        return cls(session.name, session.tags, session.notes)

    def changes(self) -> dict[str, Any]:
        return {"name": self.name, "tags": list(self.tags), "notes": self.notes}


class LabelDialog(ModalScreen[Labels | None]):
    """Name, tags and notes of a saved session; enter in the last field or ctrl+s saves."""

    DEFAULT_CSS = DIALOG_CSS.format(name="LabelDialog")
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "save", "Save"),
        Binding("escape", "cancel", "Cancel"),
    ]

    def __init__(self, labels: Labels) -> None:
        super().__init__()
        self._labels = labels

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("Label this session (ctrl+s saves, escape cancels)\n")
            yield Input(self._labels.name, placeholder="name", id="name")
            yield Input(
                ", ".join(self._labels.tags), placeholder="tags, comma-separated", id="tags"
            )
            yield Input(self._labels.notes, placeholder="notes", id="notes")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id == "notes":
            self.action_save()
        else:
            self.focus_next()

    def action_save(self) -> None:
        def value(field: str) -> str:
            return self.query_one(f"#{field}", Input).value.strip()

        tags = tuple(t.strip() for t in value("tags").split(",") if t.strip())
        self.dismiss(Labels(value("name"), tags, value("notes")))

    def action_cancel(self) -> None:
        self.dismiss(None)


class RateDialog(ModalScreen[float | None]):
    """The rate to run at from now on: typed as on the command line (5000, 2.5k)."""

    DEFAULT_CSS = DIALOG_CSS.format(name="RateDialog")
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, rate: float | None) -> None:
        super().__init__()
        self._rate = rate

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("Rate from now on, req/s (enter sets it, escape cancels)\n")
            yield Input("" if self._rate is None else f"{self._rate:g}", id="rate")
            yield Static("", id="why")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        try:
            self.dismiss(parse_rate(event.value))
        except UsageError as exc:
            self.query_one("#why", Static).update(Text(str(exc)))

    def action_cancel(self) -> None:
        self.dismiss(None)


class Confirm(ConfirmQuit):
    """The quit dialog's y / n, asking `question` instead."""

    def __init__(self, question: Text) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text.assemble(self.question, "\n\ny yes · n no"), id="question")
