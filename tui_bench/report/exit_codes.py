"""The exit status of `run` and `sweep`, in the CLI and when the app ends with a run's."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

# By the run's status.
EXIT_CODES = {"completed": 0, "failed": 1, "interrupted": 130}
EXIT_THRESHOLD_FAILED = 99


def exit_code(run_code: int, verdicts: Sequence[Mapping[str, Any]]) -> int:
    """99 when the runs went well but a threshold failed; a run's own failure comes first."""
    if run_code == 0 and any(not v["passed"] for v in verdicts):
        return EXIT_THRESHOLD_FAILED
    return run_code
