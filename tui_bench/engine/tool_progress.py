"""How far a tool says it is, from its live lines: requests done (wrk's threads summed),
the fraction of a count run, its phase; and the progress of the run from those."""

from __future__ import annotations

from tui_bench.parsers.live import LiveLine
from tui_bench.runners.durations import stretch_at
from tui_bench.spec import RunSpec


class ToolProgress:
    def __init__(self, spec: RunSpec) -> None:
        self.spec = spec
        self.done: int | None = None
        self.fraction: float | None = None
        self.phase: str | None = None
        self._threads: dict[int, int] = {}
        # The threads that said their time is over (h2load -D: one line each).
        self._over: set[int] = set()

    def seen(self, live: LiveLine) -> bool:
        """Take what a line says; whether it moved the count of requests done."""
        if live.thread is not None and live.done is not None:
            self._threads[live.thread] = live.done
            self.done = sum(self._threads.values())
        elif live.done is not None:
            self.done = live.done
        if live.fraction is not None:
            self.fraction = live.fraction
        if live.phase is not None:
            self.phase = live.phase
            if live.phase == "done" and live.thread is not None:
                self._over.add(live.thread)
        return live.done is not None

    def next_tool(self) -> None:
        """A steered run's next tool: its threads count and end anew."""
        self._threads.clear()
        self._over.clear()

    @property
    def time_over(self) -> bool:
        """Whether every thread of the tool said its time is over (h2load runs no more
        threads than connections)."""
        return len(self._over) >= min(self.spec.threads, self.spec.connections)

    def at(self, elapsed_s: float) -> tuple[float | None, str | None]:
        """The run's progress, 0 to 1, and its phase, `elapsed_s` into it. The progress is
        of its count, else of its warm-up while it lasts, then of its measured window; the
        phase is `warm-up` while the warm-up lasts, else what the tool last said it does."""
        spec = self.spec
        # Once per step of a live run: the stretch is found once for both.
        stretch = stretch_at(spec, elapsed_s)
        phase = "warm-up" if stretch is not None and stretch.warming else self.phase
        if spec.count_mode:
            if self.done is not None and spec.requests:
                return min(1.0, self.done / spec.requests), phase
            return self.fraction, phase
        return (stretch.fraction if stretch else None), phase
