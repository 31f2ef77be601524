"""Objects many tests build the same way."""

from __future__ import annotations

from typing import Any

from tui_bench.result import Distribution, Requests, Result

LATENCY = Distribution(
    min_s=0.0001, max_s=0.031, mean_s=0.0039, percentiles={"p50_s": 0.0035, "p99_s": 0.012}
)


def h2load_result(duration_s: float, rps: float, total: int, failed: int, **changes: Any) -> Result:
    """A completed h2load 1.52 run over h2c: `total` requests, of which `failed` got a 5xx."""
    return Result(
        tool="h2load",
        tool_version="1.52.0",
        protocol="h2c",
        duration_s=duration_s,
        rps=rps,
        bytes_per_s=12_345_678,
        requests=Requests(total=total, succeeded=total - failed, failed=failed),
        status={"2xx": total - failed, "5xx": failed},
        latency=LATENCY,
    ).with_(**changes)


# A capacity search's shape: the closed-loop peak, then rates in the order the search chose
# them (not sorted), the last one not held: its req/s fall short and its latency climbs.
RATE_STEPS = (  # rate, achieved req/s, p50, p99, p99.9 (s), verdict
    (None, 20_000.0, 0.004, 0.009, 0.012, "valid"),
    (18_000.0, 17_800.0, 0.010, 0.150, 0.400, "invalid"),
    (2_000.0, 2_000.0, 0.001, 0.002, 0.003, "valid"),
    (10_000.0, 10_000.0, 0.0015, 0.004, 0.006, "valid"),
)


def rate_sweep_doc(sweep: dict[str, Any]) -> dict[str, Any]:
    """The recorded sweep `sweep` turned into one that varied rate as RATE_STEPS, the
    10,000 req/s step its knee."""
    template = sweep["points"][0]
    plan_points, points = [], []
    for index, (rate, rps, p50, p99, p99_9, verdict) in enumerate(RATE_STEPS):
        name = "rate=closed" if rate is None else f"rate={rate:g}"
        plan_points.append(
            {**sweep["sweep"]["points"][0], "index": index, "name": name, "values": {"rate": rate}}
        )
        spread = {
            key: {"median": value}
            for key, value in zip(("p50_s", "p99_s", "p99_9_s"), (p50, p99, p99_9), strict=True)
        }
        points.append(
            {
                **template,
                "index": index,
                "name": name,
                "values": {"rate": rate},
                "rps": {**template["rps"], "median": rps, "min": rps, "max": rps},
                "latency_spread": spread,
                "validity": {"verdict": verdict, "reasons": []},
            }
        )
    rates = [step[0] for step in RATE_STEPS[1:]]
    return {
        **sweep,
        "sweep": {
            **sweep["sweep"],
            "vary": [{"name": "rate", "values": rates}],
            "points": plan_points,
        },
        "points": points,
        "runs": [],
        "knee": {
            "slo": "p99<10ms",
            "point": 3,
            "name": "rate=10000",
            "values": {"rate": 10_000.0},
            "rps": 10_000.0,
        },
    }
