"""The load of a run split across its generators as h2load splits it across its threads
(nghttp2's h2load.cc: each gets total / n, the first total % n one more). Pure."""

from __future__ import annotations

from dataclasses import replace

from tui_bench.errors import UsageError
from tui_bench.spec import RunSpec


def shares(total: int, count: int) -> list[int]:
    """`total` in `count` parts, as h2load gives its threads clients and requests."""
    each, rest = divmod(total, count)
    return [each + (1 if i < rest else 0) for i in range(count)]


def split_spec(spec: RunSpec, count: int) -> list[RunSpec]:
    """Each generator's part of `spec`: -c and -n split, -t as given (at most its -c), the
    rate by connections (each connection sends the same), -d, warm-up and everything else
    the same; UsageError when a part would have no connection."""
    if spec.connections < count:
        raise UsageError(
            f"-c {spec.connections} is fewer connections than the {count} generators: "
            "each needs at least one"
        )
    connections = shares(spec.connections, count)
    requests = shares(spec.requests, count) if spec.requests is not None else [None] * count
    return [
        replace(
            spec,
            connections=c,
            threads=min(spec.threads, c),
            requests=n,
            rate=None if spec.rate is None else spec.rate * c / spec.connections,
        )
        for c, n in zip(connections, requests, strict=True)
    ]
