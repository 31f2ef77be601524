"""The server of a run of several generators, sampled by the run itself from the start they
share to the end of the last one: its series goes on whichever generator is lost. The
series' rows get the server's columns from here; the generators' bring the clients'."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

import psutil

from tui_bench.engine.series import SeriesBuilder
from tui_bench.engine.server_watch import ServerWatch
from tui_bench.engine.tool_start import StartGate
from tui_bench.records.warning import Warning
from tui_bench.remote.server import ServerOnHost
from tui_bench.sampling.pacing import sample_until
from tui_bench.sampling.sampler import ResourceSampler
from tui_bench.sampling.samples import ResourceSample
from tui_bench.sampling.summaries import SampleTally

SERVER_COLUMNS = ("server_cpu_pct", "server_rss_bytes", "server_procs", "system_cpu_pct")


class FleetServer:
    def __init__(
        self,
        server: psutil.Process | None,
        on_host: ServerOnHost | None,
        interval_s: float,
        warn: Callable[[Warning], None],
        on_sample: Callable[[ResourceSample], None],
    ) -> None:
        self._interval_s = interval_s
        self._server = server
        self._watch = ServerWatch(server, on_host, interval_s, self._warned)
        self._warn = warn
        self._on_sample = on_sample
        self._series = SeriesBuilder()
        self._done = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._sampling = False
        self._samples = SampleTally()
        # What the watch found (its host unreachable or lost): kept with the session.
        self.warnings: list[Warning] = []

    def _warned(self, warning: Warning) -> None:
        self.warnings.append(warning)
        self._warn(warning)

    async def start(self, gate: StartGate) -> None:
        """Reach the server's host; the sampling starts with the generators' shared start."""
        await self._watch.start()
        self._task = asyncio.create_task(self._loop(gate))

    async def stop(self) -> None:
        self._done.set()
        if self._task is not None:
            if not self._sampling:
                # Still waiting for a start that will not come.
                self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
        await self._watch.stop()

    def describe(self) -> dict[str, Any] | None:
        return self._watch.describe()

    def resources(self) -> dict[str, Any]:
        """The run's resources, as a single run's: the server's from these samples, the
        clients' from the busiest generator's (as `on_sample` saw them)."""
        return {
            **self._samples.summary(),
            "server_probe_cpu_mean_pct": self._watch.probe_cpu_mean_pct,
        }

    def columns(self, t_s: int) -> dict[str, Any]:
        """The server's figures of second `t_s` of the series."""
        row = self._series.row({"t_s": t_s})
        return {key: row[key] for key in SERVER_COLUMNS}

    def record(self, sample: ResourceSample) -> None:
        self._samples.add(sample)
        self._series.add_sample(sample)

    async def _loop(self, gate: StartGate) -> None:
        origin = await gate.opened()
        if origin is None:
            return
        start = origin[0]
        self._sampling = True
        sampler = await asyncio.to_thread(
            ResourceSampler,
            self._server,
            None,
            self._interval_s,
            lambda: time.monotonic() - start,
        )
        await sample_until(
            sampler,
            self._interval_s,
            self._done,
            lambda sample: self._on_sample(self._watch.merged(sample)),
        )
