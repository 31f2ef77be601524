"""What a key asks of a run that is going, and whether it can be done: the load of the run's
next segment, or a one-line reason it cannot be. Pure.

h2load cannot change its rate or its connections while it runs: each change is a new h2load
with the new load (engine/steered.py, engine/controller.py). wrk and ab cannot be restarted
that way without losing what a run of them measures in its one summary."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from tui_bench.spec import MAX_CONNECTIONS, RunSpec
from tui_bench.stages import Step, steps_of

# A key moves the rate or the connections by this share of what they are.
STEP = 0.25
FASTER, SLOWER, SET_RATE, MORE, FEWER, PAUSE = "faster", "slower", "set", "more", "fewer", "pause"
RATE_KEYS = frozenset({FASTER, SLOWER, SET_RATE})


@dataclass(frozen=True)
class Load:
    """What a segment runs: a fixed rate (req/s in total; None: a closed loop) over
    `connections`, or nothing while paused."""

    rate: float | None
    connections: int
    paused: bool = False

    @classmethod
    def of(cls, spec: RunSpec) -> Load:
        return cls(spec.asked_rate, spec.connections)

    @property
    def target_rps(self) -> float | None:
        """The rate asked: 0 while a fixed-rate run's load is paused; None in a closed loop."""
        return 0.0 if self.paused and self.rate is not None else self.rate

    @property
    def running_connections(self) -> int:
        return 0 if self.paused else self.connections

    def spec(self, base: RunSpec) -> RunSpec:
        """`base` running this load."""
        return replace(base, rate=self.rate, connections=self.connections)


def unsteerable(spec: RunSpec) -> str | None:
    """Why no key can change a run of `spec`; None when one may."""
    if spec.tool != "h2load":
        return f"{spec.tool} cannot change its load while it runs: steering needs h2load"
    if spec.stages:
        return "this run follows its --stages: keys would break the plan"
    return None


def steered(spec: RunSpec, load: Load, change: str, value: float | None = None) -> Load | str:
    """The load after `change` (`value`: the rate SET_RATE asks for), or why not."""
    refused = unsteerable(spec)
    if refused is not None:
        return refused
    if change == PAUSE:
        return replace(load, paused=not load.paused)
    if load.paused:
        return "the load is paused: space resumes it"
    if change in RATE_KEYS:
        if load.rate is None:
            return "a closed loop has no rate to change: run with --rate"
        rate = _new_rate(load.rate, change, value)
        if rate < load.connections:
            return (
                f"{rate:,.0f} req/s is under 1 req/s for each of {load.connections} "
                "connections: remove connections first ([)"
            )
        return replace(load, rate=rate)
    step = max(1, round(load.connections * STEP))
    connections = load.connections + (step if change == MORE else -step)
    if connections < spec.threads:
        return f"-t {spec.threads} needs at least {spec.threads} connections"
    if connections > MAX_CONNECTIONS:
        return f"{MAX_CONNECTIONS:,} connections is the most"
    if load.rate is not None and load.rate < connections:
        return (
            f"{connections} connections would each get under 1 req/s of "
            f"{load.rate:,.0f}: raise the rate first (+)"
        )
    return replace(load, connections=connections)


def _new_rate(rate: float, change: str, value: float | None) -> float:
    if change == SET_RATE:
        if value is None or not 0 < value < math.inf:
            raise ValueError(f"not a rate: {value!r}")
        return value
    return rate * (1 + STEP) if change == FASTER else rate / (1 + STEP)


class SegmentPlan:
    """The loads a run goes through by itself: one, or its stages' steps, each to start
    at its time (seconds into the run)."""

    def __init__(self, spec: RunSpec) -> None:
        self._steps: tuple[Step, ...] = steps_of(spec.stages, spec.rate) if spec.stages else ()
        self._connections = spec.connections
        self.first = Load(self._steps[0].rate, spec.connections) if self._steps else Load.of(spec)
        self._next = 1

    def step_end_s(self) -> float | None:
        """When the step going ends; None without stages."""
        if not self._steps:
            return None
        step = self._steps[self._next - 1]
        return step.start_s + step.duration_s

    def next_step(self) -> Load | None:
        """The next step's load; None after the last (or without stages)."""
        if self._next >= len(self._steps):
            return None
        step = self._steps[self._next]
        self._next += 1
        return Load(step.rate, self._connections)
