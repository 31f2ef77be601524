"""How a run's tool is started and stopped: here as a subprocess in a process group of its own
(`LocalLauncher`), or on another host through `engine/streamed.py`, which runs
`remote/streamed_tool.py` there and streams the tool back. `StartGate` starts the tools of
a run of several load generators together.

The controller only sees a `Launched` tool: a process whose stdout and stderr it reads, an
optional source of the request log, and how to interrupt or kill it.
"""

from __future__ import annotations

import asyncio
import os
import signal
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from tui_bench.child_lifetime import die_with_parent, signal_group
from tui_bench.priority import spawn_kept
from tui_bench.runners.invocation import Invocation
from tui_bench.sampling.samples import ResourceSample


class Process(Protocol):
    @property
    def pid(self) -> int: ...
    @property
    def returncode(self) -> int | None: ...
    @property
    def stdout(self) -> asyncio.StreamReader | None: ...
    @property
    def stderr(self) -> asyncio.StreamReader | None: ...
    @property
    def exited_at(self) -> float | None:
        """When it was seen to end (`time.monotonic()`), as soon as that is known; None
        while it runs."""

    async def wait(self) -> int: ...


class LogSource(Protocol):
    """What the tool appended to its request log since the last call (blocking: called
    from a worker thread)."""

    def read_new(self) -> bytes: ...

    def room_left(self) -> int | None:
        """Bytes free where the log is written; None where that is not known here."""

    def close(self) -> None: ...


class Launched(Protocol):
    @property
    def process(self) -> Process: ...
    @property
    def log(self) -> LogSource | None:
        """Where the request log comes from; None: the invocation's file, tailed here."""

    @property
    def origin(self) -> tuple[float, int] | None:
        """(monotonic s, wall-clock µs) of the start shared by every generator of a run;
        None: the run's own start."""

    @property
    def clock_offset_us(self) -> int:
        """The tool's wall clock minus ours (its request log's times are on its clock)."""

    @property
    def local(self) -> bool:
        """Whether the tool runs here (its CPU is sampled by pid)."""

    def interrupt(self) -> None: ...

    def kill(self) -> None: ...

    def with_client(self, sample: ResourceSample) -> ResourceSample:
        """`sample` with the tool's own CPU, when it is read elsewhere."""


class Launcher(Protocol):
    async def launch(self, invocation: Invocation) -> Launched: ...


Spawner = Callable[..., Awaitable[Process]]


async def spawn_subprocess(*argv: str, **kwargs: Any) -> Process:
    # In a process group of its own, Ctrl-C reaches tuibench only; in tuibench's session and
    # at the user's priority, above tuibench's own threads (see `priority`).
    return await spawn_kept(list(argv), preexec_fn=die_with_parent, process_group=0, **kwargs)


@dataclass(frozen=True)
class LocalTool:
    process: Process
    origin: tuple[float, int] | None = None
    log: LogSource | None = None
    clock_offset_us: int = 0
    local: bool = True
    # How long after the start shared with the other generators the tool started.
    start_skew_s: float | None = None

    def interrupt(self) -> None:
        if self.process.returncode is None:
            signal_group(self.process.pid, signal.SIGINT)

    def kill(self) -> None:
        if self.process.returncode is None:
            signal_group(self.process.pid, signal.SIGKILL)

    def with_client(self, sample: ResourceSample) -> ResourceSample:
        return sample


@dataclass
class LocalLauncher:
    """The tool as a subprocess here; with a `gate`, started when every generator is ready."""

    spawn: Spawner = spawn_subprocess
    gate: StartGate | None = None
    launched: LocalTool | None = field(default=None, init=False)

    async def launch(self, invocation: Invocation) -> Launched:
        if invocation.body_file is not None and invocation.body is not None:
            await asyncio.to_thread(write_private, invocation.body_file, invocation.body)
        origin = None
        if self.gate is not None:
            origin = await self.gate.ready()
        process = await self.spawn(
            *invocation.argv,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        skew = None if origin is None else time.monotonic() - origin[0]
        self.launched = LocalTool(process, origin, start_skew_s=skew)
        return self.launched


def write_private(path: Path, data: bytes) -> None:
    """`data` in a new file only this user can read (a body may hold credentials)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as handle:
        handle.write(data)


class StartGate:
    """Where the generators of one run wait for each other, so that they start together;
    the start they share is taken when the last arrives. `cancel` (one could not get ready)
    releases the others with an error."""

    def __init__(self, count: int) -> None:
        self._count = count
        self._arrived = 0
        self._open = asyncio.Event()
        self._origin: tuple[float, int] | None = None
        self._failure: BaseException | None = None

    async def ready(self) -> tuple[float, int]:
        self._arrived += 1
        if self._arrived >= self._count:
            self._origin = (time.monotonic(), time.time_ns() // 1000)
            self._open.set()
        await self._open.wait()
        if self._failure is not None:
            raise self._failure
        assert self._origin is not None
        return self._origin

    async def opened(self) -> tuple[float, int] | None:
        """The shared start once every generator is ready; None when one could not be."""
        await self._open.wait()
        return None if self._failure is not None else self._origin

    def cancel(self, failure: BaseException) -> None:
        if not self._open.is_set():
            self._failure = failure
            self._open.set()

    @property
    def origin(self) -> tuple[float, int] | None:
        return self._origin
