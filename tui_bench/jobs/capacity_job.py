"""The capacity search as a job: the closed-loop peak, then rates below it chosen one step at
a time (analysis/capacity.py), every step a point of ONE sweep session run by the sweep's
own runner, so a stop or a crash keeps every step that ran. Prepared (the tool, the server,
the rate the tool can be asked for) before any load, like a sweep."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from tui_bench.analysis.capacity import Search, Step, step_duration
from tui_bench.analysis.names import DEFAULT_RESOLUTION
from tui_bench.analysis.sweep_points import held
from tui_bench.analysis.thresholds import Threshold, parse_slo
from tui_bench.engine.sweep import SweepListener, SweepRunner, Target
from tui_bench.errors import UsageError
from tui_bench.jobs.settings import JobSettings
from tui_bench.jobs.sweep_job import SweepJob, prepare_sweep
from tui_bench.records.sweep_point import SweepSummary
from tui_bench.request.run import DEFAULT_STEP_S, RunRequest
from tui_bench.request.sweep_plan import Dimension, Point, SweepPlan
from tui_bench.request.sweep_settings import DEFAULT_COOL_DOWN_S


@dataclass(frozen=True)
class CapacityJob:
    sweep: SweepJob
    slo: tuple[Threshold, ...]
    resolution: float

    @property
    def notes(self) -> tuple[str, ...]:
        return self.sweep.notes

    def runner(self, listener: SweepListener, store_dir: Path | None = None) -> SweepRunner:
        sweep = self.sweep
        return SweepRunner(
            sweep.plan,
            sweep.targets,
            sweep.options,
            store_dir=store_dir,
            listener=listener,
            extend=self.extend,
        )

    def extend(
        self, plan: SweepPlan, summary: SweepSummary
    ) -> tuple[SweepPlan, tuple[Target, ...]] | None:
        """The plan with the search's next step, or None when it is done (an invalid or
        failed peak leaves nothing to search below)."""
        peak, *steps = summary.points
        peak_rps = peak.rps_figure
        if peak_rps is None or peak.verdict == "invalid":
            return None
        tried = [Step(float(p.values["rate"]), held(p, self.slo)) for p in steps]
        rate = Search(peak_rps, self.resolution).next_rate(tried)
        if rate is None:
            return None
        grown = with_step(plan, rate)
        return grown, (self.sweep.targets[0],) * len(grown.points)


def with_step(plan: SweepPlan, rate: float) -> SweepPlan:
    """`plan` and one more point: the peak's configuration at `rate`."""
    first = plan.points[0]
    step_s = first.spec.duration_s
    assert step_s is not None, "a capacity search runs timed steps"
    spec = replace(first.spec, rate=rate, duration_s=step_duration(step_s, rate))
    point = Point(
        len(plan.points), None, {"rate": rate}, replace(first.request, spec=spec), first.tool_paths
    )
    try:
        spec.validate()
    except UsageError as exc:
        raise point.usage_error(exc) from None
    rates = tuple(v for d in plan.dimensions for v in d.values)
    return replace(
        plan, points=(*plan.points, point), dimensions=(Dimension("rate", (*rates, rate)),)
    )


def peak_plan(request: RunRequest, settings: JobSettings, step_s: float, repeat: int) -> SweepPlan:
    """The search's first step: the closed loop, as long as every step. UsageError for what
    cannot be searched (a rate given, a request count, a tool without a schedule)."""
    spec = request.spec
    if spec.rate is not None:
        raise UsageError("capacity chooses the rates itself: drop --rate")
    if spec.requests is not None:
        raise UsageError("capacity runs each step for --step-duration: drop -n")
    spec = replace(spec, duration_s=step_s)
    try:
        # The steps' rates are known only as they go: the tool must take one at all.
        replace(spec, rate=float(spec.connections)).validate()
    except UsageError as exc:
        raise UsageError(f"capacity: {exc}") from None
    peak = Point(0, None, {"rate": None}, replace(request, spec=spec), settings.tool_paths)
    return SweepPlan((peak,), (Dimension("rate", ()),), repeat, in_steps=True)


async def prepare_capacity(
    request: RunRequest,
    settings: JobSettings,
    *,
    slo: str,
    step_s: float | None = None,
    repeat: int = 1,
    resolution: float = DEFAULT_RESOLUTION,
    cool_down_s: float = DEFAULT_COOL_DOWN_S,
    argv: Sequence[str] = (),
) -> CapacityJob:
    """The search ready to run; each step lasts `step_s` (else the request's -d, else
    DEFAULT_STEP_S) and runs `repeat` times. UsageError or ToolMissingError (one line,
    exit 2) before any load."""
    clauses = tuple(parse_slo(slo))
    if not 0 < resolution < 1:
        raise UsageError("--resolution must be between 0 and 100 %")
    plan = peak_plan(request, settings, step_s or request.spec.duration_s or DEFAULT_STEP_S, repeat)
    sweep = await prepare_sweep(
        plan,
        request,
        settings,
        cool_down_s=cool_down_s,
        slo=slo,
        argv=argv,
        search={"kind": "capacity", "resolution": resolution},
    )
    return CapacityJob(sweep, clauses, resolution)
