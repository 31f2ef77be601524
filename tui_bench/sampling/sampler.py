"""Periodic psutil readings of the server's process tree, the machine and the load generator.

CPU use is the change in a process's (or thread's) CPU time since the previous reading of the
same process, so the sampler keeps one record per process for its whole life; a process seen
for the first time only sets its baseline (like psutil's first `cpu_percent()`, it reads 0).
The injected clock stamps samples and paces the slow reads; CPU rates divide by real elapsed
time, which a fake clock cannot provide.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import psutil

from tui_bench.errors import UsageError
from tui_bench.sampling import proctree
from tui_bench.sampling.samples import ResourceSample

MIN_INTERVAL_S = 0.1
# A thread's CPU share at most, and the step CPU time is counted in (USER_HZ, 100 on Linux).
ONE_CORE_PCT = 100.0
TICK_S = 1 / os.sysconf("SC_CLK_TCK")
# USS/PSS walk every memory mapping, the descriptor count lists /proc/PID/fd (10k entries
# under 10k connections) and the thread count parses /proc/PID/status: too slow for every
# tick, and slow to change, so they are read this often and reused in between.
SLOW_EVERY_S = 2.0

# ZombieProcess is a NoSuchProcess; named for the reader. A process can vanish between any two
# psutil calls, so every per-process read is guarded by these.
_GONE = (psutil.NoSuchProcess, psutil.ZombieProcess, psutil.AccessDenied)


@dataclass
class _Tracked:
    """A process with its CPU time (user + system) and the real time of the last reading."""

    proc: psutil.Process
    cpu_s: float
    wall_s: float

    def advance(self, cpu_s: float, now: float) -> float:
        """Seconds elapsed since the last reading, moving the baseline to this one."""
        elapsed = now - self.wall_s
        self.cpu_s, self.wall_s = cpu_s, now
        return elapsed


@dataclass
class _Client:
    tracked: _Tracked
    thread_cpu_s: dict[int, float]  # per thread id, at the last reading


@dataclass
class _Reading:
    cpu_pct: float | None
    rss: int


@dataclass(frozen=True)
class _Slow:
    uss: int | None
    pss: int | None
    fds: int | None
    threads: int | None


class ResourceSampler:
    """Call `sample()` every `interval_s` (from any thread: calls are serialized by a lock)."""

    def __init__(
        self,
        server: psutil.Process | None,
        client_pid: int | None = None,
        interval_s: float = 0.5,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if interval_s < MIN_INTERVAL_S:
            raise UsageError(f"sampling interval must be at least {MIN_INTERVAL_S} s")
        self.interval_s = interval_s
        self._clock = clock
        self._lock = threading.Lock()
        self._root = server
        # Set once the server sampled here is seen gone: it never comes back in a run.
        self.server_exited = False
        self._tree: dict[int, _Tracked] = {}
        self._client: _Client | None = None
        self._slow_at: float | None = None
        self._slow = _Slow(None, None, None, None)
        self._cpu_times: list[Any] = psutil.cpu_times(percpu=True)
        self._started = clock()
        self._wall_s = time.monotonic()
        self._refresh_tree()
        self.set_client(client_pid)

    def set_client(self, pid: int | None) -> None:
        """Follow the load generator (None: stop following it); an exited pid is ignored."""
        with self._lock:
            self._client = None
            if pid is None:
                return
            try:
                proc = psutil.Process(pid)
                with proc.oneshot():
                    tracked = _track(proc)
                    self._client = _Client(tracked, _thread_cpu(proc))
            except _GONE:
                return

    def sample(self, cpu_window_min_s: float = 0.0) -> ResourceSample:
        """A reading; its CPU figures are unknown (None) when the last reading is under
        `cpu_window_min_s` old, since percentages over a few clock ticks are noise, and the
        CPU baselines then stay where they were, so that the next reading spans the whole
        stretch. Memory and process counts are read either way."""
        with self._lock:
            return self._sample(cpu_window_min_s)

    def _sample(self, cpu_window_min_s: float) -> ResourceSample:
        cpu_before = time.thread_time()
        self._refresh_tree()
        now = time.monotonic()
        elapsed = now - self._wall_s
        cpu = elapsed >= cpu_window_min_s
        readings = [r for r in (_read(t, now, cpu) for t in self._tree.values()) if r is not None]
        if self._root is not None and not readings:
            self._root = None
            self.server_exited = True
            self._tree.clear()
        self._refresh_slow()
        memory = psutil.virtual_memory()
        system_cpu: tuple[float, ...] = ()
        client_cpu = client_thread = sampler_cpu = None
        if cpu:
            system_cpu = self._system_cpu()
            client_cpu, client_thread = self._read_client(now, cpu_window_min_s)
            self._wall_s = now
            sampler_cpu = _pct(time.thread_time() - cpu_before, elapsed)
        server = self._root is not None
        return ResourceSample(
            t_s=self._clock() - self._started,
            server_cpu_pct=sum(r.cpu_pct or 0.0 for r in readings) if server and cpu else None,
            server_rss_bytes=sum(r.rss for r in readings) if server else None,
            server_uss_bytes=self._slow.uss if server else None,
            server_pss_bytes=self._slow.pss if server else None,
            server_procs=len(readings) if server else None,
            server_threads=self._slow.threads if server else None,
            server_fds=self._slow.fds if server else None,
            system_cpu_pct=system_cpu,
            system_mem_used_bytes=int(memory.used),
            system_mem_total_bytes=int(memory.total),
            client_cpu_pct=client_cpu,
            client_thread_max_pct=client_thread,
            sampler_cpu_pct=sampler_cpu,
        )

    def _refresh_tree(self) -> None:
        """Pick up new workers and forget dead ones; known processes keep their baseline."""
        if self._root is None:
            return
        root = self._root
        tree: dict[int, _Tracked] = {}
        members = [root.pid, *_child_pids(root)]
        # Workers outlive a killed master (nginx's serve on): the server is gone only once
        # every process of it is.
        members += [pid for pid, t in self._tree.items() if pid not in members and _alive(t)]
        for pid in members:
            # Linux hands out pids in sequence up to pid_max (4M), so a known pid is not a
            # recycled one within a tick or two.
            known = self._tree.get(pid)
            if known is None:
                try:
                    known = _track(root if pid == root.pid else psutil.Process(pid))
                except _GONE:
                    continue
            tree[pid] = known
        self._tree = tree

    def _refresh_slow(self) -> None:
        now = self._clock()
        if self._slow_at is not None and now - self._slow_at < SLOW_EVERY_S:
            return
        self._slow_at = now
        uss: list[int | None] = []
        pss: list[int | None] = []
        fds: list[int | None] = []
        threads: list[int | None] = []
        for tracked in self._tree.values():
            proc = tracked.proc
            try:
                info = proc.memory_full_info()
                uss.append(int(info.uss))
                pss.append(getattr(info, "pss", None))  # PSS exists on Linux only
            except _GONE:
                uss.append(None)
                pss.append(None)
            try:
                fds.append(int(proc.num_fds()))
            except _GONE:  # another user's descriptors are private even when CPU is not
                fds.append(None)
            try:
                threads.append(int(proc.num_threads()))
            except _GONE:
                threads.append(None)
        self._slow = _Slow(*map(_sum_known, (uss, pss, fds, threads)))

    def _system_cpu(self) -> tuple[float, ...]:
        current: list[Any] = psutil.cpu_times(percpu=True)
        before, self._cpu_times = self._cpu_times, current
        return tuple(_busy_pct(a, b) for a, b in zip(before, current, strict=False))

    def _read_client(self, now: float, window_min_s: float) -> tuple[float | None, float | None]:
        """The tool's CPU and its busiest thread's since the last reading of it, unknown
        while that is under `window_min_s` old: the tool is followed from its start, often
        just before a reading, and a few clock ticks over a few ms read as 262 % for one
        thread. A share no thread (or no set of them) can have is unknown too."""
        client = self._client
        if client is None or now - client.tracked.wall_s < window_min_s:
            return None, None
        try:
            with client.tracked.proc.oneshot():
                cpu_s = _cpu_s(client.tracked.proc)
                threads = _thread_cpu(client.tracked.proc)
        except _GONE:
            self._client = None
            return None, None
        before = client.tracked.cpu_s
        elapsed = client.tracked.advance(cpu_s, now)
        # A thread missing from the last reading started since then: all its CPU time is new.
        deltas = [t_cpu - client.thread_cpu_s.get(tid, 0.0) for tid, t_cpu in threads.items()]
        client.thread_cpu_s = threads
        count = max(1, len(threads))
        return (
            _possible(_pct(cpu_s - before, elapsed), count, elapsed),
            _possible(_pct(max(deltas, default=0.0), elapsed), 1, elapsed),
        )


def _track(proc: psutil.Process) -> _Tracked:
    return _Tracked(proc, _cpu_s(proc), time.monotonic())


def _read(tracked: _Tracked, now: float, cpu: bool) -> _Reading | None:
    """RSS, and with `cpu` the CPU share since the last reading (moving the baseline)."""
    proc = tracked.proc
    try:
        with proc.oneshot():
            if proc.status() == psutil.STATUS_ZOMBIE:
                return None
            cpu_s = _cpu_s(proc)
            rss = int(proc.memory_info().rss)
    except _GONE:
        return None
    if not cpu:
        return _Reading(None, rss)
    before = tracked.cpu_s
    return _Reading(_pct(cpu_s - before, tracked.advance(cpu_s, now)), rss)


def _alive(tracked: _Tracked) -> bool:
    try:
        return bool(tracked.proc.is_running() and tracked.proc.status() != psutil.STATUS_ZOMBIE)
    except _GONE:
        return False


def _child_pids(root: psutil.Process) -> list[int]:
    if proctree.SUPPORTED:
        return proctree.descendant_pids(root.pid)
    try:
        return [child.pid for child in root.children(recursive=True)]
    except _GONE:
        return []


def _cpu_s(proc: psutil.Process) -> float:
    times = proc.cpu_times()
    return float(times.user + times.system)


def _thread_cpu(proc: psutil.Process) -> dict[int, float]:
    return {t.id: t.user_time + t.system_time for t in proc.threads()}


def _pct(cpu_s: float, elapsed_s: float) -> float:
    """CPU seconds over real seconds, 100 per core; 0 before any time has passed."""
    return max(0.0, 100.0 * cpu_s / elapsed_s) if elapsed_s > 0 else 0.0


def _possible(pct: float, threads: int, elapsed_s: float) -> float | None:
    """`pct` of `threads` threads, each at most one core: above that by what CPU time's
    clock ticks can add over `elapsed_s`, the most they can use; further above, unknown."""
    most = ONE_CORE_PCT * threads
    if pct <= most:
        return pct
    if elapsed_s > 0 and pct <= most + threads * ONE_CORE_PCT * TICK_S / elapsed_s:
        return most
    return None


def _sum_known(values: list[int | None]) -> int | None:
    """A sum only when every part is known: a partial total would read as a real drop."""
    if not values or any(v is None for v in values):
        return None
    return sum(v for v in values if v is not None)


def _busy_pct(before: Any, after: Any) -> float:
    """Busy share of one CPU between two `cpu_times` readings, as psutil and htop count it."""

    def split(times: Any) -> tuple[float, float]:
        # Guest time is already inside user/nice; iowait is idle time on Linux.
        total = sum(times) - getattr(times, "guest", 0.0) - getattr(times, "guest_nice", 0.0)
        return total, times.idle + getattr(times, "iowait", 0.0)

    total_before, idle_before = split(before)
    total_after, idle_after = split(after)
    total = total_after - total_before
    if total <= 0:
        return 0.0
    busy = total - (idle_after - idle_before)
    return max(0.0, min(100.0, 100.0 * busy / total))
