"""One load generator of a run of several, as the run keeps it at its end."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class GeneratorRun:
    # Where it ran: `here`, or the SSH destination.
    host: str
    tool: str | None = None
    tool_path: str | None = None
    tool_version: str | None = None
    # The command it ran there; None before it started.
    argv: tuple[str, ...] | None = None
    # Its requests over the merged run's window and its share of them.
    rps: float | None = None
    share: float | None = None
    client_cpu_mean_pct: float | None = None
    client_bound: bool = False
    # How long after the shared start its tool started; its clock against this machine's.
    start_skew_s: float | None = None
    clock_offset_s: float | None = None
    # What its output stream carried from its host.
    stream_bytes: int | None = None
    # Why the connection to its host was lost; None when it was not.
    lost: str | None = None
    # Its own run's requests.
    requests: int | None = None
