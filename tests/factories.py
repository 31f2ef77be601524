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
