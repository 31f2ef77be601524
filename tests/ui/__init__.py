"""Helpers shared by the screen tests."""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

from textual.pilot import Pilot
from textual.screen import Screen

from tui_bench.ui.widgets.run_form import RunForm

EXAMPLES = Path(__file__).parents[2] / "sessions"
BAD_NAME = "20261120-000000-000-bad.json"


def example_store(root: Path) -> Path:
    """Copies of the example sessions plus one corrupt file, in `root`/sessions."""
    directory = root / "sessions"
    directory.mkdir()
    for path in EXAMPLES.glob("*.json"):
        shutil.copy(path, directory)
    (directory / BAD_NAME).write_text('{"broken')
    return directory


def utc_clock() -> Iterator[None]:
    """Dates are shown in local time: a fixture body that pins it to UTC, so snapshots do not
    depend on the time zone of the machine that runs them."""
    before = os.environ.get("TZ")
    os.environ["TZ"] = "UTC"
    time.tzset()
    yield
    if before is None:
        del os.environ["TZ"]
    else:
        os.environ["TZ"] = before
    time.tzset()


S = TypeVar("S", bound=Screen[Any])


async def until(
    pilot: Pilot[Any], condition: Callable[[], bool], what: str = "the condition"
) -> None:
    """Let the app run until `condition` holds; fail naming `what` after 20 s."""
    deadline = time.monotonic() + 20
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await pilot.pause(0.01)


async def screen_is(pilot: Pilot[Any], kind: type[S], what: str) -> S:
    """Wait until the current screen is a `kind` and mounted: a pushed screen is current
    before it has composed its widgets."""

    def ready() -> bool:
        screen = pilot.app.screen
        return isinstance(screen, kind) and screen.is_mounted

    await until(pilot, ready, what)
    screen = pilot.app.screen
    assert isinstance(screen, kind)
    return screen


def footer_keys(pilot: Pilot[Any]) -> list[str]:
    """The footer's keys and descriptions; fails if one runs past the terminal's right edge
    (Textual's footer lets them run off, cut mid-word)."""
    from textual.widgets._footer import FooterKey

    keys = list(pilot.app.screen.query(FooterKey))
    shown = [f"{key.key_display} {key.description}" for key in keys]
    width = pilot.app.size.width
    assert all(key.region.right <= width for key in keys), f"{shown} past {width} columns"
    return shown


async def help_text(pilot: Pilot[Any]) -> str:
    """Press `?` and read the help it opens."""
    from textual.widgets import Static

    from tui_bench.ui.widgets.dialogs import HelpScreen

    await pilot.press("question_mark")
    screen = await screen_is(pilot, HelpScreen, "the help")
    return str(screen.query_one("#help", Static).render())


async def home_form(pilot: Pilot[Any]) -> RunForm:
    """The home screen's run form, once mounted: it comes after the first frame."""

    def mounted() -> bool:
        forms = pilot.app.screen.query(RunForm)
        return bool(forms) and forms.first().is_mounted

    await until(pilot, mounted, "the home screen's run form")
    return pilot.app.screen.query_one(RunForm)
