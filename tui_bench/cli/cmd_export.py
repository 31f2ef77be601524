"""`tuibench export SESSION`: a session (or a sweep point) as json, csv or markdown."""

from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path

from tui_bench.cli.on_terminal import is_terminal
from tui_bench.cli.output import say
from tui_bench.errors import UsageError
from tui_bench.redaction import redact_text
from tui_bench.report.export import export_chunks, write_export
from tui_bench.report.export_formats import DEFAULT_FORMAT, FORMATS
from tui_bench.storage import store


def cmd_export(args: argparse.Namespace) -> int:
    fmt = export_format(args)
    selection = store.select(args.session)
    if args.output:
        written = write_export(selection, fmt, Path(args.output), force=args.force)
        say(f"{fmt} written to {written}", sys.stderr)
    else:
        for chunk in export_chunks(selection.document(), fmt):
            sys.stdout.write(redact_text(chunk))
    return 0


def export_format(args: argparse.Namespace) -> str:
    """The format asked for, else json; but a session's JSON is thousands of lines that
    would flood a terminal, so there, with no file to write, the user says which."""
    if args.format is not None:
        return str(args.format)
    if not args.output and is_terminal(sys.stdout):
        raise UsageError(
            f"export: say --format {'|'.join(FORMATS)} (and -o FILE to write a file), "
            f"or pipe it: tuibench export {shlex.quote(args.session)} | jq"
        )
    return DEFAULT_FORMAT
