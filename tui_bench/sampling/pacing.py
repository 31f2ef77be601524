"""When a run's resources are read: one pace for a single run and for a run's server sampled
apart from its generators."""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections.abc import Callable

from tui_bench.sampling.sampler import ResourceSampler
from tui_bench.sampling.samples import ResourceSample

# A stretch shorter than this gives a CPU figure of noise, not of the load: unknown instead.
CPU_WINDOW_MIN_S = 0.1


async def sample_until(
    sampler: ResourceSampler,
    interval_s: float,
    ended: asyncio.Event,
    record: Callable[[ResourceSample], None],
) -> None:
    """A reading when the load has started, one every interval until `ended` (one under way
    is kept), and one when it has ended: a run shorter than the interval still has its
    server's memory, and its CPU once the run spans a window long enough to tell it.

    The readings are taken on a thread of their own and recorded on the event loop: a busy
    loop (a resize repainting a screen for seconds) delays when they are recorded, never
    when they are taken, so no second of a run loses its server's figures."""
    loop = asyncio.get_running_loop()
    readings: asyncio.Queue[ResourceSample | None] = asyncio.Queue()
    stop = threading.Event()

    def post(reading: ResourceSample | None) -> None:
        with contextlib.suppress(RuntimeError):  # the loop is gone: nobody to record it
            loop.call_soon_threadsafe(readings.put_nowait, reading)

    def pace() -> None:
        post(sampler.sample(CPU_WINDOW_MIN_S))
        next_at = time.monotonic() + interval_s
        while not stop.wait(max(0.0, next_at - time.monotonic())):
            next_at += interval_s
            post(sampler.sample())
        post(sampler.sample(CPU_WINDOW_MIN_S))
        post(None)

    async def stop_when_ended() -> None:
        await ended.wait()
        stop.set()

    threading.Thread(target=pace, name="tuibench-sampler", daemon=True).start()
    stopper = asyncio.ensure_future(stop_when_ended())
    try:
        while (reading := await readings.get()) is not None:
            record(reading)
    finally:
        stop.set()
        stopper.cancel()
