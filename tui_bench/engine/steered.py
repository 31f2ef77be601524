"""A run's load as it changes while it goes: what keys asked for, what its stages plan, the
segments so far; and what each segment's tool runs. The controller starts the tools."""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import replace

from tui_bench.engine.events import SegmentStarted
from tui_bench.engine.segment_track import SegmentTrack
from tui_bench.engine.steering import PAUSE, Load, SegmentPlan, steered
from tui_bench.records.segment import KEY, PAUSE_CAUSE, STAGE
from tui_bench.spec import RunSpec

# A segment shorter than this is not started: the run ends instead.
MIN_SEGMENT_S = 0.5
# A stage's tool that has not ended this long after its step's end is stopped.
STEP_GRACE_S = 1.0


class Steering:
    def __init__(self, spec: RunSpec) -> None:
        self.spec = spec
        self._plan = SegmentPlan(spec)
        self.track = SegmentTrack(self._plan.first)
        # The load a key asked for, started as the tool going now stops; why it changed.
        self._asked: tuple[Load, str] | None = None
        self._resumed = asyncio.Event()
        # The load taken for the next segment, until it begins: what a key changes then.
        self._starting: Load | None = None
        # The tool going was stopped for the next segment (its exit status is not the run's).
        self.changing = False

    @property
    def steered(self) -> bool:
        """Whether the run is (or will be) more than one tool's segment."""
        return self.track.steered or bool(self.spec.stages)

    def ask(self, change: str, value: float | None, elapsed_s: float, done: int) -> str | None:
        """None when the change will be made, else why not (`elapsed_s` into the run, `done`
        of its requests)."""
        if self.spec.warm_up_s and elapsed_s < self.spec.warm_up_s:
            return "the warm-up is not over: steer after it"
        if self.ending(elapsed_s, done):
            return "too little of the run is left to change its load"
        base = self._asked[0] if self._asked else self._starting or self.track.load
        load = steered(self.spec, base, change, value)
        if isinstance(load, str):
            return load
        self._asked = (load, PAUSE_CAUSE if change == PAUSE and load.paused else KEY)
        self._resumed.set()
        return None

    def release(self) -> None:
        """The run stops: a pause waits no more."""
        self._resumed.set()

    def due(self, run_s: float) -> bool:
        """Whether the tool going is to stop for the next segment: a key asked for one, or
        its stage is over and it has not ended by itself."""
        step_end_s = self._plan.step_end_s()
        late = step_end_s is not None and run_s > step_end_s + STEP_GRACE_S
        if self._asked is not None or late:
            self.changing = True
        return self.changing

    def take(self) -> tuple[Load, str] | None:
        """The next segment's load and why; None when there is none."""
        asked, self._asked = self._asked, None
        if asked is None:
            step = self._plan.next_step()
            asked = None if step is None else (step, STAGE)
        self._starting = None if asked is None else asked[0]
        return asked

    async def resumed(self, timeout_s: float | None) -> tuple[Load, str] | None:
        """While the load is paused: the load a key asks for next, None when the run stops
        or its time is over first."""
        self._resumed.clear()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._resumed.wait(), timeout_s)
        asked, self._asked = self._asked, None
        self._starting = None if asked is None else asked[0]
        return asked

    def begin(self, ended_s: float, start_s: float, load: Load, cause: str) -> SegmentStarted:
        """The segment going ended at `ended_s`, the next begins (SegmentTrack.begin)."""
        self._starting = None
        return self.track.begin(ended_s, start_s, load, cause)

    def spec_at(self, load: Load, elapsed_s: float, done: int) -> RunSpec:
        """What the tool of a segment starting `elapsed_s` into the run runs: the run's
        spec under `load`, for what is left of the run (`done` of its requests so far) or
        of its stage."""
        spec = self.spec
        if elapsed_s == 0.0 and not spec.stages:
            return spec
        going = replace(load.spec(spec), stages=(), warm_up_s=None)
        if spec.requests is not None:
            return replace(going, requests=max(spec.requests - done, load.connections))
        assert spec.planned_s is not None
        end_s = self._plan.step_end_s() or spec.planned_s
        return replace(going, duration_s=round(max(end_s - elapsed_s, MIN_SEGMENT_S), 3))

    def ending(self, elapsed_s: float, done: int) -> bool:
        """Too little is left of the run for another segment: under MIN_SEGMENT_S, or
        fewer requests of a count than connections."""
        spec = self.spec
        if spec.requests is not None:
            return spec.requests - done < self.track.load.connections
        assert spec.planned_s is not None
        return spec.planned_s - elapsed_s < MIN_SEGMENT_S
