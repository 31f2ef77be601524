"""A demo target for synchronous callers (benchmarks, test fixtures): it runs on an event
loop of its own in a background thread, so callers with or without a loop can share it."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from tui_bench.demo.nginx_target import Backend, DemoTarget

START_TIMEOUT_S = 30.0


@contextmanager
def running_demo_target(backend: Backend = "nginx") -> Iterator[DemoTarget]:
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    target = DemoTarget(backend)
    try:
        asyncio.run_coroutine_threadsafe(target.start(), loop).result(START_TIMEOUT_S)
        yield target
    finally:
        asyncio.run_coroutine_threadsafe(target.stop(), loop).result(START_TIMEOUT_S)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(5)
        loop.close()
