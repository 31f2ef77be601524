"""Shared pieces of the benchmarks: running tuibench itself as a user would."""

from __future__ import annotations

import statistics
import subprocess
import sys
from collections.abc import Sequence
from typing import Any

import orjson

TUIBENCH = [sys.executable, "-m", "tui_bench.cli.main"]


def tuibench_json(args: Sequence[str]) -> dict[str, Any]:
    proc = subprocess.run(
        [*TUIBENCH, "run", "--headless", "--json", *args],
        capture_output=True,
        check=True,
    )
    result: dict[str, Any] = orjson.loads(proc.stdout)
    return result


def median(values: Sequence[float]) -> float:
    return statistics.median(values)
