"""Where a command's text goes: the file `-o` names (never over one without `--force`), or
standard output; either way with its secrets redacted."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tui_bench.redaction import redact_text
from tui_bench.storage.atomic import write_new


def write_output(args: argparse.Namespace, text: str, what: str) -> None:
    """`text` into -o FILE, saying where it went, else on standard output."""
    if args.output:
        written = write_new(Path(args.output), text, force=args.force)
        print(redact_text(f"{what} written to {written}"), file=sys.stderr)
    else:
        sys.stdout.write(redact_text(text))
