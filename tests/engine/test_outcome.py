"""A finished run's status and its one-line reason, from what the tool left."""

from __future__ import annotations

from tests.factories import h2load_result
from tui_bench.engine.log_ingest import LogIngest
from tui_bench.engine.outcome import build_result, judge
from tui_bench.result import Requests
from tui_bench.runners.tools import Tool
from tui_bench.spec import RunSpec

NONE_ANSWERED = h2load_result(duration_s=2.0, rps=0.0, total=0, failed=0).with_(
    tool="wrk", requests=Requests(total=0, succeeded=0)
)
SUMMARY = (
    'tuibench-summary {"duration_us":2030412,"requests":0,"bytes":0,'
    '"errors":{"connect":0,"read":54898,"write":0,"status":0,"timeout":0},"latency":null}\n'
)


def test_the_reason_is_the_tool_s_own_last_line_not_tuibench_s_figures() -> None:
    assert judge(False, False, 0, NONE_ANSWERED, "tuibench-live 0 12\n" + SUMMARY) == (
        "failed",
        "no request was answered",
    )
    said = "unable to connect to 127.0.0.1:9 Connection refused\n"
    assert judge(False, False, 1, None, said + SUMMARY) == (
        "failed",
        "unable to connect to 127.0.0.1:9 Connection refused",
    )


def test_a_result_from_the_log_alone_is_timed_from_its_first_request() -> None:
    # h2load 1.52 hung after its 2 s and printed no summary: 800 requests logged from 0.4 s
    # (its start and connections, on a busy machine) to 2.4 s, when it said its time was over.
    t0_us = 1_700_000_000_000_000
    ingest = LogIngest(t0_us)
    ingest.feed(b"".join(b"%d\t200\t900\n" % (t0_us + 400_000 + i * 2_500) for i in range(800)))
    spec = RunSpec(urls=("http://127.0.0.1:8080/",), connections=4, duration_s=2)
    result = build_result(
        spec, Tool("h2load", "/usr/bin/h2load", "1.52.0"), "", "", None, ingest, 2.4
    )
    assert result is not None
    assert (result.duration_s, result.rps) == (2.0, 400.0)
