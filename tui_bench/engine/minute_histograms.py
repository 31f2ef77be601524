"""The run's latency histogram a minute at a time, journaled as each minute closes: what
lets the percentiles of any window of whole minutes be worked out again from the session
(seconds' percentiles do not merge; histograms do). A minute is about 1.5 KB, a
day's 1,440 of them about 2 MB."""

from __future__ import annotations

from tui_bench.histogram import LatencyHistogram
from tui_bench.storage.histogram_codec import packed
from tui_bench.storage.journal import JournalWriter
from tui_bench.storage.minutes import MINUTE_S


class MinuteHistograms:
    def __init__(self) -> None:
        self._minute: int | None = None
        self._histogram = LatencyHistogram()
        self._service: LatencyHistogram | None = None

    def add(
        self,
        journal: JournalWriter,
        t_s: int,
        histogram: LatencyHistogram,
        service: LatencyHistogram | None,
    ) -> None:
        """Second `t_s`'s requests; the minute before it is journaled once one after it
        comes."""
        minute = t_s // MINUTE_S
        if minute != self._minute:
            self.close(journal)
            self._minute = minute
        self._histogram.merge(histogram)
        if service is not None:
            self._service = self._service or LatencyHistogram()
            self._service.merge(service)

    def close(self, journal: JournalWriter) -> None:
        """Journal the minute still open, if it holds a request."""
        if self._minute is not None and self._histogram.count:
            record = {"t_s": self._minute * MINUTE_S, "histogram": packed(self._histogram)}
            if self._service is not None:
                record["service_histogram"] = packed(self._service)
            journal.write("minute", record)
        self._minute = None
        self._histogram = LatencyHistogram()
        self._service = None
