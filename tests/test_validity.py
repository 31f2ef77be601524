from __future__ import annotations

from typing import Any

import pytest

from tests.factories import h2load_result
from tui_bench.analysis.verdicts import Verdicts
from tui_bench.errors import UsageError
from tui_bench.records.threshold import ThresholdVerdict
from tui_bench.records.verdict import Reason, Validity
from tui_bench.report.exit_codes import exit_code
from tui_bench.result import Result
from tui_bench.spec import RunSpec
from tui_bench.storage.session import Session
from tui_bench.typed_values import parse_percent
from tui_bench.validity import judge_run, of_point

SPEC = RunSpec(urls=("http://127.0.0.1:8080/",), duration_s=10.0)
GOOD = h2load_result(duration_s=10.0, rps=40_000.0, total=400_000, failed=0)
SAME_MACHINE = {"code": "same-machine", "message": "load generator and target share this machine"}


def judged(result: Result | None = GOOD, status: str = "completed", **kwargs: Any) -> Validity:
    return judge_run(SPEC, status, kwargs.pop("message", None), result, [SAME_MACHINE], **kwargs)


def codes(validity: Validity) -> list[str]:
    return [r.code for r in validity.reasons]


def test_a_clean_run_is_valid_and_same_machine_is_only_a_note() -> None:
    assert judged() == Validity("valid", ())


@pytest.mark.parametrize(
    ("status", "message", "code"),
    [
        ("failed", "the tool was killed by SIGSEGV", "tool-failed"),
        ("interrupted", None, "interrupted"),
    ],
)
def test_a_run_that_did_not_complete_is_invalid(
    status: str, message: str | None, code: str
) -> None:
    validity = judged(status=status, message=message)
    assert validity.verdict == "invalid" and codes(validity) == [code]
    if message:
        assert validity.reasons[0].message == message


def test_errors_over_the_limit_are_invalid_at_the_limit_valid() -> None:
    one_percent = h2load_result(duration_s=10.0, rps=1000.0, total=10_000, failed=100)
    assert judged(one_percent).is_valid
    stricter = judged(one_percent, max_errors=0.005)
    assert stricter.verdict == "invalid" and codes(stricter) == ["errors"]
    assert stricter.reasons[0].message == "100 of 10,000 requests failed (1.0%; the limit is 0.5%)"


def test_too_few_requests_or_seconds_are_suspect() -> None:
    few = {"code": "few-samples", "message": "only 500 requests: p99 rests on a few of them"}
    validity = judge_run(SPEC, "completed", None, GOOD, [few])
    assert validity.verdict == "suspect" and codes(validity) == ["few-samples"]
    short = GOOD.with_(duration_s=0.4)
    assert codes(judged(short)) == ["short-run"]
    counted = judge_run(RunSpec(urls=SPEC.urls, requests=400_000), "completed", None, short, [])
    assert counted.is_valid, "a request count takes as long as it takes"


def test_warnings_that_touch_the_figures_are_reasons() -> None:
    warnings = [
        {"code": "client-bound", "message": "the load generator saturated its threads"},
        {"code": "connections-dying", "message": "4 client(s) stopped mid-run"},
        SAME_MACHINE,
    ]
    validity = judge_run(SPEC, "completed", None, GOOD, warnings)
    assert validity.verdict == "invalid"
    assert codes(validity) == ["client-bound", "connections-dying"]


@pytest.mark.parametrize("code", ["server-lost", "stall-timeout"])
def test_a_run_cut_short_says_that_not_what_followed_from_it(code: str) -> None:
    cut = {"code": code, "message": "the server was lost 2.1 s into the run (pid 7 exited)"}
    warnings = [
        {"code": "client-bound", "message": "the load generator saturated its threads"},
        {"code": "connections-dying", "message": "req/s collapsed mid-run"},
        {"code": "protocol-mismatch", "message": "asked for h2c, the server negotiated h1"},
        cut,
        SAME_MACHINE,
    ]
    failing = h2load_result(duration_s=2.1, rps=100.0, total=210, failed=100)
    validity = judge_run(SPEC, "failed", cut["message"], failing, warnings)
    assert validity.verdict == "invalid"
    # Failures, dying clients, a short run: all from the loss. Not the protocol.
    assert codes(validity) == ["protocol-mismatch", code]
    assert Validity.from_dict(validity.to_dict()) == validity


def test_warm_up_asked_for_but_never_ended_is_suspect() -> None:
    spec = RunSpec(urls=SPEC.urls, duration_s=10.0, warm_up_s=2.0)
    assert judge_run(
        spec, "completed", None, GOOD, [], "Warm-up phase is over for thread #0.\n"
    ).is_valid
    validity = judge_run(spec, "completed", None, GOOD, [], "starting benchmark...\n")
    assert codes(validity) == ["warm-up-not-applied"] and validity.verdict == "suspect"


def test_an_unreachable_target_says_why() -> None:
    message = "nothing listens on 127.0.0.1:1 (connection refused)"
    validity = judged(None, status="failed", message=message, unreachable=True)
    assert validity.to_dict() == {
        "verdict": "invalid",
        "reasons": [{"code": "unreachable", "message": message}],
    }
    assert validity.lines() == [f"invalid: {message} (unreachable)"]


def test_the_json_form_reads_back_with_each_reason_s_own_verdict() -> None:
    validity = Validity.of(
        [Reason("few-samples", "only 10", "suspect"), Reason("errors", "50 %", "invalid")]
    )
    assert validity.verdict == "invalid"
    assert Validity.from_dict(validity.to_dict()) == validity
    with pytest.raises(ValueError):
        Validity.from_dict({"verdict": "fine", "reasons": []})


def doc(**changes: Any) -> dict[str, Any]:
    base = {
        "id": "r",
        "spec": SPEC.to_dict(),
        "status": "completed",
        "result": GOOD.to_dict(),
        "warnings": [SAME_MACHINE],
        "raw": {"stdout": "", "stderr": ""},
    }
    return {**base, **changes}


def test_a_session_keeps_its_verdict_and_an_older_one_is_judged_again() -> None:
    kept = {"verdict": "suspect", "reasons": [{"code": "client-bound", "message": "x"}]}
    assert Session(doc(validity=kept)).validity == Validity.from_dict(kept)
    assert Session(doc()).validity == Validity("valid", ())
    assert Session(doc(status="interrupted")).validity.verdict == "invalid"  # type: ignore[union-attr]
    few = h2load_result(duration_s=10.0, rps=1000.0, total=10_000, failed=100)
    assert Session(doc(result=few.to_dict(), max_errors=0.001)).validity.verdict == "invalid"  # type: ignore[union-attr]
    assert Session(doc(kind="sweep")).validity is None
    assert Session(doc(spec="damaged")).validity is None


def test_a_point_is_as_good_as_its_runs() -> None:
    valid, bound = Validity("valid"), Validity.of([Reason("client-bound", "saturated", "suspect")])
    assert of_point([valid, valid], 2) == Validity("valid", ())
    point = of_point([valid, bound, bound], 3)
    assert point.verdict == "suspect"
    assert point.reasons[0].message == "2 of 3 runs: saturated"
    assert codes(of_point([valid], 3)) == ["incomplete-runs"]
    assert of_point([], 2).verdict == "invalid" and codes(of_point([], 2)) == ["no-runs"]


def test_percent() -> None:
    assert parse_percent("1") == 0.01 and parse_percent("0.5%") == 0.005
    for bad in ("abc", "-1", "101%"):
        with pytest.raises(UsageError):
            parse_percent(bad)


def test_exit_status_failure_then_invalid_then_thresholds() -> None:
    failed_threshold = [ThresholdVerdict("p99<1ms", "p99_s", "<", 0.001, 0.002, False)]
    assert exit_code(130, Verdicts(tuple(failed_threshold)), invalid=True) == 130
    assert exit_code(0, Verdicts(tuple(failed_threshold)), invalid=True) == 1
    assert exit_code(0, Verdicts(tuple(failed_threshold))) == 99
    passed = ThresholdVerdict("p99<1ms", "p99_s", "<", 0.001, 0.0005, True)
    assert exit_code(0, Verdicts((passed,))) == 0


def test_mostly_redirects_are_good_answers_said_to_be_the_redirect_measured() -> None:
    redirected = GOOD.with_(
        status={"2xx": 100_000, "3xx": 300_000}, status_codes={"200": 100_000, "301": 300_000}
    )
    validity = judged(redirected)
    assert validity.verdict == "suspect" and codes(validity) == ["redirected"]
    assert validity.reasons[0].message == (
        "300,000 of 400,000 requests (75%) were answered 301 Moved Permanently: redirects "
        "count as good answers and no tool follows them: the run measured the redirect, "
        "not the page"
    )
    # Half or fewer: a page that sometimes redirects is still the page.
    half = GOOD.with_(status={"2xx": 200_000, "3xx": 200_000}, status_codes={"302": 200_000})
    assert judged(half).is_valid


def test_ab_s_non_2xx_failures_say_redirects_are_among_them() -> None:
    ab = GOOD.with_(tool="ab", status={}, errors={"non_2xx": 400_000})
    ab = ab.with_(requests=ab.requests.__class__(total=400_000, succeeded=0))
    (reason,) = judged(ab).reasons
    assert reason.code == "errors"
    assert reason.message.endswith(": ab counts redirects (3xx) among its non-2xx answers")
    (imported,) = judged(ab, status="imported").reasons
    assert imported.message.endswith(
        ": ab counts redirects (3xx) among its non-2xx answers, and an import cannot ask "
        "whether the URL redirects"
    )


def test_connections_that_never_opened_are_said_whatever_the_failed_share() -> None:
    wrk = GOOD.with_(tool="wrk", errors={"connect": 1_980})
    validity = judge_run(
        RunSpec(urls=SPEC.urls, tool="wrk", connections=3000), "completed", None, wrk, []
    )
    assert validity.verdict == "suspect" and codes(validity) == ["connect-errors"]
    assert validity.reasons[0].message.startswith(
        "1,980 attempts to open a connection failed: fewer than the 3,000 connections asked "
        "for carried the load"
    )
    assert validity.reasons[0].message.endswith("ulimit -n)")
