"""The load split as h2load splits -c and -n across its threads."""

from __future__ import annotations

import pytest

from tui_bench.engine.load_split import shares, split_spec
from tui_bench.errors import UsageError
from tui_bench.spec import RunSpec


@pytest.mark.parametrize(
    ("total", "count", "parts"),
    [(10, 3, [4, 3, 3]), (5, 3, [2, 2, 1]), (9, 3, [3, 3, 3]), (1, 1, [1]), (2, 4, [1, 1, 0, 0])],
)
def test_the_first_total_mod_n_get_one_more(total: int, count: int, parts: list[int]) -> None:
    assert shares(total, count) == parts
    assert sum(parts) == total


def test_c_and_n_split_threads_capped_duration_shared() -> None:
    spec = RunSpec(urls=("http://127.0.0.1/",), connections=5, threads=4, requests=3001)
    parts = split_spec(spec, 3)
    assert [(p.connections, p.threads, p.requests) for p in parts] == [
        (2, 2, 1001),
        (2, 2, 1000),
        (1, 1, 1000),
    ]
    timed = split_spec(RunSpec(urls=spec.urls, connections=4, duration_s=5, warm_up_s=1), 2)
    assert {(p.duration_s, p.warm_up_s, p.requests) for p in timed} == {(5, 1, None)}


def test_fewer_connections_than_generators_is_refused() -> None:
    with pytest.raises(UsageError, match="-c 2 is fewer connections than the 3 generators"):
        split_spec(RunSpec(urls=("http://127.0.0.1/",), connections=2), 3)
