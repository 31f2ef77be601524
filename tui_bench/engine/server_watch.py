"""The server as a run sees it: a process here (sampled with the rest by the
ResourceSampler) or a server on another host, sampled there over SSH and merged into each
local sample. The run goes on without the remote figures when they cannot be had, told why.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from statistics import fmean
from typing import Any

import psutil

from tui_bench.errors import TuibenchError
from tui_bench.records.warning import Warning
from tui_bench.remote.server import RemoteServer, ServerOnHost, spawn_ssh
from tui_bench.sampling.samples import ResourceSample

# A remote reading older than this many intervals is not the server's present state.
STALE_READINGS = 3
# The warnings of this module's own finding.
WARNINGS = frozenset({"server-host", "server-host-lost"})


@dataclass
class ServerWatch:
    local: psutil.Process | None
    on_host: ServerOnHost | None
    interval_s: float
    warn: Callable[[Warning], None]
    _remote: RemoteServer | None = None
    _probe_cpu: list[float] = field(default_factory=list)

    async def start(self) -> None:
        """Start sampling the server on its host, if it has one."""
        if self.on_host is None:
            return
        remote = RemoteServer(
            self.on_host.host, self.on_host.selector, self.interval_s, spawn=spawn_ssh
        )
        try:
            await remote.start()
        except TuibenchError as exc:
            await remote.stop()
            self.warn(Warning("server-host", f"{exc}: no server metrics"))
            return
        self._remote = remote

    async def stop(self) -> None:
        if self._remote is not None:
            await self._remote.stop()

    def describe(self) -> dict[str, Any] | None:
        """The server as the session keeps it."""
        remote = self._remote
        if remote is None:
            return describe_server(self.local)
        return {**remote.found, "clock_offset_s": remote.clock_offset_s, "rtt_s": remote.rtt_s}

    @property
    def probe_cpu_mean_pct(self) -> float | None:
        """What sampling cost the server's host, on average (None: sampled here)."""
        return fmean(self._probe_cpu) if self._probe_cpu else None

    def exited(self, here: bool) -> str | None:
        """What was seen of the server's exit, if it exited: `here`, as the local sampler
        saw it; on its host, as the probe there said it."""
        remote = self._remote
        if remote is not None:
            return remote.lost if remote.exited else None
        if here and self.local is not None:
            return f"pid {self.local.pid} exited"
        return None

    def merged(self, sample: ResourceSample) -> ResourceSample:
        """The local sample with the server and its host as read there; no server figures
        once the readings stop (the connection dropped), told once."""
        remote = self._remote
        if remote is None:
            return sample
        if remote.lost is not None:
            self.warn(Warning("server-host-lost", f"{remote.lost}: no more server metrics"))
        reading = remote.latest
        fresh = reading is not None and (
            time.time() - remote.local_time(reading) <= STALE_READINGS * self.interval_s
        )
        if reading is None or not fresh or remote.lost is not None:
            return replace(sample, server_cpu_pct=None, server_rss_bytes=None, server_procs=None)
        self._probe_cpu.append(reading.probe_cpu_pct)
        return replace(
            sample,
            server_cpu_pct=reading.cpu_pct,
            server_rss_bytes=reading.rss_bytes,
            server_uss_bytes=None,
            server_pss_bytes=None,
            server_procs=reading.procs,
            server_threads=None,
            server_fds=None,
            system_cpu_pct=reading.cores,
            system_mem_used_bytes=reading.mem_used_bytes,
            system_mem_total_bytes=reading.mem_total_bytes,
        )


def describe_server(proc: psutil.Process | None) -> dict[str, Any] | None:
    if proc is None:
        return None
    try:
        return {"pid": proc.pid, "name": proc.name(), "cmdline": proc.cmdline()}
    except psutil.Error:
        return {"pid": proc.pid}
