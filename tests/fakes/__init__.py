"""Stand-ins for what a real tool cannot be made to do on demand, and how to wait on them."""

from __future__ import annotations

import time
from pathlib import Path

# In a run's journal once the run has measured a second (written at once, with every line
# of output before it): its target was reached, and each generator's output is on disk.
A_SECOND = '"k":"second"'


def wait_for_run(directory: Path, journals: str = "*.journal", output: str | None = None) -> None:
    """Wait until tuibench has started a run (its journal matching `journals` exists), so a
    signal meets the run, not a process still starting; with `output`, until the journal
    holds that text too (a line of the tool's output, written within a second or so, or
    A_SECOND), so the run is known to have got that far."""
    deadline = time.monotonic() + 60
    while not (found := list(directory.glob(journals))) or (
        output is not None and not any(output in _text(path) for path in found)
    ):
        assert time.monotonic() < deadline, "no run started" if not found else f"no {output!r}"
        time.sleep(0.05)
    time.sleep(0.3)  # the tool is spawned just after its journal is opened


def _text(path: Path) -> str:
    try:
        return path.read_text(errors="replace")
    except FileNotFoundError:  # the run ended and its journal became the session
        return ""
