"""The headless progress lines and the end-of-run summary, as plain text."""

from __future__ import annotations

import sys
from collections.abc import Mapping
from typing import Any, TextIO

from tui_bench.engine.events import (
    Event,
    Progress,
    RunFinished,
    SecondClosed,
    SegmentStarted,
)
from tui_bench.formats import fmt_bytes, fmt_count, fmt_latency
from tui_bench.printable import printable
from tui_bench.records.warning import Warning
from tui_bench.redaction import redact_text
from tui_bench.report.text import ended_rows
from tui_bench.runners.durations import duration_text, stretch_at
from tui_bench.spec import RunSpec
from tui_bench.storage.series_columns import shown_window
from tui_bench.typed_values import format_duration


def second_line(row: Mapping[str, Any], done: str | None = None) -> str:
    """`[   3s]  30% of -d 10s  45,123 req/s ...`: the end of the row's window (`[ 3.5s]`
    for a partial one), how far the run is (`done`), then what the window measured."""
    window = row.get("window_s") or 1.0
    end = row["t_s"] + window
    parts = [f"[{end:>4.0f}s]" if window == 1.0 else f"[{end:>4.1f}s]"]
    if done is not None:
        parts.append(done)
    if row.get("rps") is not None:
        parts.append(f"{fmt_count(row['rps'])} req/s")
    if row.get("errors"):
        parts.append(f"{fmt_count(row['errors'])} errors")
    if row.get("achieved_rps") is not None:
        parts.append(f"sent {fmt_count(row['achieved_rps'])}/s backlog {fmt_count(row['backlog'])}")
    if row.get("p99_s") is not None:
        parts.append(f"p50 {fmt_latency(row.get('p50_s'))} p99 {fmt_latency(row['p99_s'])}")
    if row.get("service_p99_s") is not None:
        parts.append(f"(from the send p99 {fmt_latency(row['service_p99_s'])})")
    if row.get("server_cpu_pct") is not None:
        parts.append(
            f"server {row['server_cpu_pct']:.0f}% cpu {fmt_bytes(row.get('server_rss_bytes'))}"
        )
    if row.get("client_cpu_pct") is not None:
        parts.append(f"client {row['client_cpu_pct']:.0f}% cpu")
    return "  ".join(parts)


class ProgressPrinter:
    """Listener that prints one line per second of the run to stderr.

    Writes may fail once the terminal is gone (SSH dropped: SIGHUP, then EIO); the run
    must go on being saved, so such errors only silence the printer.
    """

    def __init__(self, out: TextIO = sys.stderr, spec: RunSpec | None = None) -> None:
        self.out = out
        self.spec = spec
        self._progress: Progress | None = None
        self._requests = 0
        self._silent = False

    def __call__(self, event: Event) -> None:
        if isinstance(event, Progress):
            self._progress = event
        elif isinstance(event, SecondClosed):
            self._requests += event.row.get("requests") or 0
            if shown_window(event.row):
                self.write(second_line(event.row, self._done(event.row)))
        elif isinstance(event, Warning):
            self.write(f"warning: {event.message}")
        elif isinstance(event, SegmentStarted) and event.index:
            self.write(segment_line(event))
        elif isinstance(event, RunFinished) and event.message:
            self.write(f"{event.status}: {event.message}")

    def _done(self, row: Mapping[str, Any]) -> str | None:
        """How far the run is at the end of `row`, from the row itself (the last lines of a
        run come together at its end: the latest Progress would be stale for them)."""
        spec = self.spec
        if spec is None:
            return None
        whole = f"-n {spec.requests:,}" if spec.requests is not None else duration_text(spec)
        if spec.requests is not None:
            fraction = self._requests / spec.requests if self._requests else None
            if fraction is None and self._progress is not None:
                fraction = self._progress.fraction
        else:
            end = row["t_s"] + (row.get("window_s") or 1.0)
            stretch = stretch_at(spec, end)
            if stretch is None:
                return None
            if stretch.warming:
                # Not part of the measured window: its seconds say so instead.
                return f"warm-up {format_duration(end)} of {format_duration(spec.warm_up_s or 0)}"
            fraction = stretch.fraction
        if fraction is None or whole is None:
            return None
        return f"{min(fraction, 1.0) * 100:3.0f}% of {whole}"

    def write(self, line: str) -> None:
        if self._silent:
            return
        try:
            self.out.write(printable(redact_text(line)) + "\n")
            self.out.flush()
        except OSError:
            self._silent = True


def segment_line(event: SegmentStarted) -> str:
    """`[ 12.3s] segment 3: 1,250 req/s c10 (key), after a gap of 6.20 ms`."""
    if event.paused:
        load = "load paused"
    else:
        rate = "closed loop" if event.target_rps is None else f"{fmt_count(event.target_rps)} req/s"
        load = f"{rate} c{event.connections}"
    gap = "" if event.gap_s is None else f", after a gap of {fmt_latency(event.gap_s)}"
    return f"[{event.start_s:6.1f}s] segment {event.index + 1}: {load} ({event.cause}){gap}"


def summary_text(finished: RunFinished, spec: RunSpec | None = None) -> str:
    """The ended run as the live screen's result shows it: the same rows in the same order."""
    lines = [
        f"status    {finished.status}" + (f" — {finished.message}" if finished.message else "")
    ]
    if finished.validity is not None:
        lines.append(f"validity  {finished.validity.verdict}")
    lines += [f"{label:<9} {value}" for label, value in ended_rows(finished, spec)]
    lines += [f"warning   {w.message}" for w in finished.warnings]
    return "\n".join(lines)
