"""The exit status of `run` and `sweep`, in the CLI and when the app ends with a run's."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tui_bench.analysis.sweep_points import verdict_of

# By the run's status.
EXIT_CODES = {"completed": 0, "failed": 1, "interrupted": 130}
# A run (or a sweep point) completed, but its figures do not describe the load asked for.
EXIT_INVALID = 1
EXIT_THRESHOLD_FAILED = 99


def exit_code(
    run_code: int, verdicts: Sequence[Mapping[str, Any]], *, invalid: bool = False
) -> int:
    """A run's own failure first; then 1 when it completed but is invalid (a threshold
    judged on figures that cannot be trusted means nothing); then 99 when a threshold
    failed."""
    if run_code != 0:
        return run_code
    if invalid:
        return EXIT_INVALID
    if any(not v["passed"] for v in verdicts):
        return EXIT_THRESHOLD_FAILED
    return 0


def sweep_exit_code(status: str, document: Mapping[str, Any]) -> int:
    """A sweep's: its own status, then any invalid point, then its thresholds."""
    points = document.get("points") or []
    return exit_code(
        EXIT_CODES[status],
        document.get("thresholds") or [],
        invalid=any(verdict_of(p) == "invalid" for p in points),
    )
