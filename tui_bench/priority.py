"""tuibench's own threads give way to the load; the processes it starts keep the user's
priority.

Where the load generator, the server and tuibench share a machine, every cycle tuibench
takes (its screen, its parsing, its samples) is one the load could have had, and a wake-up
of tuibench's that takes a core from the generator for a moment holds up the requests it had
in flight. Lowered by `YIELD_NICE`, tuibench runs when they wait and is not starved (its
work is a few percent of a core, a nice-10 thread gets about a tenth of a busy core).

Linux keeps a nice value per thread, and a child inherits that of the thread that forks it;
an unprivileged process cannot raise its priority back. So the load generators and the demo
servers are started from one thread (the keeper) made before the others were lowered, and
keep the priority tuibench was started with. A load generator stays in tuibench's session
(in a process group of its own, out of reach of the terminal's Ctrl-C): where the kernel
groups scheduling by session (autogroup, the default of many distributions), nice orders
threads only within a group, and a generator in a session of its own would neither see
tuibench's lower priority nor stop tuibench's group from taking a share of its own.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from functools import partial
from pathlib import Path
from queue import SimpleQueue
from typing import IO, Any, TypeVar

from tui_bench.child_lifetime import signal_group

T = TypeVar("T")

# A nice-10 thread gets about a tenth of a core that nice-0 work keeps busy: a screen that
# needs a few percent of a core still paints once a second on a saturated machine.
YIELD_NICE = 10
_TASKS = Path("/proc/self/task")


class _Keeper:
    """A thread at the priority tuibench started with, that runs what it is given in turn
    (starting processes takes milliseconds)."""

    def __init__(self) -> None:
        self._queue: SimpleQueue[Callable[[], None]] = SimpleQueue()
        ready = threading.Event()
        self.native_id = 0

        def serve() -> None:
            self.native_id = threading.get_native_id()
            ready.set()
            while True:
                self._queue.get()()

        # A daemon that never returns: a child's parent-death signal (`die_with_parent`)
        # follows the thread that forked it, so that thread must live as long as tuibench.
        threading.Thread(target=serve, name="tuibench-keeper", daemon=True).start()
        ready.wait()

    def submit(self, call: Callable[[], T]) -> Future[T]:
        done: Future[T] = Future()

        def run() -> None:
            # Cancelled while it waited: it never runs. Once running it cannot be cancelled,
            # and what it made is the caller's to undo (`spawn_kept`).
            if not done.set_running_or_notify_cancel():
                return
            try:
                done.set_result(call())
            except BaseException as exc:  # handed to the caller, not lost in this thread
                done.set_exception(exc)

        self._queue.put(run)
        return done


_keeper: _Keeper | None = None
_keeper_lock = threading.Lock()
_yielded = False


def keeper() -> _Keeper:
    global _keeper
    with _keeper_lock:
        if _keeper is None:
            _keeper = _Keeper()
        return _keeper


def yield_to_load() -> None:
    """Every thread of tuibench but the keeper, and every thread they make from now on,
    `YIELD_NICE` lower (at most 19). Once; where the system refuses, things stay as they
    were."""
    global _yielded
    if _yielded:
        return
    _yielded = True
    kept = keeper().native_id
    with contextlib.suppress(OSError):
        for entry in _TASKS.iterdir():
            tid = int(entry.name)
            if tid != kept:
                with contextlib.suppress(OSError):
                    now = os.getpriority(os.PRIO_PROCESS, tid)
                    os.setpriority(os.PRIO_PROCESS, tid, min(19, now + YIELD_NICE))


class KeptProcess:
    """A child started by the keeper, seen from the event loop as asyncio's own
    `asyncio.subprocess.Process` is (pid, returncode, stdout and stderr streams, wait)."""

    def __init__(
        self,
        popen: subprocess.Popen[bytes],
        stdout: asyncio.StreamReader | None,
        stderr: asyncio.StreamReader | None,
    ) -> None:
        self._popen = popen
        self.stdout = stdout
        self.stderr = stderr
        loop = asyncio.get_running_loop()
        self._exited: asyncio.Future[int] = loop.create_future()
        self.exited_at: float | None = None
        # Reaped by a thread of its own that waits for it, as asyncio's own child watcher
        # does on this Python: no kernel feature (pidfd) is needed.
        threading.Thread(
            target=self._reap, args=(loop,), name=f"tuibench-wait-{popen.pid}", daemon=True
        ).start()

    def _reap(self, loop: asyncio.AbstractEventLoop) -> None:
        code = self._popen.wait()
        # Taken here, not when the loop gets to it: a loop busy painting learns of the
        # end later, and a run measured to then would end in a window of no requests.
        self.exited_at = time.monotonic()
        with contextlib.suppress(RuntimeError):  # the loop closed before the child ended
            loop.call_soon_threadsafe(self._exited_with, code)

    def _exited_with(self, code: int) -> None:
        if not self._exited.done():
            self._exited.set_result(code)

    @property
    def pid(self) -> int:
        return self._popen.pid

    @property
    def returncode(self) -> int | None:
        # Set by Popen as it reaps the child: a signal sent while it is None still reaches
        # the child, never a process that took its pid.
        return self._popen.returncode

    def send_signal(self, sig: int) -> None:
        self._popen.send_signal(sig)

    async def wait(self) -> int:
        return await asyncio.shield(self._exited)


async def spawn_kept(argv: list[str], **popen_args: Any) -> KeptProcess:
    """`argv` started by the keeper (so at the user's priority) with `subprocess.Popen`'s
    arguments, which must put it in a process group of its own (`process_group=0` or
    `start_new_session=True`); a PIPE for stdout or stderr is read as an asyncio stream.
    Cancelled or failed once the child exists, its group is killed and it is reaped:
    nothing is left running."""
    if popen_args.get("process_group") != 0 and not popen_args.get("start_new_session"):
        # What is stopped on failure is the child's group: it must be the child's own.
        raise ValueError("spawn_kept needs process_group=0 or start_new_session=True")
    loop = asyncio.get_running_loop()
    started = keeper().submit(lambda: subprocess.Popen(argv, **popen_args))
    try:
        popen = await asyncio.wrap_future(started, loop=loop)
    except BaseException:
        # In the keeper: `started` may be done already, and its callback would then run
        # here, on the event loop, waiting for the child.
        started.add_done_callback(lambda done: keeper().submit(partial(_undo, done)))
        raise
    try:
        streams = [
            await _stream(loop, pipe) if pipe is not None else None
            for pipe in (popen.stdout, popen.stderr)
        ]
        return KeptProcess(popen, *streams)
    except BaseException:
        keeper().submit(partial(_stop, popen))
        raise


def _undo(started: Future[subprocess.Popen[bytes]]) -> None:
    """A child its caller stopped waiting for."""
    if not started.cancelled() and started.exception() is None:
        _stop(started.result())


def _stop(popen: subprocess.Popen[bytes]) -> None:
    signal_group(popen.pid, signal.SIGKILL)
    popen.wait()


async def _stream(loop: asyncio.AbstractEventLoop, pipe: IO[bytes]) -> asyncio.StreamReader:
    reader = asyncio.StreamReader(loop=loop)
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader, loop=loop), pipe)
    return reader
