"""A sweep's points from its runs' session documents: what thresholds read from a run,
each point's aggregates (its figures are storage.sweep_doc's `point_rps` and
`point_latency`: the median of its runs'), the knee and the verdicts. Pure."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict
from typing import Any

from tui_bench.analysis.thresholds import Threshold, evaluate, find_knee
from tui_bench.result import Result
from tui_bench.storage.session import Session, histogram_of
from tui_bench.storage.session_records import Knee, SweepSummary
from tui_bench.storage.sweep_doc import point_latency, point_rps
from tui_bench.validity import Validity, of_point

LATENCY_KEYS = ("min_s", "mean_s", "p50_s", "p90_s", "p99_s", "p99_9_s", "max_s")


def latency_keys(thresholds: Sequence[Threshold]) -> tuple[str, ...]:
    """LATENCY_KEYS plus every latency a threshold or the SLO looks at."""
    extra = [t.metric for t in thresholds if t.metric.endswith("_s")]
    return tuple(dict.fromkeys([*LATENCY_KEYS, *extra]))


def run_values(doc: Mapping[str, Any], keys: Sequence[str] = LATENCY_KEYS) -> dict[str, Any]:
    """What thresholds read from one run: rps, error_rate and the latency `keys`, from the
    run's whole histogram when it has one (any percentile), else from its result."""
    data = doc.get("result")
    result = Result.from_dict(data) if data else None
    values: dict[str, Any] = {
        "rps": result.rps if result else None,
        "error_rate": result.error_rate if result else None,
    }
    if doc.get("histogram"):
        # analysis.stats imports scipy, which takes seconds: not at every start of the CLI.
        from tui_bench.analysis.stats import merged_percentiles

        values.update(merged_percentiles([histogram_of(doc["histogram"], doc["id"])], keys))
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
    point: Mapping[str, Any], docs: Sequence[Mapping[str, Any]], keys: Sequence[str]
) -> dict[str, Any]:
    """One point of the plan (`plan.to_dict()["points"][i]`) over the session documents of
    its runs; only completed runs count."""
    # analysis.stats imports scipy, which takes seconds: not at every start of the CLI.
    from tui_bench.analysis.stats import (
        merged_percentiles,
        per_run_spread,
        summaries,
        summarize,
    )

    done = [d for d in docs if d.get("status") == "completed"]
    histograms = [histogram_of(d["histogram"], d["id"]) for d in done if d.get("histogram")]
    per_run = [run_values(d, keys) for d in done]
    if histograms:
        latency = merged_percentiles(histograms, keys)
        spread = per_run_spread(histograms, keys)
        source = "histograms"
    else:
        spread = summaries(per_run, keys)
        # The pooled q-th percentile lies between the runs' own: the worst bounds it.
        latency = {k: spread[k].min if k == "min_s" else spread[k].max for k in keys}
        source = "worst run"
    results = [Result.from_dict(d["result"]) for d in done if d.get("result")]
    counted = [r for r in results if r.requests.total and r.requests.succeeded is not None]
    total = sum(r.requests.total or 0 for r in counted)
    failed = sum(r.error_count or 0 for r in counted)

    def resource(key: str) -> dict[str, Any]:
        return asdict(summarize((d.get("resources") or {}).get(key) for d in done))

    return {
        "index": point["index"],
        "name": point["name"],
        "label": point["label"],
        "values": point["values"],
        "runs": len(docs),
        "n": len(done),
        "failed": sum(1 for d in docs if d.get("status") == "failed"),
        "interrupted": sum(1 for d in docs if d.get("status") == "interrupted"),
        "rps": asdict(summarize(v["rps"] for v in per_run)),
        "latency": latency,
        # "histograms": merged from those of `latency_runs` runs; "worst run": the tool
        # reports no per-request times.
        "latency_from": source,
        "latency_runs": len(histograms) if histograms else len(per_run),
        "latency_spread": {k: asdict(s) for k, s in spread.items()},
        "requests": total,
        "errors": failed if total else None,
        "error_rate": failed / total if total else None,
        "server_cpu_pct": resource("server_cpu_mean_pct"),
        "client_cpu_pct": resource("client_cpu_mean_pct"),
        "validity": judged.to_dict() if (judged := point_validity(docs)) else None,
    }


def point_validity(docs: Sequence[Mapping[str, Any]]) -> Validity | None:
    """The verdict on a point from its runs' session documents (only completed runs count
    toward its figures; the others make it suspect, or invalid when none completed); None
    before any of them ran."""
    if not docs:
        return None
    done = [run for run in map(Session, docs) if run.status == "completed"]
    judged = [v for v in (run.validity for run in done) if v is not None]
    return of_point(judged, len(docs))


def verdict_of(point: Mapping[str, Any]) -> str | None:
    """A point summary's verdict; None for one aggregated before verdicts were kept."""
    validity = point.get("validity")
    return str(validity.get("verdict")) if isinstance(validity, Mapping) else None


def point_values(summary: Mapping[str, Any]) -> dict[str, float | None]:
    """What thresholds and the SLO read from a point: its req/s and latencies as every view
    shows them (storage.sweep_doc), and its error rate."""
    return {
        "rps": point_rps(summary),
        "error_rate": summary["error_rate"],
        **{key: point_latency(summary, key) for key in summary["latency_spread"]},
    }


def aggregate(
    plan_points: Sequence[Mapping[str, Any]],
    runs: Sequence[Mapping[str, Any]],
    slo: Sequence[Threshold] = (),
    slo_text: str | None = None,
    thresholds: Sequence[Threshold] = (),
) -> SweepSummary:
    """The points and the knee for the runs so far (`runs`: the sweep's run entries)."""
    keys = latency_keys([*slo, *thresholds])
    points = [
        summarize_point(p, [r["session"] for r in runs if r["point"] == p["index"]], keys)
        for p in plan_points
    ]
    knee = None
    if slo:
        # Only a valid point can be the knee: a suspect or invalid one's req/s may not be
        # the server's (a saturated generator, errors, a cut-short run).
        # A rate sweep's knee is the highest rate held within the SLO: a point that did not
        # hold its rate is invalid, and its achieved req/s is what fell short of the rate.
        by = "rate" if any("rate" in p["values"] for p in points) else "rps"
        best = find_knee(
            [
                {**point_values(p), "rate": p["values"].get("rate")}
                if verdict_of(p) == "valid"
                else {}
                for p in points
            ],
            slo,
            by,
        )
        knee = Knee(slo_text, best)
        if best is not None:
            point = points[best]
            knee = Knee(slo_text, best, point["name"], point["values"], point_rps(point))
    return SweepSummary(tuple(points), knee)


def point_verdicts(
    points: Sequence[Mapping[str, Any]], thresholds: Sequence[Threshold]
) -> list[dict[str, Any]]:
    """Every threshold against every point that ran."""
    return [
        {"point": p["index"], "name": p["name"], **asdict(verdict)}
        for p in points
        if p["runs"]
        for verdict in evaluate(thresholds, point_values(p))
    ]
