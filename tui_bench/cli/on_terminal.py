"""Whether tuibench runs on a terminal (its own module: the entry point asks before it
imports anything else)."""

from __future__ import annotations

import sys
from typing import TextIO


def is_terminal(stream: TextIO | None) -> bool:
    """Whether `stream` is a terminal. Started by another program, it may be closed (None)."""
    return stream is not None and stream.isatty()


def on_terminal() -> bool:
    """Whether the app can be drawn and used: input and output both a terminal."""
    return is_terminal(sys.stdin) and is_terminal(sys.stdout)
