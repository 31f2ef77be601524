"""Where a sweep is, counted: of a known number of runs, or a search's steps."""

from __future__ import annotations

from tui_bench.report.text import run_count


def test_a_sweep_counts_runs_of_its_total_a_search_its_steps() -> None:
    assert run_count(2, 8) == "run 3/8"
    # A capacity search grows its plan as it goes: `run 3/3`, `run 4/4` said nothing.
    assert run_count(2, None) == "step 3"
