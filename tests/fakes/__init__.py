"""Stand-ins for what a real tool cannot be made to do on demand, and how to wait on them."""

from __future__ import annotations

import time
from pathlib import Path


def wait_for_run(directory: Path, journals: str = "*.journal") -> None:
    """Wait until tuibench has started a run (its journal matching `journals` exists), so a
    signal meets the run, not a process still starting."""
    deadline = time.monotonic() + 20
    while not list(directory.glob(journals)):
        assert time.monotonic() < deadline, "no run started"
        time.sleep(0.05)
    time.sleep(0.3)  # the tool is spawned just after its journal is opened
