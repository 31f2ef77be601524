"""`tuibench export SESSION`: a session (or a sweep point) as json, csv or markdown."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tui_bench.cli.output import say
from tui_bench.redaction import redact_text
from tui_bench.report.export import export, write_export
from tui_bench.storage import store


def cmd_export(args: argparse.Namespace) -> int:
    selection = store.select(args.session)
    if args.output:
        written = write_export(selection, args.format, Path(args.output), force=args.force)
        say(f"{args.format} written to {written}", sys.stderr)
    else:
        sys.stdout.write(redact_text(export(selection.document(), args.format)))
    return 0
