"""`b` on the end of a run or a sweep started with `--baseline`: the compare view of the
saved result against its baseline."""

from __future__ import annotations

from pathlib import Path

from textual.binding import Binding
from textual.widget import Widget

from tui_bench.storage.refs import Located
from tui_bench.ui.messages import OpenCompare

BASELINE_KEY = Binding(
    "b",
    "compare_baseline",
    "Baseline",
    tooltip="compare the result with its --baseline (after the end)",
)


def compare_with_baseline(screen: Widget, baseline: Located | None, saved: Path | None) -> None:
    """Ask the app for the comparison; the screen offers the key only once both exist."""
    if baseline is not None and saved is not None:
        screen.post_message(OpenCompare(baseline.path, saved, a_point=baseline.point))
