"""Where to write a file, and in which format: the one dialog of every export (a session from
the browser, a comparison from its screen). The file's extension follows the format; a file
that exists is written over only after a yes."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, RadioButton, RadioSet, Static

from tui_bench.ui.widgets.dialogs import DIALOG_CSS, Confirm


@dataclass(frozen=True)
class SaveChoice:
    fmt: str
    path: Path
    # The user said yes to writing over the file there.
    overwrite: bool = False


class ConfirmOverwrite(Confirm):
    def __init__(self, path: Path) -> None:
        super().__init__(Text.assemble((str(path), "bold"), " exists.\n\nWrite over it?"))
        self.path = path


class SaveDialog(ModalScreen[SaveChoice | None]):
    """`title`, a format of `formats` (the first chosen) and the file: at first `stem` with
    the format's extension."""

    DEFAULT_CSS = (
        DIALOG_CSS.format(name="SaveDialog")
        + """
    SaveDialog > Vertical { width: 80; }
    SaveDialog RadioSet { layout: horizontal; width: auto; margin: 1 0; }
    SaveDialog RadioSet > RadioButton { width: auto; margin-right: 2; }
    SaveDialog #path { margin-bottom: 1; }
    SaveDialog .hint { color: $text-muted; }
    """
    )
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, title: Text, formats: Sequence[str], stem: str, hint: str) -> None:
        super().__init__()
        self.title_text = title
        self.formats = tuple(formats)
        self.path = f"{stem}.{self.formats[0]}"
        self.hint = hint

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self.title_text)
            with RadioSet(id="format"):
                for i, fmt in enumerate(self.formats):
                    yield RadioButton(fmt, value=i == 0, id=f"format-{fmt}")
            yield Input(self.path, id="path")
            yield Static(
                f"{self.hint}\nenter writes · tab switches field · escape cancels",
                classes="hint",
            )

    def on_mount(self) -> None:
        self.query_one("#path", Input).focus()

    @property
    def fmt(self) -> str:
        return self.formats[max(self.query_one(RadioSet).pressed_index, 0)]

    @on(RadioSet.Changed)
    def _format_changed(self) -> None:
        path = self.query_one("#path", Input)
        stem, dot, ext = path.value.rpartition(".")
        if dot and ext in self.formats:
            path.value = f"{stem}.{self.fmt}"
        path.focus()

    @on(Input.Changed, "#path")
    def _path_changed(self, event: Input.Changed) -> None:
        ext = event.value.rpartition(".")[2]
        if ext in self.formats and ext != self.fmt:
            self.query_one(f"#format-{ext}", RadioButton).value = True

    @on(Input.Submitted, "#path")
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if not event.value.strip():
            self.notify("give the file to write", severity="warning")
            return
        choice = SaveChoice(self.fmt, Path(event.value.strip()).expanduser())
        if not choice.path.exists():
            self.dismiss(choice)
            return

        def answered(yes: bool | None) -> None:
            if yes:
                self.dismiss(SaveChoice(choice.fmt, choice.path, overwrite=True))
            else:
                self.query_one("#path", Input).focus()

        self.app.push_screen(ConfirmOverwrite(choice.path.absolute()), answered)

    def action_cancel(self) -> None:
        self.dismiss(None)
