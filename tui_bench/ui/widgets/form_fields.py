"""The run form's text fields: checked by the command line's readers as they are typed, and
cheap to type into."""

from __future__ import annotations

from collections.abc import Callable

from textual.geometry import Size
from textual.reactive import Reactive
from textual.validation import ValidationResult, Validator
from textual.widgets import Input

from tui_bench.errors import UsageError


class Reads(Validator):
    """Valid when the field's reader accepts the text; else the reader's one-line reason."""

    def __init__(self, read: Callable[[str], object]) -> None:
        super().__init__()
        self.read = read

    def validate(self, value: str) -> ValidationResult:
        try:
            self.read(value.strip())
        except UsageError as exc:
            return self.failure(str(exc))
        return self.success()


class FieldInput(Input):
    """An Input whose text, growing a key at a time, repaints it and lays out nothing.

    Input keeps its text's width as its virtual size, a value that asks for a layout pass of
    the whole screen when it changes: at every key typed, the whole form laid out again. The
    field's own size never depends on it; its scrolling reads it as it stands."""

    virtual_size = Reactive(Size(0, 0), layout=False)
