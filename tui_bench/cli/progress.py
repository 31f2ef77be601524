"""The headless progress lines and the end-of-run summary, as plain text."""

from __future__ import annotations

import sys
from collections.abc import Mapping
from typing import Any, TextIO

from tui_bench.engine.events import Event, Progress, RunFinished, RunWarning, SecondClosed
from tui_bench.formats import fmt_bytes, fmt_count, fmt_seconds
from tui_bench.report.text import result_rows


def second_line(row: Mapping[str, Any], progress: Progress | None) -> str:
    parts = [f"[{row['t_s'] + 1:>4}s]"]
    if progress is not None and progress.fraction is not None:
        parts.append(f"{progress.fraction * 100:3.0f}%")
    if row.get("rps") is not None:
        parts.append(f"{fmt_count(row['rps'])} req/s")
    if row.get("errors"):
        parts.append(f"{fmt_count(row['errors'])} errors")
    if row.get("p99_s") is not None:
        parts.append(f"p50 {fmt_seconds(row.get('p50_s'))} p99 {fmt_seconds(row['p99_s'])}")
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

    def __init__(self, out: TextIO = sys.stderr) -> None:
        self.out = out
        self._progress: Progress | None = None
        self._silent = False

    def __call__(self, event: Event) -> None:
        if isinstance(event, Progress):
            self._progress = event
        elif isinstance(event, SecondClosed):
            self.write(second_line(event.row, self._progress))
        elif isinstance(event, RunWarning):
            self.write(f"warning: {event.message}")
        elif isinstance(event, RunFinished) and event.message:
            self.write(f"{event.status}: {event.message}")

    def write(self, line: str) -> None:
        if self._silent:
            return
        try:
            self.out.write(line + "\n")
            self.out.flush()
        except OSError:
            self._silent = True


def summary_text(finished: RunFinished) -> str:
    lines = [f"status    {finished.status}"]
    if finished.validity is not None:
        lines.append(f"validity  {finished.validity.verdict}")
    if finished.result is not None:
        lines += [f"{label:<9} {value}" for label, value in result_rows(finished.result)]
    lines.append(f"session   {finished.session_path}")
    return "\n".join(lines)
