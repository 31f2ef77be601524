"""Running a demo server process: free ports, waiting until it listens, stopping it."""

from __future__ import annotations

import asyncio
import contextlib
import signal
import socket
import subprocess
from pathlib import Path

import psutil

from tui_bench.child_lifetime import signal_group
from tui_bench.errors import TuibenchError
from tui_bench.priority import KeptProcess, spawn_kept

READY_TIMEOUT_S = 5.0
_POLL_S = 0.05
_PORT_TAKEN = "address already in use"


class PortTakenError(TuibenchError):
    """A port picked as free was taken before the server bound it; picking again helps."""


def free_ports(count: int) -> list[int]:
    """Ports free on 127.0.0.1 right now; all held open together so none repeats."""
    socks: list[socket.socket] = []
    try:
        for _ in range(count):
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            socks.append(sock)
            sock.bind(("127.0.0.1", 0))
        return [int(sock.getsockname()[1]) for sock in socks]
    finally:
        for sock in socks:
            sock.close()


async def spawn(argv: list[str], log: Path) -> KeptProcess:
    """Start `argv` in its own session, so a Ctrl-C in our terminal does not reach it and it
    is scheduled as a server of its own would be (not in tuibench's group, see `priority`),
    at the user's priority.

    The log starts empty: a failed earlier attempt must not be read as this one's failure.
    """
    with log.open("wb") as out:
        return await spawn_kept(
            argv, stdin=subprocess.DEVNULL, stdout=out, stderr=out, start_new_session=True
        )


async def wait_ready(proc: KeptProcess, ports: list[int], log: Path) -> None:
    """Return once the process itself listens on every port; raise with the log's tail.

    Ownership is checked rather than a test connection, which whoever took a port would
    also accept.
    """
    loop = asyncio.get_running_loop()
    deadline = loop.time() + READY_TIMEOUT_S
    while True:
        text = log.read_text(errors="replace")
        if _PORT_TAKEN in text.lower():
            raise PortTakenError(f"demo server could not bind its port: {log_tail(text)}")
        if proc.returncode is not None:
            raise TuibenchError(f"demo server exited ({proc.returncode}): {log_tail(text)}")
        if set(ports) <= _listening(proc.pid):
            return
        if loop.time() > deadline:
            raise TuibenchError(
                f"demo server not listening after {READY_TIMEOUT_S:.0f} s: {log_tail(text)}"
            )
        await asyncio.sleep(_POLL_S)


async def stop_process(proc: KeptProcess, grace_s: float = 3.0) -> None:
    """SIGQUIT (nginx's graceful stop), then SIGTERM, then SIGKILL to the whole group."""
    for sig, wait_s in ((signal.SIGQUIT, grace_s), (signal.SIGTERM, 2.0)):
        if proc.returncode is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            proc.send_signal(sig)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(proc.wait(), wait_s)
    if proc.returncode is None:
        # The leader is not reaped yet, so its group id still names our processes only.
        signal_group(proc.pid, signal.SIGKILL)
        await proc.wait()


def log_tail(text: str, lines: int = 3) -> str:
    """The last few log lines joined into one, for a one-line error."""
    kept = [line.strip() for line in text.splitlines() if line.strip()][-lines:]
    return " | ".join(kept) or "(no output)"


def _listening(pid: int) -> set[int]:
    """TCP ports the process listens on (nginx: the master holds every listening socket)."""
    try:
        conns = psutil.Process(pid).net_connections(kind="tcp")
    except (psutil.NoSuchProcess, psutil.AccessDenied):
        return set()
    return {int(c.laddr.port) for c in conns if c.status == psutil.CONN_LISTEN}
