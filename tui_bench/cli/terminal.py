"""Whether tuibench runs on a terminal (its own module: the entry point asks before it
imports anything else)."""

from __future__ import annotations

import sys


def on_terminal() -> bool:
    """Whether the app can be drawn and used: input and output both a terminal. Started by
    another program, either may be closed (None)."""
    return all(stream is not None and stream.isatty() for stream in (sys.stdin, sys.stdout))
