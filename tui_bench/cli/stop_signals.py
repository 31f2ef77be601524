"""Ctrl-C, SIGTERM and SIGHUP (a dropped SSH session) during a headless run or sweep: the
job stops and what it measured is kept."""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Coroutine
from typing import Any, Protocol, TypeVar

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
T_co = TypeVar("T_co", covariant=True)


class Stoppable(Protocol[T_co]):
    def stop(self) -> None: ...

    def run(self) -> Coroutine[Any, Any, T_co]: ...


async def until_done(job: Stoppable[T_co]) -> T_co:
    """Run `job` until it ends; a stop signal stops it."""
    loop = asyncio.get_running_loop()
    for sig in STOP_SIGNALS:
        loop.add_signal_handler(sig, job.stop)
    try:
        return await job.run()
    finally:
        for sig in STOP_SIGNALS:
            loop.remove_signal_handler(sig)
