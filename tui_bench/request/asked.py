"""What the user asked for, turned into a RunRequest the one way: `tuibench run`'s flags and
the run form's fields both go through `run_request`, so they take the same defaults and
refuse the same things."""

from __future__ import annotations

from dataclasses import dataclass

from tui_bench.request.run import DEFAULT_DURATION_S, RunRequest
from tui_bench.spec import RunSpec


@dataclass(frozen=True)
class Asked:
    """A run as asked for, each value read already (the flags parsed, the fields read);
    None where the user gave nothing."""

    urls: tuple[str, ...]
    tool: str = "h2load"
    connections: int = 10
    threads: int = 1
    requests: int | None = None
    duration_s: float | None = None
    warm_up_s: float | None = None
    streams: int | None = None
    h1: bool = False
    keepalive: bool = False
    headers: tuple[str, ...] = ()
    compress: str | None = None
    server_mode: str = "auto"
    server_pid: int | None = None
    server_name: str | None = None
    server_host: str | None = None
    name: str = ""
    tags: tuple[str, ...] = ()


def server_mode_of(pid: int | None, name: str | None, none: bool) -> str:
    """The command line's server flags as the form's server choice."""
    if pid is not None:
        return "pid"
    if name is not None:
        return "name"
    return "none" if none else "auto"


def run_request(asked: Asked, *, check: bool = True) -> RunRequest:
    """The request; UsageError with the first reason it cannot run. Unchecked
    (`check=False`) as the base of a sweep, whose points are checked once varied."""
    duration = asked.duration_s
    if asked.requests is None and duration is None:
        duration = DEFAULT_DURATION_S
    spec = RunSpec(
        urls=asked.urls,
        tool=asked.tool,
        connections=asked.connections,
        threads=asked.threads,
        requests=asked.requests,
        duration_s=duration,
        warm_up_s=asked.warm_up_s,
        streams=asked.streams,
        h1=asked.h1,
        keepalive=asked.keepalive,
        headers=asked.headers,
        compress=asked.compress,
    )
    return RunRequest(
        spec.validate() if check else spec,
        server_mode=asked.server_mode,
        server_pid=asked.server_pid,
        server_name=asked.server_name,
        server_host=asked.server_host or None,
        name=asked.name,
        tags=asked.tags,
    )
