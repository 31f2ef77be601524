"""The run form's fields and rows: text fields checked by the command line's readers as they
are typed, and cheap to type into; the choices, each named as its flag."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from textual.containers import Horizontal, Vertical
from textual.geometry import Size
from textual.reactive import Reactive
from textual.validation import ValidationResult, Validator
from textual.widget import Widget
from textual.widgets import Input, Label, Select

from tui_bench.errors import UsageError
from tui_bench.redaction import Redacted
from tui_bench.request.fields import TextField
from tui_bench.ui.widgets.steady_static import SteadyStatic

T = TypeVar("T")

PROTOCOLS = [
    ("h1 · HTTP/1.1 (--h1)", "h1"),
    ("h2c · HTTP/2, http://", "h2c"),
    ("h2 · HTTP/2 over TLS, https://", "h2"),
]
MODES = [("duration -d", "duration"), ("request count -n", "count"), ("stages", "stages")]
# A refusal's advice names the command line's flags: the form says its own fields.
FORM_ADVICE = (
    ("run without --h1", "choose protocol h2c"),
    ("run with --h1", "choose protocol h1"),
    ("run with --tool h2load", "choose tool h2load"),
)
# The field a refusal's advice is about, where it is a choice rather than a text.
ADVISED_FIELDS = (("--h1", "protocol"), ("--tool", "tool"))
SERVERS = {
    "auto": "auto: what listens on the URL's port",
    "pid": "pid: --server-pid",
    "name": "name: --server-name",
    "none": "none: --no-server",
}


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


def select_of(options: Sequence[tuple[str, str]], select_id: str) -> Select[str]:
    return Select(options, allow_blank=False, id=select_id, compact=True)


def same_values(values: Sequence[str]) -> list[tuple[str, str]]:
    return [(value, value) for value in values]


def field_row(name: str, label: str, control: Widget, *below: Widget) -> Horizontal:
    control.add_class("control")
    return Horizontal(
        Label(label), Vertical(control, *below, classes="cell"), id=f"row-{name}", classes="row"
    )


def text_row(field: TextField[T]) -> Horizontal:
    control = FieldInput(
        placeholder=field.placeholder,
        id=field.id,
        validators=[Reads(field.read)],
        compact=True,
    )
    error = SteadyStatic(id=f"{field.id}-error", classes="error")
    return field_row(field.id, field.label, control, error)


def asking_line(needed: Sequence[Redacted]) -> str:
    where = ", ".join(r.where for r in needed)
    return f"kept without the secret of {where}; Start asks for it"
