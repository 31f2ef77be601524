"""Where to write a file, and in which format: the one dialog of every export (a session from
the browser, a comparison from its screen). The file's extension follows the format; a file
that exists is written over only after a yes. The dialog writes the file itself: a path that
cannot be written keeps it open, the reason under the field."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
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

from tui_bench.errors import TuibenchError
from tui_bench.printable import printable
from tui_bench.report.export_formats import extension
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


# What writes the file chosen: the absolute path written, or TuibenchError (one line).
Writer = Callable[[SaveChoice], Awaitable[Path]]


class FormatChoice(RadioSet, inherit_bindings=False):
    """A RadioSet whose enter is the dialog's (write): space picks the format."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("down,right", "next_button", "Next option", show=False),
        Binding("space", "toggle_button", "Toggle", show=False),
        Binding("up,left", "previous_button", "Previous option", show=False),
    ]


class SaveDialog(ModalScreen[Path | None]):
    """`title`, a format of `formats` (the first chosen) and the file: at first `stem` with
    the format's extension. `write` writes it; the dialog ends with the path written."""

    DEFAULT_CSS = (
        DIALOG_CSS.format(name="SaveDialog")
        + """
    SaveDialog > Vertical { width: 80; }
    /* Four formats a row: a run's seven fit in 80 columns. */
    SaveDialog RadioSet { layout: grid; grid-size: 4; height: auto; width: 100%; margin: 1 0; }
    SaveDialog RadioSet > RadioButton { width: auto; margin-right: 2; }
    SaveDialog #path-error { color: $error; height: auto; display: none; }
    SaveDialog .hint { color: $text-muted; margin-top: 1; }
    """
    )
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel"),
        Binding("enter", "write", "Write", show=False),
    ]

    def __init__(
        self, title: Text, formats: Sequence[str], stem: str, hint: str, write: Writer
    ) -> None:
        super().__init__()
        self.title_text = title
        self.formats = tuple(formats)
        self.path = f"{stem}.{extension(self.formats[0])}"
        self.hint = hint
        self._write = write

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self.title_text)
            with FormatChoice(id="format"):
                for i, fmt in enumerate(self.formats):
                    yield RadioButton(fmt, value=i == 0, id=f"format-{fmt}")
            yield Input(self.path, id="path")
            yield Static(id="path-error")
            yield Static(
                f"{self.hint}\n←/→ space: format · tab: file · enter writes · escape cancels",
                classes="hint",
            )

    def on_mount(self) -> None:
        # The format first: arrows and space pick it, where in the path they would be text.
        self.query_one(FormatChoice).focus()

    @property
    def fmt(self) -> str:
        return self.formats[max(self.query_one(RadioSet).pressed_index, 0)]

    @on(RadioSet.Changed)
    def _format_changed(self) -> None:
        path = self.query_one("#path", Input)
        old = self._format_of(path.value)
        if old is not None:
            path.value = path.value.removesuffix(extension(old)) + extension(self.fmt)

    @on(Input.Changed, "#path")
    def _path_changed(self, event: Input.Changed) -> None:
        self._say("")
        fmt = self._format_of(event.value)
        if fmt is not None and fmt != self.fmt:
            self.query_one(f"#format-{fmt}", RadioButton).value = True

    def _format_of(self, path: str) -> str | None:
        """The format whose extension `path` ends with (`x.minutes.csv`: minutes, not csv)."""
        found = [f for f in self.formats if path.endswith("." + extension(f))]
        return max(found, key=lambda f: len(extension(f)), default=None)

    @on(Input.Submitted, "#path")
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_write()

    def action_write(self) -> None:
        text = self.query_one("#path", Input).value.strip()
        if not text:
            self._say("give the file to write")
            return
        choice = SaveChoice(self.fmt, Path(text).expanduser())
        if not choice.path.exists():
            self.run_worker(self._written(choice), group="save", exclusive=True)
            return

        def answered(yes: bool | None) -> None:
            if yes:
                overwrite = SaveChoice(choice.fmt, choice.path, overwrite=True)
                self.run_worker(self._written(overwrite), group="save", exclusive=True)
            else:
                self.query_one("#path", Input).focus()

        self.app.push_screen(ConfirmOverwrite(choice.path.absolute()), answered)

    async def _written(self, choice: SaveChoice) -> None:
        try:
            written = await self._write(choice)
        except TuibenchError as exc:
            self._say(str(exc))
            self.query_one("#path", Input).focus()
            return
        self.dismiss(written)

    def _say(self, reason: str) -> None:
        """`reason` under the file's field; nothing (and no room taken) when empty."""
        error = self.query_one("#path-error", Static)
        error.update(Text(printable(reason)))
        error.display = bool(reason)

    def action_cancel(self) -> None:
        self.dismiss(None)
