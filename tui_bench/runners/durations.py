"""How a duration run's time is told: what the tool runs of -d when that is not what was
asked, and the measured window apart from the warm-up. One wording for the form, the
progress line, the live screen and the session."""

from __future__ import annotations

from dataclasses import dataclass

from tui_bench.spec import RunSpec
from tui_bench.typed_values import format_duration


@dataclass(frozen=True)
class Stretch:
    """Where a timed run is: in its warm-up or in the measured window after it, and how far
    into that stretch (0 to 1)."""

    warming: bool
    fraction: float


def stretch_at(spec: RunSpec, t_s: float) -> Stretch | None:
    """The stretch `t_s` seconds into a timed run falls in; None for a request count. The
    warm-up and the measured window are told apart: a bar over both would say a run half
    done at the end of a long warm-up."""
    run = spec.run_duration_s
    if not run:
        return None
    warm_up = spec.warm_up_s
    if warm_up and t_s <= warm_up:
        return Stretch(True, max(0.0, t_s) / warm_up)
    return Stretch(False, min(1.0, measured_at(spec, t_s) / run))


def measured_at(spec: RunSpec, t_s: float) -> float:
    """The seconds of the measured window `t_s` seconds into a run: what follows the
    warm-up, up to -d; all of `t_s` for a run without warm-up."""
    warm_up = spec.warm_up_s
    if not warm_up:
        return t_s
    return min(max(0.0, t_s - warm_up), spec.run_duration_s or t_s)


def whole_at(spec: RunSpec, t_s: float) -> float | None:
    """How far a timed run is `t_s` seconds in, warm-up and all (0 to 1): it only grows,
    where a stretch restarts after the warm-up; None for a request count."""
    planned = spec.planned_s
    if not planned:
        return None
    return min(1.0, t_s / planned)


def rounded_note(spec: RunSpec) -> str | None:
    """`wrk runs whole seconds: -d 2.5s runs 3s`; None when the tool runs -d as asked."""
    asked, run = spec.duration_s, spec.run_duration_s
    if asked is None or run is None or run == asked:
        return None
    asked_text, run_text = format_duration(asked), format_duration(run)
    return f"{spec.tool} runs whole seconds: -d {asked_text} runs {run_text}"


def duration_text(spec: RunSpec) -> str | None:
    """`-d 4s after 1s warm-up`, `-d 3s (2.5s asked: wrk runs whole seconds)`: the measured
    window as it runs, and the warm-up beside it; None for a request count."""
    asked, run = spec.duration_s, spec.run_duration_s
    if asked is None or run is None:
        return None
    text = f"-d {format_duration(run)}"
    if run != asked:
        text += f" ({format_duration(asked)} asked: {spec.tool} runs whole seconds)"
    if spec.warm_up_s:
        text += f" after {format_duration(spec.warm_up_s)} warm-up"
    return text
