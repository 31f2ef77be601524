"""Shared pieces of the benchmarks: a demo nginx for the duration of a benchmark, and
running tuibench itself as a user would."""

from __future__ import annotations

import asyncio
import statistics
import subprocess
import sys
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import orjson

from tui_bench.demo.nginx_target import DemoTarget

TUIBENCH = [sys.executable, "-m", "tui_bench.cli.main"]


@contextmanager
def demo_nginx() -> Iterator[DemoTarget]:
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    target = DemoTarget("nginx")
    asyncio.run_coroutine_threadsafe(target.start(), loop).result(30)
    try:
        yield target
    finally:
        asyncio.run_coroutine_threadsafe(target.stop(), loop).result(30)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(5)


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
