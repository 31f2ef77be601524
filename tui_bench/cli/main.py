"""`tuibench`: the entry point. Every failure the user can fix is one line and exit 2."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from importlib import import_module

from tui_bench.cli.on_terminal import on_terminal
from tui_bench.errors import EXIT_INTERRUPTED, TuibenchError

# What the grammar makes of no arguments at all (tests/cli/test_startup_imports.py holds the
# two to each other). `tuibench` alone opens the home screen without building the grammar:
# its checks and defaults import much of the program, all of it before the first frame.
NO_ARGUMENTS = {"command": None, "theme": None, "no_mouse": False, "fps": None, "basic": False}


def main(argv: Sequence[str] | None = None) -> int:
    # Without `argv`, tuibench is the program, not code called by another.
    own_process = argv is None
    argv = sys.argv[1:] if argv is None else argv
    if not argv and on_terminal():
        args = argparse.Namespace(**NO_ARGUMENTS)
    else:
        from tui_bench.cli.args import build_parser

        parser = build_parser()
        args = parser.parse_args(argv)
        if args.command is None and not on_terminal():
            # No terminal to draw the home screen on (a pipe, a script): say what there is.
            parser.print_help()
            return 0
    if args.command is None:
        args.command = "home"
    try:
        return dispatch(args, own_process=own_process)
    except TuibenchError as exc:
        from tui_bench.printable import printable
        from tui_bench.redaction import redact_text

        sys.stderr.write(f"tuibench: error: {printable(redact_text(str(exc)))}\n")
        return exc.exit_code
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # `tuibench sessions | head`: the reader left; nothing to report.
        return 0


# The commands that put load on a server (the home screen's form starts runs too).
LOAD_COMMANDS = frozenset({"run", "sweep", "capacity", "demo", "home"})


def dispatch(args: argparse.Namespace, *, own_process: bool = False) -> int:
    """The command's own module (`cli/cmd_run.py` ...), imported only when it runs.
    `own_process`: tuibench is the program (not called from other code, whose process it
    would leave lowered), so its threads give way to the load it puts on (`priority`)."""
    if own_process and args.command in LOAD_COMMANDS:
        from tui_bench.priority import yield_to_load

        yield_to_load()
    # `demo` is a run (on the built-in target): cmd_run has both.
    name = "run" if args.command == "demo" else args.command
    module = import_module(f"tui_bench.cli.cmd_{name}")
    code: int = getattr(module, f"cmd_{args.command}")(args)
    return code


if __name__ == "__main__":
    sys.exit(main())
