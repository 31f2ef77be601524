"""`tuibench history NAME`: every saved run of one benchmark, its set-up changes and the
runs where its level changed; a table, an export, or the history screen."""

from __future__ import annotations

import argparse
import asyncio
import sys
from typing import TYPE_CHECKING

from tui_bench.cli.output import EXACT, write_output
from tui_bench.errors import UsageError
from tui_bench.printable import printable_lines

if TYPE_CHECKING:
    from tui_bench.analysis.history import History


def print_history(args: argparse.Namespace) -> History | None:
    """Print or write what `args` ask for; the history when it is to be shown on screen."""
    # Imported here: they pull in scipy, which the rest of the CLI does not wait for.
    from tui_bench.analysis.history import history_of
    from tui_bench.report.history_report import history_export, history_text
    from tui_bench.storage.index import bench_names, indexed

    if args.name is None:
        raise UsageError("history: say which runs: a session's name (tuibench sessions lists them)")
    fmt = "json" if args.json else args.format
    if args.output and fmt is None:
        raise UsageError("-o needs --format json, csv or md")
    entries = indexed(named=args.name)
    for entry in entries:
        if entry.head is None:
            # Whose run it was is unknown: said, and the rest shown without it.
            sys.stderr.write(f"tuibench: skipped: {entry.error}\n")
    history = history_of(args.name, entries, bench_names)
    if fmt is not None:
        write_output(args, history_export(history, fmt), "history", as_is=fmt in EXACT)
        return None
    if args.headless or not sys.stdout.isatty():
        sys.stdout.write(printable_lines(history_text(history)))
        return None
    return history


def cmd_history(args: argparse.Namespace) -> int:
    history = print_history(args)
    if history is None:
        return 0
    from tui_bench.ui.launch import UiOptions, run_history

    code, _ = asyncio.run(run_history(history, UiOptions.from_args(args)))
    return code
