"""A run's latency as an HdrHistogram interval log (the format HdrHistogram's libraries
read in Java, C, Rust and Python): one interval per minute the session keeps a histogram
of, values in nanoseconds (each Interval_Max in milliseconds, as jHiccup and wrk2 log).

Each of tuibench's buckets is recorded at the value its percentiles report (the bucket's
middle, kept within the minute's exact min and max), so a percentile read back is the
session's within HdrHistogram's own precision (3 significant digits)."""

from __future__ import annotations

from datetime import datetime

from tui_bench.errors import SessionError
from tui_bench.histogram import LatencyHistogram
from tui_bench.metrics.catalogue import started_s
from tui_bench.storage.minutes import MINUTE_S
from tui_bench.storage.session import Session

SIGNIFICANT_DIGITS = 3
# 38 hours in ns: tuibench's own histogram's top (histogram.MAX_US).
_HIGHEST_NS = ((1 << 37) - 1) * 1000
_NS_PER_US = 1000
_NS_PER_MS = 1_000_000
LEGEND = '"StartTimestamp","Interval_Length","Interval_Max","Interval_Compressed_Histogram"'


def _payload(histogram: LatencyHistogram) -> str:
    # Loaded only for this export: the command line's start-up stays as it is.
    from hdrh.histogram import HdrHistogram

    hdr = HdrHistogram(1, _HIGHEST_NS, SIGNIFICANT_DIGITS)
    for value_us, count in histogram.reported():
        hdr.record_value(max(round(value_us * _NS_PER_US), 1), count)
    encoded: bytes = hdr.encode()
    return encoded.decode()


def hlog_text(session: Session) -> str:
    """The log of a run's minutes (a fixed-rate run's latency from when each request was
    due, as its other figures are)."""
    minutes = session.minutes
    if not minutes:
        raise SessionError(
            f"{session.id} keeps no latency histograms: only a run of h2load from one "
            "generator keeps them (wrk and ab keep no request log), since they were kept"
        )
    started = session.started_at
    if started is None:
        raise SessionError(f"{session.id} keeps no start time: its minutes cannot be dated")
    start = started_s(started)
    stamp = datetime.fromtimestamp(start).astimezone().isoformat(timespec="milliseconds")
    lines = [
        "#[Histogram log format version 1.3]",
        f"#[tuibench {session.id}: latency in ns, Interval_Max in ms]",
        f"#[StartTime: {start:.3f} (seconds since epoch), {stamp}]",
        f"#[BaseTime: {start:.3f} (seconds since epoch)]",
        LEGEND,
    ]
    end = session.measured_end_s
    for minute in minutes:
        histogram = minute.histogram
        if not histogram.count:
            continue
        length = min(MINUTE_S, max(end - minute.start_s, 0.001)) if end else MINUTE_S
        top = (histogram.max_us or 0) * _NS_PER_US / _NS_PER_MS
        lines.append(f"{minute.start_s:.3f},{length:.3f},{top:.3f},{_payload(histogram)}")
    return "\n".join(lines) + "\n"
