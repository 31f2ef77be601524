"""The tool's process as the controller follows it: its output read line by line, and its
exit waited for (stopped, it is given a grace to end by itself before it is killed)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from tui_bench.engine.tool_start import Launched

STOP_GRACE_S = 3.0
READ_CHUNK = 65536
# How often whether to stop is asked while the tool runs.
POLL_S = 0.1


async def read_lines(stream: asyncio.StreamReader | None, line: Callable[[str], None]) -> None:
    """Each line of `stream` to `line`, newline kept (the last one without, if it has none)."""
    if stream is None:
        return
    pending = b""
    while chunk := await stream.read(READ_CHUNK):
        *lines, pending = (pending + chunk).split(b"\n")
        for raw in lines:
            line(raw.decode("utf-8", "replace") + "\n")
    if pending:
        line(pending.decode("utf-8", "replace"))


async def wait_for_exit(launched: Launched, should_stop: Callable[[Launched], bool]) -> int:
    """The tool's exit status: once it ends by itself, or once `should_stop` said so and it
    ended within STOP_GRACE_S (else killed)."""
    proc = launched.process
    waiter = asyncio.ensure_future(proc.wait())
    while True:
        done, _ = await asyncio.wait({waiter}, timeout=POLL_S)
        if done:
            return waiter.result()
        if should_stop(launched):
            break
    try:
        return await asyncio.wait_for(asyncio.shield(waiter), STOP_GRACE_S)
    except TimeoutError:
        launched.kill()
        return await waiter
