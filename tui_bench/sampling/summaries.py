"""What a run's resource samples add up to: its CPU and memory figures, and whether the load
generator was the bottleneck. Pure."""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from statistics import fmean

from tui_bench.sampling.samples import ResourceSample

SATURATED_PCT = 90.0  # of one core: above this a generator thread cannot go much faster


class SampleTally:
    """A run's samples as they come, kept to what `summary` and `client_bound` need: the
    CPU figures that are means (8 bytes a sample each) and counts, not the samples, so that
    a run of a day holds a few MB of them."""

    def __init__(self, generator_threads: int = 1) -> None:
        self._threads = generator_threads
        self._server_cpu = array("d")
        self._client_cpu = array("d")
        self._sampler_cpu = array("d")
        self._server_rss_max: int | None = None
        self._seen = 0
        self._saturated = 0

    def add(self, sample: ResourceSample) -> None:
        for column, value in (
            (self._server_cpu, sample.server_cpu_pct),
            (self._client_cpu, sample.client_cpu_pct),
            (self._sampler_cpu, sample.sampler_cpu_pct),
        ):
            if value is not None:
                column.append(value)
        rss = sample.server_rss_bytes
        if rss is not None and (self._server_rss_max is None or rss > self._server_rss_max):
            self._server_rss_max = rss
        if sample.client_cpu_pct is not None:
            self._seen += 1
            self._saturated += _saturated(sample, self._threads)

    def summary(self) -> dict[str, float | None]:
        server_cpu, client_cpu, sampler_cpu = self._server_cpu, self._client_cpu, self._sampler_cpu
        return {
            "server_cpu_mean_pct": fmean(server_cpu) if server_cpu else None,
            "server_cpu_max_pct": max(server_cpu, default=None),
            "server_rss_max_bytes": self._server_rss_max,
            "client_cpu_mean_pct": fmean(client_cpu) if client_cpu else None,
            "client_cpu_max_pct": max(client_cpu, default=None),
            "sampler_cpu_mean_pct": fmean(sampler_cpu) if sampler_cpu else None,
        }

    def client_bound(self) -> bool:
        """True when the load generator, not the server, limited the run.

        That is the case when, in most samples that saw the generator, its busiest thread
        used ≥ 90 % of a core or the whole process used ≥ 90 % of the cores its threads
        could use.
        """
        return bool(self._seen) and self._saturated > self._seen / 2


def _tally(samples: Sequence[ResourceSample], generator_threads: int = 1) -> SampleTally:
    tally = SampleTally(generator_threads)
    for sample in samples:
        tally.add(sample)
    return tally


def client_bound(samples: Sequence[ResourceSample], generator_threads: int) -> bool:
    return _tally(samples, generator_threads).client_bound()


def summarize(samples: Sequence[ResourceSample]) -> dict[str, float | None]:
    return _tally(samples).summary()


def _saturated(sample: ResourceSample, generator_threads: int) -> bool:
    busiest = sample.client_thread_max_pct
    if busiest is not None and busiest >= SATURATED_PCT:
        return True
    # Threads beyond the core count share cores, so the cores bound the total.
    usable = min(generator_threads, len(sample.system_cpu_pct) or generator_threads)
    total = sample.client_cpu_pct or 0.0
    return total >= SATURATED_PCT * usable
