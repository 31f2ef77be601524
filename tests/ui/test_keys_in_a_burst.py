"""Keys as a terminal delivers text typed quickly: in one burst, every key queued before the
first is handled. A Tab among them moves the focus before the keys after it are given out."""

from __future__ import annotations

from textual import events
from textual.widgets import Input

from tests.ui import until
from tui_bench.ui.app import TuibenchApp
from tui_bench.ui.widgets.dialogs import LabelDialog, Labels


def burst(app: TuibenchApp, text: str) -> None:
    for character in text:
        key = {"\t": "tab"}.get(character, character)
        app.post_message(events.Key(key, character))


async def test_text_typed_quickly_after_a_tab_lands_in_the_next_field() -> None:
    app = TuibenchApp(lambda app: LabelDialog(Labels("", (), "")))
    async with app.run_test(size=(80, 24)) as pilot:
        dialog = app.screen
        await until(pilot, lambda: dialog.focused is not None, "the dialog's first field")
        burst(app, "api\tnginx, tuned\tafter the upgrade")
        fields = [dialog.query_one(f"#{name}", Input) for name in ("name", "tags", "notes")]
        await until(pilot, lambda: fields[2].value == "after the upgrade", "the notes typed")
        assert [field.value for field in fields] == ["api", "nginx, tuned", "after the upgrade"]
