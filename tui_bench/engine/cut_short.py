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
from collections.abc import Callable

from tui_bench.analysis.stalls import CountMoves
from tui_bench.engine.reach import unreachable
from tui_bench.engine.tool_start import Process
from tui_bench.records.verdict import SERVER_LOST, STALL_TIMEOUT
from tui_bench.records.warning import Warning
from tui_bench.spec import RunSpec

# A refused connection can be a restart's blink; two in a row, this far apart, are not.
REFUSED_IN_A_ROW = 2
PROBE_EVERY_S = 0.5
# ab checks its time limit only when an answer comes: this long past its end it is stopped.
END_GRACE_S = 1.0
# h2load ends a -D run's clients and exits at once; one left this long after every thread
# said its time is over has hung (1.52, on a server closing each connection) and is stopped:
# the run ended on time. Long enough for answers still coming from a slow server.
OVER_GRACE_S = 3.0
# A duration run that has not stopped this long (or a fifth of it) after its time is hung.
OVERRUN_GRACE_S = 10.0
# ab's own -s timeout ends it with this line and no summary.
AB_TIMED_OUT = "The timeout specified has expired"

Clock = Callable[[], float]


def server_lost(at_s: float, seen: str) -> Warning:
    return Warning(
        SERVER_LOST,
        f"the server was lost {at_s:.1f} s into the run ({seen}): the run was stopped "
        "there; what came before is kept",
    )


def stall_timeout(
    at_s: float, silent_s: float, timeout_s: float, done: int | None, asked: int | None
) -> Warning:
    count = "–" if done is None else f"{done:,}"
    of = f" of {asked:,}" if asked is not None else ""
    return Warning(
        STALL_TIMEOUT,
        f"nothing answered for {silent_s:.1f} s (the stall timeout is {timeout_s:g} s): "
        f"stopped {at_s:.1f} s into the run with {count}{of} requests done",
    )


class CutShort:
    """What ends one run early: the server's account, or a tool past its time. `on_cut` is
    told the first reason at once; `clock` gives seconds into the run."""

    def __init__(
        self,
        spec: RunSpec,
        stall_timeout_s: float,
        clock: Clock,
        on_cut: Callable[[Warning], None],
    ) -> None:
        self.spec = spec
        self.stall_timeout_s = stall_timeout_s
        self.warning: Warning | None = None
        # Why the target could not be reached at the start (then it is never "lost").
        self.unreachable: str | None = None
        # Whether the target is checked from here (the tool runs on this machine).
        self._watched = False
        # ab stopped at the end of its time, as it would have stopped itself, or h2load
        # hung after saying its time was over.
        self.ended_on_time = False
        # When the tool said its time was over, in seconds into the run.
        self.over_s: float | None = None
        # The tool did not stop after its time and was stopped.
        self.overran = False
        self._reached = False
        self._watching = True
        self._clock = clock
        self._on_cut = on_cut
        # Silence counted from the start: a count nothing ever answers is cut short too.
        self._count = CountMoves(start_s=0.0)

    def cut(self, warning: Warning) -> None:
        if self.warning is None:
            self.warning = warning
            self._on_cut(warning)

    def lost(self, seen: str | None) -> None:
        """The server's exit, as the sampler saw it (None: it is there)."""
        if seen is not None:
            self.cut(server_lost(self._clock(), seen))

    def next_tool(self) -> None:
        """A steered run's next tool: its time and its silence are its own."""
        self.over_s = None
        self.ended_on_time = False
        self._count = CountMoves(start_s=self._clock())

    def said_over(self, at_s: float) -> None:
        """The tool said its time is over, `at_s` into the run (every thread of it)."""
        if self.over_s is None:
            self.over_s = at_s

    def due(self, done: int | None, counted: bool) -> bool:
        """Whether the tool is to be stopped now: the run was cut, a count (`done` of it,
        `counted` as each request ends) that nothing answered for the stall timeout, ab
        past its time, a tool that said its time was over and did not end, or any tool
        well past its time."""
        spec = self.spec
        now_s = self._clock()
        self._count.see(done, now_s)
        silent_s = self._count.silent_s(now_s)
        # Counted from the start (start_s=0.0): known from the first call on.
        assert silent_s is not None
        if spec.count_mode and counted and silent_s >= self.stall_timeout_s:
            self.cut(stall_timeout(now_s, silent_s, self.stall_timeout_s, done, spec.requests))
        planned = spec.planned_s
        if planned is not None and now_s > planned + max(OVERRUN_GRACE_S, planned * 0.2):
            self.overran = True
        else:
            ab_past = spec.tool == "ab" and planned is not None and now_s > planned + END_GRACE_S
            hung = self.over_s is not None and now_s > self.over_s + OVER_GRACE_S
            self.ended_on_time = self.ended_on_time or ab_past or hung
        return self.warning is not None or self.overran or self.ended_on_time

    def stop_watching(self) -> None:
        """The tool ended: watch_target ends too, even when its cancellation is lost (until
        Python 3.12, `wait_for` can swallow one that comes as its connection is made)."""
        self._watching = False

    async def watch_target(self, tool: Process, stop: Callable[[], None]) -> None:
        """Whether the target can be reached at all (else the `tool` still running is
        stopped); once it could, whether it is lost."""
        url = self.spec.urls[0]
        self._watched = True
        message = await unreachable(url)
        if message is not None:
            # Kept even when the tool has ended first: h2load gives up on a closed port
            # within milliseconds, and this is the one line that says why.
            self.unreachable = message
            if tool.returncode is None:
                stop()
            return
        self._reached = True
        streak = 0
        first_s = 0.0
        while streak < REFUSED_IN_A_ROW:
            await asyncio.sleep(PROBE_EVERY_S)
            if not self._watching:
                return
            at_s = self._clock()
            message = await unreachable(url)
            streak = streak + 1 if message is not None else 0
            if streak == 1:
                first_s = at_s
        assert message is not None
        self.cut(server_lost(first_s, message))

    async def after_exit(self, exit_code: int, stopped: bool) -> None:
        """A tool that gives up on a reset connection (ab) ends before the watch sees why,
        and a killed server's listening socket can outlive it by a moment: asked twice."""
        if stopped or self.warning is not None or self.unreachable is not None:
            return
        if not self._reached:
            if self._watched:
                # The tool ended before the first check answered (h2load gives up on a
                # closed port within milliseconds, and exits 0): asked once more, to the end.
                self.unreachable = await unreachable(self.spec.urls[0])
            return
        if exit_code == 0:
            return
        for attempt in range(REFUSED_IN_A_ROW):
            if attempt:
                await asyncio.sleep(PROBE_EVERY_S)
            message = await unreachable(self.spec.urls[0])
            if message is not None:
                self.cut(server_lost(self._clock(), message))
                return

    def reason(self, stderr: str, done: int | None) -> Warning | None:
        """Why the run was cut short, ab's own stall timeout (-s, in count mode) included."""
        spec = self.spec
        ab_gave_up = spec.tool == "ab" and spec.count_mode and AB_TIMED_OUT in stderr
        if self.warning is None and ab_gave_up:
            timeout_s = self.stall_timeout_s
            return stall_timeout(self._clock(), timeout_s, timeout_s, done, spec.requests)
        return self.warning
