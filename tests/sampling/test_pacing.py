"""When a run's resources are read: on a clock of their own, whatever the event loop does."""

from __future__ import annotations

import asyncio
import time

from tui_bench.sampling.pacing import sample_until
from tui_bench.sampling.sampler import ResourceSampler
from tui_bench.sampling.samples import ResourceSample

INTERVAL_S = 0.1
BLOCKED_S = 2.0


async def test_a_busy_event_loop_delays_the_readings_never_loses_them() -> None:
    """A resize that repaints for seconds holds the loop: the readings of those seconds are
    taken on time all the same, and recorded once it is free."""
    sampler = ResourceSampler(None, interval_s=INTERVAL_S)
    taken: list[float] = []
    ended = asyncio.Event()

    def record(sample: ResourceSample) -> None:
        taken.append(sample.t_s)

    pacing = asyncio.create_task(sample_until(sampler, INTERVAL_S, ended, record))
    await asyncio.sleep(0.3)
    blocked_from = time.monotonic() - sampler_start(sampler)
    time.sleep(BLOCKED_S)  # the event loop held, as a long repaint holds it
    blocked_to = blocked_from + BLOCKED_S
    ended.set()
    await pacing
    during = [t for t in taken if blocked_from < t < blocked_to]
    # Twenty readings are due while the loop is held; a tenth of them is proof enough.
    assert len(during) >= BLOCKED_S / INTERVAL_S / 10, (blocked_from, taken)
    assert taken == sorted(taken)


def sampler_start(sampler: ResourceSampler) -> float:
    """The monotonic time the sampler counts its samples' t_s from."""
    return time.monotonic() - sampler.sample().t_s
