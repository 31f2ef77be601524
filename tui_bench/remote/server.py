"""The server's resources sampled on its own host, over one SSH connection per run.

The probe (remote/probe.py) finds the server there as tuibench does here (a pid, a process
name, or what listens on the URL's port; nginx workers lead to their master) and prints a
reading per interval. Its times are the remote host's wall clock: the offset to ours is
measured at the start (the best of a few round trips) and kept with the run.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import orjson

from tui_bench.child_lifetime import die_with_parent
from tui_bench.errors import UsageError
from tui_bench.remote.probe import PROGRAM
from tui_bench.remote.ssh import SshHost, failure

START_TIMEOUT_S = 20.0
PINGS = 3
STOP_TIMEOUT_S = 3.0
# Probe lines are short; a longer one is not the probe talking.
LINE_LIMIT = 1 << 16

Spawner = Callable[..., Awaitable[asyncio.subprocess.Process]]


@dataclass(frozen=True)
class Selector:
    """How the probe finds the server: by "pid", "name" or listening "port"."""

    mode: str
    value: str


@dataclass(frozen=True)
class ServerOnHost:
    """The server to sample on another host: where, and how to find it there."""

    host: SshHost
    selector: Selector


async def spawn_ssh(*argv: str, **kwargs: Any) -> asyncio.subprocess.Process:
    # Its own session: Ctrl-C reaches tuibench, which closes the connection itself.
    return await asyncio.create_subprocess_exec(
        *argv, preexec_fn=die_with_parent, start_new_session=True, **kwargs
    )


@dataclass(frozen=True)
class RemoteReading:
    """One reading of the server's host, on the remote wall clock (`wall_s`)."""

    wall_s: float
    cpu_pct: float
    rss_bytes: int
    procs: int
    cores: tuple[float, ...]
    mem_used_bytes: int
    mem_total_bytes: int
    probe_cpu_pct: float

    @classmethod
    def of(cls, data: Mapping[str, Any]) -> RemoteReading:
        return cls(
            float(data["t"]),
            float(data["cpu"]),
            int(data["rss"]),
            int(data["procs"]),
            tuple(float(c) for c in data["cores"]),
            int(data["mem_used"]),
            int(data["mem_total"]),
            float(data["self"]),
        )


@dataclass
class RemoteServer:
    host: SshHost
    selector: Selector
    interval_s: float
    spawn: Spawner = spawn_ssh
    # Set by start(): what was found, and the remote clock minus ours.
    found: dict[str, Any] = field(default_factory=dict)
    clock_offset_s: float = 0.0
    rtt_s: float | None = None
    latest: RemoteReading | None = None
    # Why the readings stopped coming (the connection dropped, the server exited).
    lost: str | None = None
    # Set with `lost` when it is the server that exited, not the connection that dropped.
    exited: bool = False
    _proc: asyncio.subprocess.Process | None = None
    _pongs: asyncio.Queue[float] = field(default_factory=asyncio.Queue)
    _reader: asyncio.Task[None] | None = None

    async def start(self) -> dict[str, Any]:
        """Connect, find the server and measure the clock offset; UsageError (one line,
        naming the host) when any of it fails."""
        command = ["python3", "-c", PROGRAM, str(self.interval_s), self.selector.mode]
        argv = self.host.argv([*command, self.selector.value])
        self._proc = await self.spawn(
            *argv,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            limit=LINE_LIMIT,
        )
        try:
            first = await asyncio.wait_for(self._first_line(), START_TIMEOUT_S)
        except TimeoutError:
            await self.stop()
            raise UsageError(f"{self.host}: no answer from the server probe") from None
        if "error" in first:
            await self.stop()
            raise UsageError(f"{self.host}: {first['error']}")
        self.found = {**first["found"], "host": str(self.host)}
        self._reader = asyncio.create_task(self._read())
        await self._measure_clock()
        return self.found

    async def _first_line(self) -> dict[str, Any]:
        assert self._proc is not None and self._proc.stdout is not None
        line = await self._proc.stdout.readline()
        if not line:
            assert self._proc.stderr is not None
            stderr = (await self._proc.stderr.read()).decode(errors="replace")
            code = await self._proc.wait()
            if "python3" in stderr and ("not found" in stderr or code == 127):
                raise UsageError(f"{self.host}: python3 is not installed there (Debian: python3)")
            raise UsageError(await asyncio.to_thread(failure, self.host, stderr, code))
        data = _json(line)
        if data is None or not ("found" in data or "error" in data):
            raise UsageError(f"{self.host}: the server probe said {line[:80]!r}")
        return data

    async def _measure_clock(self) -> None:
        assert self._proc is not None and self._proc.stdin is not None
        best: tuple[float, float] | None = None
        for _ in range(PINGS):
            sent = time.time()
            self._proc.stdin.write(b"p\n")
            await self._proc.stdin.drain()
            try:
                remote = await asyncio.wait_for(self._pongs.get(), START_TIMEOUT_S)
            except TimeoutError:
                break
            came = time.time()
            rtt = came - sent
            if best is None or rtt < best[0]:
                best = (rtt, remote - (sent + came) / 2)
        if best is not None:
            self.rtt_s, self.clock_offset_s = best

    async def _read(self) -> None:
        assert self._proc is not None and self._proc.stdout is not None
        while True:
            try:
                line = await self._proc.stdout.readline()
            except (ValueError, asyncio.LimitOverrunError):
                continue
            if not line:
                break
            data = _json(line)
            if data is None:
                continue
            if "pong" in data:
                self._pongs.put_nowait(float(data["pong"]))
            elif "error" in data:
                self.lost = f"{self.host}: {data['error']}"
                self.exited = "exited" in data
            else:
                with contextlib.suppress(KeyError, TypeError, ValueError):
                    self.latest = RemoteReading.of(data)
        if self.lost is None:
            self.lost = f"{self.host}: the connection to the server's host was lost"

    def local_time(self, reading: RemoteReading) -> float:
        """When `reading` was taken, on this machine's wall clock."""
        return reading.wall_s - self.clock_offset_s

    async def stop(self) -> None:
        """Close the connection: the probe ends as its input closes; ssh is killed if it
        does not follow."""
        proc = self._proc
        if proc is None:
            return
        if proc.stdin is not None:
            proc.stdin.close()
        try:
            await asyncio.wait_for(proc.wait(), STOP_TIMEOUT_S)
        except TimeoutError:
            with contextlib.suppress(ProcessLookupError):
                proc.kill()
            await proc.wait()
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._reader


async def check(on_host: ServerOnHost, interval_s: float) -> dict[str, Any]:
    """What is found on the server's host, before any load starts; UsageError (one line)
    when the host cannot be reached or the server is not found there."""
    remote = RemoteServer(on_host.host, on_host.selector, interval_s)
    try:
        return await remote.start()
    finally:
        await remote.stop()


def _json(line: bytes) -> dict[str, Any] | None:
    try:
        data = orjson.loads(line)
    except orjson.JSONDecodeError:
        return None
    return data if isinstance(data, dict) else None
