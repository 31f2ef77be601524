"""What a run's resource samples add up to: its CPU and memory figures, and whether the load
generator was the bottleneck. Pure."""

from __future__ import annotations

from collections.abc import Sequence
from statistics import fmean

from tui_bench.sampling.samples import ResourceSample

SATURATED_PCT = 90.0  # of one core: above this a generator thread cannot go much faster


def client_bound(samples: Sequence[ResourceSample], generator_threads: int) -> bool:
    """True when the load generator, not the server, limited the run.

    That is the case when, in most samples that saw the generator, its busiest thread used
    ≥ 90 % of a core or the whole process used ≥ 90 % of the cores its threads could use.
    """
    seen = [s for s in samples if s.client_cpu_pct is not None]
    saturated = sum(1 for s in seen if _saturated(s, generator_threads))
    return bool(seen) and saturated > len(seen) / 2


def summarize(samples: Sequence[ResourceSample]) -> dict[str, float | None]:
    server_cpu = [s.server_cpu_pct for s in samples if s.server_cpu_pct is not None]
    server_rss = [s.server_rss_bytes for s in samples if s.server_rss_bytes is not None]
    client_cpu = [s.client_cpu_pct for s in samples if s.client_cpu_pct is not None]
    sampler_cpu = [s.sampler_cpu_pct for s in samples if s.sampler_cpu_pct is not None]
    return {
        "server_cpu_mean_pct": fmean(server_cpu) if server_cpu else None,
        "server_cpu_max_pct": max(server_cpu, default=None),
        "server_rss_max_bytes": max(server_rss, default=None),
        "client_cpu_mean_pct": fmean(client_cpu) if client_cpu else None,
        "client_cpu_max_pct": max(client_cpu, default=None),
        "sampler_cpu_mean_pct": fmean(sampler_cpu) if sampler_cpu else None,
    }


def _saturated(sample: ResourceSample, generator_threads: int) -> bool:
    busiest = sample.client_thread_max_pct
    if busiest is not None and busiest >= SATURATED_PCT:
        return True
    # Threads beyond the core count share cores, so the cores bound the total.
    usable = min(generator_threads, len(sample.system_cpu_pct) or generator_threads)
    total = sample.client_cpu_pct or 0.0
    return total >= SATURATED_PCT * usable
