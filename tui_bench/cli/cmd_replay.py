"""`tuibench replay SESSION`: a saved run played back in the live screen, a sweep shown as
it ended."""

from __future__ import annotations

import argparse
import asyncio
import sys

from tui_bench.cli.output import needs_terminal, say
from tui_bench.storage import store
from tui_bench.storage.refs import Selection
from tui_bench.storage.session import Session


def cmd_replay(args: argparse.Namespace) -> int:
    selection = store.select(args.session)
    needs_terminal("replay", f"tuibench export {args.session} or tuibench plot {args.session}")
    session = the_run(selection)
    from tui_bench.ui.launch import UiOptions, run_replay

    code, _ = asyncio.run(run_replay(session, UiOptions.from_args(args)))
    return code


def the_run(selection: Selection) -> Session:
    """What `replay` and `plot` show of a reference: a session itself, a point's first run
    (said in one line when the point has more)."""
    run, count = selection.run()
    if count > 1:
        say(f"{selection.ref}: run 1 of the point's {count} ({run.id})", sys.stderr)
    return run
