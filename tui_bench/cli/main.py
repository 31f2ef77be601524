"""`tuibench`: the entry point. Every failure the user can fix is one line and exit 2."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from importlib import import_module

from tui_bench.cli.args import build_parser
from tui_bench.errors import EXIT_INTERRUPTED, TuibenchError
from tui_bench.printable import printable
from tui_bench.redaction import redact_text


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        if not (sys.stdin.isatty() and sys.stdout.isatty()):
            # No terminal to draw the home screen on (a pipe, a script): say what there is.
            parser.print_help()
            return 0
        args.command = "home"
    try:
        return dispatch(args)
    except TuibenchError as exc:
        sys.stderr.write(f"tuibench: error: {printable(redact_text(str(exc)))}\n")
        return exc.exit_code
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # `tuibench sessions | head`: the reader left; nothing to report.
        return 0


def dispatch(args: argparse.Namespace) -> int:
    """The command's own module (`cli/cmd_run.py` ...), imported only when it runs."""
    from tui_bench.cli import cmd_run

    module = (
        cmd_run if args.command == "demo" else import_module(f"tui_bench.cli.cmd_{args.command}")
    )
    code: int = getattr(module, f"cmd_{args.command}")(args)
    return code


if __name__ == "__main__":
    sys.exit(main())
