"""`export --format hlog`: each minute's latency as an HdrHistogram interval log, read back
with HdrHistogram's own Python reader to the session's percentiles."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pytest
from hdrh.histogram import HdrHistogram
from hdrh.log import HistogramLogReader

from tui_bench.errors import SessionError
from tui_bench.histogram import LatencyHistogram
from tui_bench.metrics.hlog import hlog_text
from tui_bench.storage.histogram_codec import packed
from tui_bench.storage.session import Session

STARTED = datetime(2026, 11, 28, 12, 0, 0, 250000, tzinfo=UTC)
QUANTILES = (50.0, 90.0, 99.0, 99.9, 100.0)


def _minute(seed: int) -> LatencyHistogram:
    rng = np.random.default_rng(seed)
    h = LatencyHistogram()
    # Microseconds: most near 2 ms, a tail out to about a second.
    h.add(rng.lognormal(7.5, 0.9, 40_000).astype(np.int64) + 1)
    return h


def _session(minutes: list[LatencyHistogram], end_s: float) -> Session:
    return Session(
        {
            "id": "20261128-120000-250-h2load",
            "started_at": STARTED.isoformat(),
            "minutes": [{"t_s": 60 * i, "histogram": packed(h)} for i, h in enumerate(minutes)],
            # Its last second measured: the last minute ends with it.
            "series": {"t_s": [int(end_s)], "window_s": [end_s - int(end_s)]},
        }
    )


def test_each_minute_reads_back_as_its_percentiles(tmp_path: Path) -> None:
    minutes = [_minute(seed) for seed in range(3)]
    path = tmp_path / "run.hlog"
    path.write_text(hlog_text(_session(minutes, end_s=150.5)))
    reader = HistogramLogReader(str(path), HdrHistogram(1, 10**12, 3))
    for index, minute in enumerate(minutes):
        interval = reader.get_next_interval_histogram()
        assert interval is not None
        assert interval.get_total_count() == minute.count
        # Stamped in ms from the epoch by the reader: the minute's start, and its end (the
        # last minute ends with the run, 30.5 s in).
        start = STARTED.timestamp() + 60 * index
        assert interval.get_start_time_stamp() == pytest.approx(start * 1000, abs=1)
        length = 30.5 if index == 2 else 60.0
        assert interval.get_end_time_stamp() == pytest.approx((start + length) * 1000, abs=1)
        for q in QUANTILES:
            expected = minute.percentile_s(q)
            assert expected is not None
            read = interval.get_value_at_percentile(q) / 1e9
            # HdrHistogram's 3 significant digits: within 1/1000 of the value.
            assert read == pytest.approx(expected, rel=1e-3), q
    assert reader.get_next_interval_histogram() is None
    assert reader.get_start_time_sec() == pytest.approx(STARTED.timestamp(), abs=0.001)


def test_a_run_without_histograms_is_one_line() -> None:
    with pytest.raises(
        SessionError, match="keeps no latency histograms: only a run of h2load from one generator"
    ):
        hlog_text(_session([], end_s=10))
