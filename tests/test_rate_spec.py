"""--rate as h2load is given it: per connection, split by connections across generators."""

from __future__ import annotations

from pathlib import Path

import pytest

from tui_bench.engine.load_split import split_spec
from tui_bench.errors import UsageError
from tui_bench.runners.invocation import build
from tui_bench.spec import RunSpec

URL = ("http://127.0.0.1:8080/",)


def test_the_rate_is_given_per_connection(tmp_path: Path) -> None:
    spec = RunSpec(urls=URL, connections=3, duration_s=5, rate=1000).validate()
    argv = build(spec, "h2load", "1.52.0", tmp_path).argv
    assert "--rps=333.333333" in argv
    assert spec.asked_rate == pytest.approx(999.999999)


def test_generators_share_the_rate_by_connections() -> None:
    spec = RunSpec(urls=URL, connections=5, duration_s=5, rate=1000)
    parts = split_spec(spec, 2)
    assert [p.connections for p in parts] == [3, 2]
    assert [p.rate for p in parts] == [600, 400]
    assert {p.per_client_rate for p in parts} == {200}


@pytest.mark.parametrize(
    ("spec", "said"),
    [
        (RunSpec(urls=URL, tool="wrk", duration_s=5, rate=10), "--rate needs h2load"),
        (RunSpec(urls=URL, tool="ab", rate=10), "--rate needs h2load"),
        (RunSpec(urls=URL, rate=0), "more than 0"),
        (RunSpec(urls=URL, connections=1, rate=5e6), "at most 1,000,000"),
        # Each connection's first request goes at once: 10 at once, then one every 10 s.
        (
            RunSpec(urls=URL, connections=10, duration_s=5, rate=1),
            r"--rate 1 over -c 10 is 0\.1 req/s per connection.*--rate at least -c \(10\)",
        ),
    ],
)
def test_what_cannot_hold_a_rate_is_refused(spec: RunSpec, said: str) -> None:
    with pytest.raises(UsageError, match=said):
        spec.validate()
