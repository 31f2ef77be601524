"""A run's stages (`--stages 1000:30s,5000:1m,5000:5m`), read as k6's ramping-arrival-rate
stages: each `RATE:DURATION` goes from the rate before it to RATE, linearly, over DURATION;
equal rates hold. The first goes from `--rate` (else it holds its own rate). Pure.

h2load cannot change its rate while it runs: a ramp runs as steps of at most RAMP_STEP_S,
each at the ramp's mean rate over it. Over a step that is exact in requests sent (the
mean of a linear ramp over a stretch is its rate at the stretch's middle); within a step
the rate is flat where the ramp's is not, by at most half the ramp's change over a step.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from tui_bench.errors import UsageError
from tui_bench.typed_values import format_duration, parse_duration, parse_rate

# A stage shorter than this cannot be run: a new h2load starts each step and connects.
MIN_STAGE_S = 1.0
RAMP_STEP_S = 1.0


@dataclass(frozen=True)
class Stage:
    rate: float
    duration_s: float


@dataclass(frozen=True)
class Step:
    """A stretch of the plan at one rate, `start_s` from the run's start."""

    start_s: float
    duration_s: float
    rate: float


def parse_stages(text: str) -> tuple[Stage, ...]:
    """UsageError with a one-line reason when `text` is not stages."""
    stages = []
    for part in text.split(","):
        rate_text, sep, duration_text = part.strip().partition(":")
        if not sep or not rate_text or not duration_text:
            raise UsageError(f"bad stage {part.strip()!r}: expected RATE:DURATION (5000:1m)")
        try:
            rate, duration = parse_rate(rate_text), parse_duration(duration_text)
        except UsageError as exc:
            raise UsageError(f"bad stage {part.strip()!r}: {exc}") from None
        if duration < MIN_STAGE_S:
            raise UsageError(
                f"bad stage {part.strip()!r}: a stage lasts at least {MIN_STAGE_S:g} s"
            )
        stages.append(Stage(rate, duration))
    return tuple(stages)


def stages_text(stages: tuple[Stage, ...]) -> str:
    """What parse_stages reads back as `stages`."""
    return ",".join(f"{s.rate:g}:{format_duration(s.duration_s)}" for s in stages)


def total_s(stages: tuple[Stage, ...]) -> float:
    return sum(s.duration_s for s in stages)


def steps_of(stages: tuple[Stage, ...], first_rate: float | None) -> tuple[Step, ...]:
    """The plan as steps: a stage holding its rate is one step, a ramp one per RAMP_STEP_S
    (the last shorter) at its mean rate over that step."""
    steps: list[Step] = []
    start = 0.0
    before = stages[0].rate if first_rate is None else first_rate
    for stage in stages:
        if math.isclose(before, stage.rate):
            steps.append(Step(start, stage.duration_s, stage.rate))
        else:
            count = math.ceil(stage.duration_s / RAMP_STEP_S - 1e-9)
            for index in range(count):
                lo = index * RAMP_STEP_S
                hi = min(stage.duration_s, lo + RAMP_STEP_S)
                middle = (lo + hi) / 2 / stage.duration_s
                rate = before + (stage.rate - before) * middle
                steps.append(Step(start + lo, hi - lo, round(rate, 3)))
        start += stage.duration_s
        before = stage.rate
    return tuple(steps)
