"""Runs ended early on the server's account, said at once and kept as the run's reason.

The server is lost when its process exits (sampled here or on its host) or when, after the
run started, every connection to the target is refused: the tool would go on counting
failures (wrk's live count keeps climbing, h2load's clients die as if nginx had closed them
after `keepalive_requests`). A server that accepts and never answers leaves a request count
waiting for ever: nothing answered for the stall timeout ends it. Either way the tool is
stopped (it prints what it has) and what came before is kept.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from tui_bench.analysis.warnings import Warning
from tui_bench.engine.reach import unreachable
from tui_bench.runners.invocation import STALL_TIMEOUT_S
from tui_bench.spec import RunSpec

SERVER_LOST = "server-lost"
STALL_TIMEOUT = "stall-timeout"
# A refused connection can be a restart's blink; two in a row, this far apart, are not.
REFUSED_IN_A_ROW = 2
PROBE_EVERY_S = 0.5
# ab checks its time limit only when an answer comes: this long past its end it is stopped.
END_GRACE_S = 1.0
# ab's own -s timeout ends it with this line and no summary.
AB_TIMED_OUT = "The timeout specified has expired"


def server_lost(at_s: float, seen: str) -> Warning:
    return Warning(
        SERVER_LOST,
        f"the server was lost {at_s:.1f} s into the run ({seen}): the run was stopped "
        "there; what came before is kept",
    )


def stall_timeout(at_s: float, silent_s: float, done: int | None, asked: int | None) -> Warning:
    count = "–" if done is None else f"{done:,}"
    of = f" of {asked:,}" if asked is not None else ""
    return Warning(
        STALL_TIMEOUT,
        f"nothing answered for {silent_s:.1f} s (the stall timeout is {STALL_TIMEOUT_S:g} s): "
        f"stopped {at_s:.1f} s into the run with {count}{of} requests done",
    )


class CutShort:
    """The first reason to end the run early; `on_cut` is told it once, at once."""

    def __init__(self, on_cut: Callable[[Warning], None]) -> None:
        self.warning: Warning | None = None
        self._on_cut = on_cut

    def cut(self, warning: Warning) -> None:
        if self.warning is None:
            self.warning = warning
            self._on_cut(warning)


class AnswerClock:
    """How long the count of requests done has stood still (from the run's start)."""

    def __init__(self) -> None:
        self._done: int | None = None
        self._moved_s = 0.0

    def silent_for(self, done: int | None, now_s: float) -> float:
        if done != self._done:
            self._done, self._moved_s = done, now_s
        return now_s - self._moved_s


async def refused(url: str, clock: Callable[[], float] = time.monotonic) -> tuple[float, str]:
    """Waits until REFUSED_IN_A_ROW connections to `url` in a row fail: when the first of
    them was made (on `clock`) and what the last one said."""
    streak = 0
    first_s = 0.0
    while True:
        await asyncio.sleep(PROBE_EVERY_S)
        at_s = clock()
        message = await unreachable(url)
        if message is None:
            streak = 0
            continue
        streak += 1
        if streak == 1:
            first_s = at_s
        if streak >= REFUSED_IN_A_ROW:
            return first_s, message


def ab_gave_up(spec: RunSpec, stderr: str, at_s: float, done: int | None) -> Warning | None:
    """ab's own stall timeout (-s in count mode), said as the engine says its own."""
    if spec.tool != "ab" or not spec.count_mode or AB_TIMED_OUT not in stderr:
        return None
    return stall_timeout(at_s, STALL_TIMEOUT_S, done, spec.requests)
