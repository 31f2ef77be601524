"""The exit status of `run` and `sweep`, in the CLI and when the app ends with a run's."""

from __future__ import annotations

from tui_bench.analysis.verdicts import Verdicts
from tui_bench.engine.events import RunFinished
from tui_bench.engine.sweep import SweepFinished
from tui_bench.errors import EXIT_INTERRUPTED, StoreError, TuibenchError

# By the run's status.
EXIT_CODES = {"completed": 0, "failed": 1, "interrupted": EXIT_INTERRUPTED}
# A run (or a sweep point) completed, but its figures do not describe the load asked for.
EXIT_INVALID = 1
# A threshold failed, or a tested metric regressed beyond the tolerance of the baseline.
EXIT_THRESHOLD_FAILED = 99
# The baseline cannot be gated on (invalid, another set-up): as for any bad input.
EXIT_BASELINE_REFUSED = TuibenchError.exit_code


def exit_code(run_code: int, verdicts: Verdicts, *, invalid: bool = False) -> int:
    """A run's own failure first; then 1 when it completed but is invalid (a threshold
    judged on figures that cannot be trusted means nothing); then 2 when its baseline was
    refused; then 99 when a threshold failed or a metric regressed."""
    if run_code != 0:
        return run_code
    if invalid:
        return EXIT_INVALID
    if verdicts.baseline is not None and verdicts.baseline.refused:
        return EXIT_BASELINE_REFUSED
    if verdicts.failed:
        return EXIT_THRESHOLD_FAILED
    return 0


def run_exit_code(finished: RunFinished) -> int:
    """A run's, as the CLI and the app end with it."""
    invalid = bool(finished.validity and finished.validity.is_invalid)
    run_code = EXIT_CODES[finished.status]
    if run_code == 0 and finished.unsaved:
        # Its figures were shown but not kept: the store wants the user's attention first.
        return StoreError.exit_code
    return exit_code(run_code, finished.verdicts, invalid=invalid)


def sweep_exit_code(finished: SweepFinished) -> int:
    """A sweep's: its own status, then any invalid point, its baseline, its thresholds."""
    points = finished.session.points
    return exit_code(
        EXIT_CODES[finished.status],
        finished.verdicts,
        invalid=any(p.verdict == "invalid" for p in points),
    )
