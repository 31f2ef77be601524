"""The small texts every screen shares: a run's clock."""

from __future__ import annotations

from tui_bench.ui.text.text_lines import clock


def test_the_clock_reads_in_hours_once_a_run_passes_one() -> None:
    assert clock(None) == "–"
    assert clock(0) == "00:00" and clock(247.9) == "04:07"
    assert clock(247.35, tenths=True) == "04:07.3"
    assert clock(3599) == "59:59" and clock(3600) == "1:00:00"
    assert clock(23 * 3600 + 4 * 60 + 7) == "23:04:07"
    assert clock(3600 + 7.25, tenths=True) == "1:00:07.2"
