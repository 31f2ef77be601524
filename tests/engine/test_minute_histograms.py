"""The run's latency journaled a minute at a time, as each minute closes."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from tui_bench.engine.minute_histograms import MinuteHistograms
from tui_bench.histogram import LatencyHistogram
from tui_bench.storage.journal import JournalWriter, read_records
from tui_bench.storage.minutes import minutes_of


def second(value_us: int) -> LatencyHistogram:
    h = LatencyHistogram()
    h.add(np.array([value_us], dtype=np.int64))
    return h


def test_each_minute_is_journaled_once_the_next_begins_and_the_last_at_the_end(
    tmp_path: Path,
) -> None:
    journal = JournalWriter(tmp_path / "run.journal", {"id": "r"})
    minutes = MinuteHistograms()
    # Seconds 0..149, the one at 70 s missing (a lost second), each request 1 ms + t µs.
    for t in [t for t in range(150) if t != 70]:
        minutes.add(journal, t, second(1000 + t), second(500) if t < 100 else None)
        if t == 59:
            assert not [r for r in read_records(journal.path) if r["k"] == "minute"]
    minutes.close(journal)
    minutes.close(journal)  # nothing left open: nothing more written
    journal.close()
    records = [r for r in read_records(journal.path) if r["k"] == "minute"]
    kept = minutes_of(records, "r")
    assert [m.start_s for m in kept] == [0, 60, 120]
    assert [m.histogram.count for m in kept] == [60, 59, 30]
    assert kept[0].histogram.max_us == 1059 and kept[2].histogram.min_us == 1120
    assert [m.service.count if m.service else None for m in kept] == [60, 39, None]
