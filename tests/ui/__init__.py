"""Helpers shared by the screen tests."""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from textual.pilot import Pilot

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


async def until(pilot: Pilot[Any], condition: Callable[[], bool], what: str) -> None:
    """Let the app run until `condition` holds; fail naming `what` after 10 s."""
    deadline = time.monotonic() + 10
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await pilot.pause(0.01)
