from dataclasses import replace

from tui_bench.analysis.warnings import (
    collapsed,
    run_warnings,
)
from tui_bench.result import Requests, Result
from tui_bench.spec import RunSpec

SPEC = RunSpec(urls=("http://127.0.0.1:1/",), duration_s=10)


def codes(**kw: object) -> set[str]:
    args: dict[str, object] = {
        "result": None,
        "series": [],
        "stdout": "",
        "same_machine": False,
        "client_bound": False,
    }
    args.update(kw)
    return {w.code for w in run_warnings(SPEC, **args)}  # type: ignore[arg-type]


def test_dying_clients_from_h2load_lines_or_a_collapse() -> None:
    assert "connections-dying" in codes(stdout="Process Request Failure:1\n")
    series = [{"rps": r} for r in (1000, 1000, 990, 1000, 10, 0, 0, 0)]
    assert collapsed(series)
    assert "connections-dying" in codes(series=series)
    assert not collapsed([{"rps": r} for r in (1000, 950, 1010, 990, 1000)])
    # wrk and ab reconnect: a collapse of theirs is not clients dying.
    wrk = run_warnings(
        replace(SPEC, tool="wrk"), None, series, "", same_machine=False, client_bound=False
    )
    assert "connections-dying" not in {w.code for w in wrk}
    # A steered run lowers its own load (a pause, a ramp down): no clients died for it;
    # the lines h2load writes as they die still say so.
    assert "connections-dying" not in codes(series=series, steered=True)
    assert "connections-dying" in codes(stdout="Process Request Failure:1\n", steered=True)


def test_every_connection_closed_says_when_the_load_stopped_and_what_to_do() -> None:
    spec = replace(SPEC, connections=4)
    result = Result(tool="h2load", requests=Requests(total=4_000, succeeded=4_000))
    stdout = "Process Request Failure:1\n" * 4
    (dying,) = [
        w
        for w in run_warnings(spec, result, [], stdout, same_machine=False, client_bound=False)
        if w.code == "connections-dying"
    ]
    assert dying.message.startswith(
        "4 of 4 connections closed by the server mid-run, after about 1,000 requests each: "
        "the load stopped there, and req/s is over the whole run: "
    )
    assert dying.message.endswith(
        "raise the server's limit above what a connection sends in the run, or run with -n"
    )


def test_result_warnings() -> None:
    failed = Result(tool="h2load", requests=Requests(total=100, succeeded=0, failed=100))
    assert "all-failed" in codes(result=failed)
    errors = Result(
        tool="h2load",
        requests=Requests(total=10_000, succeeded=9_000, failed=0),
        status={"2xx": 9_000, "5xx": 1_000},
    )
    assert codes(result=errors) == {"errors"}
    few = Result(tool="h2load", requests=Requests(total=50, succeeded=50, failed=0))
    assert codes(result=few) == {"few-samples"}


def test_a_protocol_other_than_the_one_asked_for() -> None:
    fell_back = Result(tool="h2load", protocol="http/1.1", requests=Requests(total=5000))
    assert codes(result=fell_back) == {"protocol-mismatch"}
    (warning,) = run_warnings(SPEC, fell_back, [], "", same_machine=False, client_bound=False)
    assert warning.message.startswith("asked for h2c, the server negotiated http/1.1")
    assert (
        codes(result=Result(tool="h2load", protocol="h2c", requests=Requests(total=5000))) == set()
    )


def test_set_up_warnings() -> None:
    assert codes(same_machine=True, client_bound=True) == {"same-machine", "client-bound"}
    assert codes() == set()
