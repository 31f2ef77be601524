"""Things that make a run's numbers misleading, found from what the run recorded. Pure."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tui_bench.records.warning import Warning
from tui_bench.result import Result
from tui_bench.runners.durations import rounded_note
from tui_bench.spec import RunSpec

# Fewer latency samples than this make a p99 a handful of requests.
MIN_SAMPLES_FOR_P99 = 1000
ERROR_RATE_WARN = 0.01
# A duration run whose last seconds fall below this share of its best second has collapsed.
COLLAPSE_SHARE = 0.2


SAME_MACHINE = Warning(
    "same-machine", "load generator and target share this machine: they compete for CPU"
)
CONNECTIONS_DYING = Warning(
    "connections-dying",
    "the server closes connections (nginx keepalive_requests, 1000 by default?) and h2load "
    "does not reconnect in -D mode: raise the server's limit above what a connection sends "
    "in the run, or run with -n",
)


def whole_seconds(spec: RunSpec) -> list[Warning]:
    """A note (no verdict) that the tool runs -d rounded up, said when the run starts."""
    note = rounded_note(spec)
    return [] if note is None else [Warning("whole-seconds", note)]


def connection_failures(stdout: str) -> int:
    """h2load prints one 'Process Request Failure' line per client that died (-D mode)."""
    return stdout.count("Process Request Failure")


def collapsed(series: Sequence[Mapping[str, Any]]) -> bool:
    rates = [row["rps"] for row in series if row.get("rps") is not None]
    if len(rates) < 4:
        return False
    tail = rates[-max(2, len(rates) // 4) : -1] or rates[-2:]
    return bool(max(tail) < COLLAPSE_SHARE * max(rates))


def run_warnings(
    spec: RunSpec,
    result: Result | None,
    series: Sequence[Mapping[str, Any]],
    stdout: str,
    *,
    same_machine: bool,
    client_bound: bool,
    steered: bool = False,
) -> list[Warning]:
    """`steered`: the run changed its own load (a drop in its seconds is no collapse)."""
    found = whole_seconds(spec)
    if same_machine:
        found.append(SAME_MACHINE)
    if client_bound:
        found.append(
            Warning(
                "client-bound",
                "the load generator saturated its threads: the server may be faster than "
                "this shows (raise -t, or run the generator elsewhere)",
            )
        )
    dead = connection_failures(stdout)
    # Only h2load leaves a closed connection closed (-D mode): wrk and ab reconnect, and a
    # dip in their seconds is a stall (analysis/stalls.py), not clients dying.
    falling = spec.tool == "h2load" and not spec.count_mode and not steered and collapsed(series)
    if dead or falling:
        detail = _dying(spec, result, dead)
        found.append(Warning(CONNECTIONS_DYING.code, f"{detail}: {CONNECTIONS_DYING.message}"))
    if result is not None:
        found += _result_warnings(result)
        got, expected = result.protocol, spec.expected_protocol
        if got and got != expected:
            # A server without h2 in its ALPN list makes h2load fall back to HTTP/1.1.
            found.append(
                Warning(
                    "protocol-mismatch",
                    f"asked for {expected}, the server negotiated {got}: this measured {got}",
                )
            )
    return found


def _dying(spec: RunSpec, result: Result | None, dead: int) -> str:
    """How many connections died, and after how many requests where all of them did: the
    load stopped there, while req/s is over the whole run."""
    if not dead:
        return "req/s collapsed mid-run"
    said = f"{dead:,} of {spec.connections:,} connections closed by the server mid-run"
    total = result.requests.total if result is not None else None
    if total and dead >= spec.connections:
        said += (
            f", after about {total // dead:,} requests each: the load stopped there, "
            "and req/s is over the whole run"
        )
    return said


def _result_warnings(result: Result) -> list[Warning]:
    found: list[Warning] = []
    total = result.requests.total or 0
    succeeded = result.requests.succeeded
    if total and succeeded == 0:
        found.append(Warning("all-failed", f"all {total} requests failed"))
    elif total:
        bad = result.error_count or 0
        if bad / total >= ERROR_RATE_WARN:
            found.append(Warning("errors", f"{bad} of {total} requests failed or got 4xx/5xx"))
    if 0 < total < MIN_SAMPLES_FOR_P99:
        found.append(Warning("few-samples", f"only {total} requests: p99 rests on a few of them"))
    return found
