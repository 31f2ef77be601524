"""argparse types over typed_values: a bad value is argparse's one-line error, exit 2."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import TypeVar

from tui_bench.errors import UsageError
from tui_bench.spec import read_connections, read_threads
from tui_bench.stages import Stage, parse_stages
from tui_bench.typed_values import parse_duration, parse_percent, parse_positive_int, parse_rate

T = TypeVar("T")


def duration(text: str) -> float:
    """`10`, `10s`, `500ms`, `2m`, `1h` -> seconds."""
    return argparse_type(parse_duration, text)


def stages(text: str) -> tuple[Stage, ...]:
    return argparse_type(parse_stages, text)


def positive_int(text: str) -> int:
    return argparse_type(parse_positive_int, text)


def connections(text: str) -> int:
    return argparse_type(read_connections, text)


def threads(text: str) -> int:
    return argparse_type(read_threads, text)


def positive_rate(text: str) -> float:
    return argparse_type(parse_rate, text)


def percent(text: str) -> float:
    return argparse_type(parse_percent, text)


def argparse_type(read: Callable[[str], T], text: str) -> T:
    """The core's one-line UsageError, as argparse reports a bad value."""
    try:
        return read(text)
    except UsageError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
