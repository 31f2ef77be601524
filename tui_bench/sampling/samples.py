"""One reading of the server's, the machine's and the load generator's resources."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ResourceSample:
    """CPU percentages count 100 per core; server and client fields are None without them,
    and every CPU figure is None (the per-core tuple empty) in a reading taken too soon after
    the last to tell one."""

    t_s: float
    server_cpu_pct: float | None
    server_rss_bytes: int | None
    server_uss_bytes: int | None
    server_pss_bytes: int | None
    server_procs: int | None
    server_threads: int | None
    server_fds: int | None
    system_cpu_pct: tuple[float, ...]
    system_mem_used_bytes: int
    system_mem_total_bytes: int
    client_cpu_pct: float | None
    client_thread_max_pct: float | None
    # None with the other CPU figures of a reading too soon after the last to tell them.
    sampler_cpu_pct: float | None
