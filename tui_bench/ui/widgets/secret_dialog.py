"""Asks for the secrets a configuration was kept without: sessions and the recent list keep
a header's value or a URL's password only as a redacted mark (tui_bench.redaction)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from tui_bench.redaction import Redacted, fingerprint
from tui_bench.ui.widgets.dialogs import DIALOG_CSS


class SecretDialog(ModalScreen[dict[str, str] | None]):
    """One hidden field per secret; enter in the last one gives each mark its value."""

    DEFAULT_CSS = (
        DIALOG_CSS.format(name="SecretDialog")
        + """
    SecretDialog > Vertical { width: 80; }
    SecretDialog .hint { color: $text-muted; }
    """
    )
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, needed: Sequence[Redacted]) -> None:
        super().__init__()
        self.needed = list(needed)

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(
                "This run was kept without its secrets. Type them to start it "
                "(they are sent, never saved):\n"
            )
            for i, secret in enumerate(self.needed):
                yield Static(Text.assemble((secret.where, "bold"), f"  (kept as {secret.mark})"))
                yield Input(password=True, id=f"secret-{i}")
            yield Static("enter starts · escape cancels", classes="hint")

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        fields = list(self.query(Input))
        empty = next((f for f in fields if not f.value.strip()), None)
        if empty is not None:
            empty.focus()
            return
        values = {s.mark: f.value.strip() for s, f in zip(self.needed, fields, strict=True)}
        other = [s.where for s in self.needed if fingerprint(values[s.mark]) != s.fingerprint]
        if other:
            # Often on purpose (a token renewed since), so said, not refused.
            self.notify(f"not the value kept before: {', '.join(other)}", timeout=8)
        self.dismiss(values)

    def action_cancel(self) -> None:
        self.dismiss(None)
