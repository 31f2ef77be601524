"""A finished run's status and its one-line reason, from what the tool left."""

from __future__ import annotations

from tests.factories import h2load_result
from tui_bench.engine.outcome import judge
from tui_bench.result import Requests

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
