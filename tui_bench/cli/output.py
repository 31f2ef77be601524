"""Where a command's text goes: the file `-o` names (never over one without `--force`), or
standard output; either way with its secrets redacted."""

from __future__ import annotations

import argparse
import errno
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from tui_bench.cli.on_terminal import on_terminal
from tui_bench.errors import UsageError
from tui_bench.printable import printable_lines
from tui_bench.redaction import redact_text
from tui_bench.storage.atomic import write_new

# Formats written as they are: JSON escapes control characters itself, CSV is data.
EXACT = ("json", "csv")


def write_output(args: argparse.Namespace, text: str, what: str, *, as_is: bool = False) -> None:
    """`text` into -o FILE, saying where it went, else on standard output; its control
    characters escaped unless it goes `as_is` (JSON and CSV, exact; or a text whose fields
    were escaped one by one)."""
    if not as_is:
        text = printable_lines(text)
    if args.output:
        written = write_new(Path(args.output), text, force=args.force)
        print(redact_text(f"{what} written to {written}"), file=sys.stderr)
    else:
        sys.stdout.write(redact_text(text))


def say(text: str, out: TextIO | None = None) -> None:
    """A line on standard output (or `out`); it may quote a URL or a header as given."""
    print(printable_lines(redact_text(text)), file=out or sys.stdout)


def wants_app(args: argparse.Namespace) -> bool:
    """Whether a run or a sweep opens the app: not with --headless, nor off a terminal (a
    pipe, a file, a CI job), where it runs headless (`headless_note` says so)."""
    return not args.headless and on_terminal()


def headless_note(args: argparse.Namespace, command: str) -> None:
    """Said once the job is ready to start, when it runs headless unasked."""
    if not args.headless and not on_terminal():
        say(f"{command}: not on a terminal: running headless", sys.stderr)


def needs_terminal(command: str, instead: str) -> None:
    """UsageError (one line) when `command` would open the app off a terminal."""
    if not on_terminal():
        raise UsageError(f"{command} opens the app, which needs a terminal: {instead}")


def report_lines(lines: Sequence[str], out: TextIO) -> None:
    """A result's lines on `out`. A reader that left early (`| head -1`) must not change
    the exit status the result gives: what it did not read is dropped. Nor must a terminal
    that went away (a dropped SSH session: EIO), whose run the hangup stopped and saved,
    nor one closed before tuibench started (None)."""
    if out is None:
        return
    try:
        for line in lines:
            say(line, out)
        out.flush()
    except OSError as exc:
        if not isinstance(exc, BrokenPipeError) and exc.errno != errno.EIO:
            raise
        # Python flushes standard output again at exit: nowhere to fail from now on.
        os.dup2(os.open(os.devnull, os.O_WRONLY), out.fileno())
