"""When a run's resources are read: one pace for a single run and for a run's server sampled
apart from its generators."""

from __future__ import annotations

import asyncio
import contextlib
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
    server's memory, and its CPU once the run spans a window long enough to tell it."""
    record(await asyncio.to_thread(sampler.sample, CPU_WINDOW_MIN_S))
    next_at = time.monotonic() + interval_s
    while True:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(ended.wait(), max(0.0, next_at - time.monotonic()))
        if ended.is_set():
            break
        next_at += interval_s
        record(await asyncio.to_thread(sampler.sample))
    record(await asyncio.to_thread(sampler.sample, CPU_WINDOW_MIN_S))
