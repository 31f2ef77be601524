"""A sweep's points from its runs' sessions: what thresholds read from a run, each point's
aggregates (records.sweep_point: its figures are the median of its runs'), its SLO
judgement, the knee and the verdicts. Pure."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from tui_bench.analysis.thresholds import Threshold, evaluate, find_knee, meets
from tui_bench.records.plan import RATE, PlannedPoint
from tui_bench.records.sweep_point import Knee, SweepPoint, SweepSummary
from tui_bench.records.threshold import ThresholdVerdict
from tui_bench.records.verdict import Validity
from tui_bench.storage.session import Session
from tui_bench.validity import of_point

LATENCY_KEYS = ("min_s", "mean_s", "p50_s", "p90_s", "p99_s", "p99_9_s", "max_s")


def latency_keys(thresholds: Sequence[Threshold]) -> tuple[str, ...]:
    """LATENCY_KEYS plus every latency a threshold or the SLO looks at."""
    extra = [t.metric for t in thresholds if t.metric.endswith("_s")]
    return tuple(dict.fromkeys([*LATENCY_KEYS, *extra]))


def run_values(run: Session, keys: Sequence[str] = LATENCY_KEYS) -> dict[str, float | None]:
    """What thresholds read from one run: rps, error_rate and the latency `keys`, from the
    run's whole histogram when it has one (any percentile), else from its result."""
    result = run.result
    values: dict[str, float | None] = {
        "rps": result.rps if result else None,
        "error_rate": result.error_rate if result else None,
    }
    histogram = run.histogram
    if histogram is not None:
        # analysis.stats imports scipy, which takes seconds: not at every start of the CLI.
        from tui_bench.analysis.stats import merged_percentiles

        values.update(merged_percentiles([histogram], keys))
        return values
    latency = result.latency if result else None
    for key in keys:
        if latency is None:
            values[key] = None
        elif key in ("min_s", "max_s", "mean_s"):
            values[key] = getattr(latency, key)
        else:
            values[key] = latency.percentiles.get(key)
    return values


def summarize_point(
    point: PlannedPoint,
    runs: Sequence[Session],
    keys: Sequence[str],
    slo: Sequence[Threshold] = (),
) -> SweepPoint:
    """One point of the plan over the sessions of its runs; only completed runs count. With
    an SLO, the point is judged against it here, once."""
    # analysis.stats imports scipy, which takes seconds: not at every start of the CLI.
    from tui_bench.analysis.stats import (
        merged_percentiles,
        per_run_spread,
        summaries,
        summarize,
    )

    done = [run for run in runs if run.status == "completed"]
    histograms = [h for h in (run.histogram for run in done) if h is not None]
    per_run = [run_values(run, keys) for run in done]
    if histograms:
        latency = merged_percentiles(histograms, keys)
        spread = per_run_spread(histograms, keys)
        source = "histograms"
    else:
        spread = summaries(per_run, keys)
        # The pooled q-th percentile lies between the runs' own: the worst bounds it.
        latency = {k: spread[k].min if k == "min_s" else spread[k].max for k in keys}
        source = "worst run"
    results = [r for r in (run.result for run in done) if r is not None]
    counted = [r for r in results if r.requests.total and r.requests.succeeded is not None]
    total = sum(r.requests.total or 0 for r in counted)
    failed = sum(r.error_count or 0 for r in counted)
    summary = SweepPoint(
        index=point.index,
        name=point.name,
        label=point.label,
        values=point.values,
        runs=len(runs),
        n=len(done),
        failed=sum(1 for run in runs if run.status == "failed"),
        interrupted=sum(1 for run in runs if run.status == "interrupted"),
        rps=summarize(v["rps"] for v in per_run),
        latency=latency,
        latency_from=source,
        latency_runs=len(histograms) if histograms else len(per_run),
        latency_spread=spread,
        requests=total,
        errors=failed if total else None,
        error_rate=failed / total if total else None,
        server_cpu_pct=summarize(run.resources.get("server_cpu_mean_pct") for run in done),
        client_cpu_pct=summarize(run.resources.get("client_cpu_mean_pct") for run in done),
        validity=point_validity(runs),
    )
    if not slo or not done:
        return summary
    return replace(summary, meets_slo=meets(slo, summary.figures()))


def point_validity(runs: Sequence[Session]) -> Validity | None:
    """The verdict on a point from its runs (only completed runs count toward its figures;
    the others make it suspect, or invalid when none completed); None before any ran."""
    if not runs:
        return None
    done = [run for run in runs if run.status == "completed"]
    judged = [v for v in (run.validity for run in done) if v is not None]
    return of_point(judged, len(runs))


def meets_slo(point: SweepPoint, slo: Sequence[Threshold]) -> bool | None:
    """Whether a point meets the SLO: as judged when it was recorded, or for a point
    aggregated before that judgement was kept, judged now; None without an SLO or a
    completed run."""
    if not slo or not point.n:
        return None
    return point.meets_slo if point.meets_slo is not None else meets(slo, point.figures())


def held(point: SweepPoint, slo: Sequence[Threshold]) -> bool:
    """Whether a point is valid and meets the SLO (valid alone without one)."""
    return point.verdict == "valid" and (not slo or meets_slo(point, slo) is True)


def bracket(
    steps: Sequence[SweepPoint], slo: Sequence[Threshold]
) -> tuple[float | None, float | None]:
    """A capacity search's bracket so far: the highest rate of its `steps` held, and the
    lowest not held above it (None: none yet). Steps not yet measured count for neither."""
    tried = [(float(p.values["rate"]), held(p, slo)) for p in steps if p.n and "rate" in p.values]
    highest = max((rate for rate, ok in tried if ok), default=None)
    above = [rate for rate, ok in tried if not ok and (highest is None or rate > highest)]
    return highest, min(above, default=None)


def aggregate(
    plan_points: Sequence[PlannedPoint],
    runs: Sequence[tuple[int, Session]],
    slo: Sequence[Threshold] = (),
    slo_text: str | None = None,
    thresholds: Sequence[Threshold] = (),
) -> SweepSummary:
    """The points and the knee for the runs so far (`runs`: each run's point and session)."""
    keys = latency_keys([*slo, *thresholds])
    points = tuple(
        summarize_point(p, [run for at, run in runs if at == p.index], keys, slo)
        for p in plan_points
    )
    knee = None
    if slo:
        # Only a valid point can be the knee: a suspect or invalid one's req/s may not be
        # the server's (a saturated generator, errors, a cut-short run).
        # A rate sweep's knee is the highest rate held within the SLO: a point that did not
        # hold its rate is invalid, and its achieved req/s is what fell short of the rate.
        by = RATE if any(RATE in p.values for p in points) else "rps"
        best = find_knee(
            [{**p.figures(), RATE: p.values.get(RATE)} if p.held else {} for p in points],
            slo,
            by,
        )
        knee = Knee(slo_text, best)
        if best is not None:
            point = points[best]
            knee = Knee(slo_text, best, point.name, point.values, point.rps_figure)
    return SweepSummary(points, knee)


def point_verdicts(
    points: Sequence[SweepPoint], thresholds: Sequence[Threshold]
) -> list[ThresholdVerdict]:
    """Every threshold against every point that ran."""
    return [
        replace(verdict, point=p.index, name=p.name)
        for p in points
        if p.runs
        for verdict in evaluate(thresholds, p.figures())
    ]
