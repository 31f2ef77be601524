"""A run's clock, as every view shows it (formats.fmt_clock)."""

from __future__ import annotations

from tui_bench.formats import fmt_clock


def test_the_clock_reads_in_hours_once_a_run_passes_one() -> None:
    assert fmt_clock(None) == "–"
    assert fmt_clock(0) == "00:00" and fmt_clock(247.9) == "04:07"
    assert fmt_clock(247.35, tenths=True) == "04:07.3"
    assert fmt_clock(3599) == "59:59" and fmt_clock(3600) == "1:00:00"
    assert fmt_clock(23 * 3600 + 4 * 60 + 7) == "23:04:07"
    assert fmt_clock(3600 + 7.25, tenths=True) == "1:00:07.2"
    # Beside a length past an hour, a time before one reads in hours too.
    assert fmt_clock(61, hours=True) == "0:01:01"
