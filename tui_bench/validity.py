"""Whether a run's numbers can be trusted: valid, suspect or invalid, with the reasons.

A run is judged from what it recorded (its status, result, warnings and output), so the
verdict of a saved session can always be given again, also for sessions saved before
verdicts were kept. Invalid: the figures do not describe the load that was asked for (the
tool failed, the run was cut short, too many errors, the server closed connections, the
target could not be reached). Suspect: the figures are real but rest on too little, or on a
generator that was the bottleneck. Pure.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tui_bench.records.verdict import (
    CONNECT_ERRORS,
    CUT_SHORT,
    REDIRECTED,
    WARNING_VERDICTS,
    Reason,
    Validity,
)
from tui_bench.result import NON_2XX, NON_2XX_3XX, Result
from tui_bench.spec import RunSpec
from tui_bench.status_codes import named, of_class
from tui_bench.validity_defaults import DEFAULT_MAX_ERRORS

# A duration run shorter than this has no steady state to speak of.
MIN_SECONDS = 1.0
# A fixed-rate run that sent less than this share of its target did not hold it.
MIN_HELD_RATE = 0.95

# ab's "Non-2xx responses" are 3xx, 4xx and 5xx alike; a run's own URL is asked after it.
_AB_NON_2XX = ": ab counts redirects (3xx) among its non-2xx answers"
# ab's output read by `tuibench import`: no run of ours to ask the URL after.
_AB_NON_2XX_IMPORTED = _AB_NON_2XX + ", and an import cannot ask whether the URL redirects"
# What follows from a server lost or silent (failures, dying connections, a generator
# spinning on refused connects, a short run): not a further reason to act on.
_FOLLOWS_FROM_CUT = frozenset(
    {
        "tool-failed",
        "interrupted",
        "errors",
        "connections-dying",
        "client-bound",
        "stall",
        "short-run",
        "few-samples",
        "rate-not-held",
        "warm-up-not-applied",
        CONNECT_ERRORS,
    }
)


def judge_run(
    spec: RunSpec,
    status: str,
    message: str | None,
    result: Result | None,
    warnings: Sequence[Mapping[str, Any]],
    stdout: str = "",
    *,
    max_errors: float = DEFAULT_MAX_ERRORS,
    unreachable: bool = False,
) -> Validity:
    """The verdict on one run from what it recorded (`warnings`: {"code", "message"})."""
    reasons: list[Reason] = []
    if unreachable:
        reasons.append(
            Reason("unreachable", message or "the target could not be reached", "invalid")
        )
    elif status == "failed":
        reasons.append(Reason("tool-failed", message or "the tool failed", "invalid"))
    elif status == "interrupted":
        reasons.append(
            Reason("interrupted", "stopped before the end: the figures cover part of it", "invalid")
        )
    for warning in warnings:
        verdict = WARNING_VERDICTS.get(str(warning.get("code")))
        if verdict is not None:
            reasons.append(Reason(str(warning["code"]), str(warning["message"]), verdict))
    if result is not None:
        reasons += _result_reasons(spec, result, max_errors, imported=status == "imported")
    if spec.warm_up_s and status == "completed" and "Warm-up phase is over" not in stdout:
        reasons.append(
            Reason(
                "warm-up-not-applied",
                f"a {spec.warm_up_s:g} s warm-up was asked for but the tool never ended one: "
                "cold-start requests are measured",
                "suspect",
            )
        )
    if any(r.code in CUT_SHORT for r in reasons):
        reasons = [r for r in reasons if r.code not in _FOLLOWS_FROM_CUT]
    return Validity.of(reasons)


def _result_reasons(
    spec: RunSpec, result: Result, max_errors: float, *, imported: bool
) -> list[Reason]:
    reasons: list[Reason] = []
    total = result.requests.total or 0
    rate = result.error_rate
    if rate is not None and rate > max_errors:
        hint = ""
        if result.errors.get(NON_2XX):
            hint = _AB_NON_2XX_IMPORTED if imported else _AB_NON_2XX
        reasons.append(
            Reason(
                "errors",
                f"{result.error_count:,} of {total:,} requests failed ({rate:.1%}; "
                f"the limit is {max_errors:.1%}){hint}",
                "invalid",
            )
        )
    if result.rate is not None:
        reasons += _rate_reasons(result)
    reasons += _refused_reasons(spec, result)
    reasons += _redirect_reasons(result)
    reasons += _connect_reasons(spec, result)
    seconds = result.duration_s
    if not spec.count_mode and seconds is not None and seconds < MIN_SECONDS:
        reasons.append(
            Reason(
                "short-run",
                f"measured for {seconds:.2f} s: too short for a steady state "
                f"(at least {MIN_SECONDS:g} s)",
                "suspect",
            )
        )
    return reasons


# How each tool counts the answers a server refuses with: h2load by status class, wrk and ab
# only as answers outside 2xx (and 3xx).
_REFUSED_COUNTS = (
    ("status", "4xx", "4xx"),
    ("errors", NON_2XX_3XX, "a status outside 2xx and 3xx"),
    ("errors", NON_2XX, "a status outside 2xx"),
)
# Most requests refused: the run measured the server saying no, not the work asked for.
REFUSED_SHARE = 0.5


def _refused_reasons(spec: RunSpec, result: Result) -> list[Reason]:
    """A request the server would not take (405 method, 413 body too large, 415 content
    type), told with what was sent; only where a method or a body was asked for."""
    total = result.requests.total
    if not total or (spec.request_method == "GET" and spec.body_file is None):
        return []
    for where, key, said in _REFUSED_COUNTS:
        refused = (result.status if where == "status" else result.errors).get(key)
        if refused is not None and refused / total > REFUSED_SHARE:
            codes = of_class(result.status_codes, key) if where == "status" else []
            message = (
                f"{refused:,} of {total:,} requests ({refused / total:.0%}) were answered "
                f"{_answered_as(said, refused, codes)}: the server refused {spec.sent_body()}"
            )
            if not codes:
                message += (
                    " (405: not a method it takes there, 413: a body too large, "
                    "415: a content type it does not take)"
                )
            return [Reason("refused", message, "invalid")]
    return []


def _connect_reasons(spec: RunSpec, result: Result) -> list[Reason]:
    """Connections that failed to open (wrk and ab count each attempt): the load was
    carried by fewer connections than asked, whatever the share of failed requests."""
    failed = result.errors.get("connect")
    if not failed:
        return []
    return [
        Reason(
            CONNECT_ERRORS,
            f"{failed:,} attempts to open a connection failed: fewer than the "
            f"{spec.connections:,} connections asked for carried the load (the server's "
            "connection limit or listen backlog, or a file limit on either side: ulimit -n)",
            "suspect",
        )
    ]


def _redirect_reasons(result: Result) -> list[Reason]:
    """Most answers a redirect, where the tool tells each request's code (h2load): wrk and
    ab cannot, and the URL is asked after their runs (engine.answer_probe)."""
    total = result.requests.total
    redirects = result.status.get("3xx")
    codes = of_class(result.status_codes, "3xx")
    if not total or not redirects or not codes or redirects / total <= REFUSED_SHARE:
        return []
    return [
        Reason(
            REDIRECTED,
            f"{redirects:,} of {total:,} requests ({redirects / total:.0%}) were answered "
            f"{_answered_as('3xx', redirects, codes)}: redirects count as good answers and no "
            "tool follows them: the run measured the redirect, not the page",
            "suspect",
        )
    ]


def _answered_as(said: str, refused: int, codes: Sequence[tuple[str, int]]) -> str:
    """What the `refused` requests were answered: the most common of their exact `codes`
    (the most common first) by name where those are known, else the class `said`."""
    if not codes:
        return said
    code, count = codes[0]
    if count == refused:
        return named(code)
    return f"{said}, {count:,} of them {named(code)}"


def _rate_reasons(result: Result) -> list[Reason]:
    """A fixed-rate run past what the server (or the generator) could take: its latency is
    the queue's, not the server's."""
    rate = result.rate
    assert rate is not None
    achieved = result.rps
    short = achieved is not None and achieved < MIN_HELD_RATE * rate.target_rps
    if not short and rate.backlog_from_s is None:
        return []
    said = "unknown" if achieved is None else f"{achieved:,.0f}"
    share = f" ({achieved / rate.target_rps:.1%})" if achieved is not None else ""
    backlog = (
        f"; the backlog grew from {rate.backlog_from_s:g} s on, to {rate.backlog_end:,} "
        "requests due but not sent"
        if rate.backlog_from_s is not None and rate.backlog_end is not None
        else ""
    )
    return [
        Reason(
            "rate-not-held",
            f"{said} of {rate.target_rps:,.0f} req/s asked were achieved{share}{backlog}: "
            "past capacity, the latency is the queue's, not the server's",
            "invalid",
        )
    ]


def of_point(completed: Sequence[Validity], runs: int) -> Validity:
    """A sweep point's verdict from its `runs` runs, of which `completed` are judged: the
    worst of theirs, each reason said once with how many runs it concerns."""
    if not completed:
        return Validity.of([Reason("no-runs", "no run of this point completed", "invalid")])
    by_code: dict[str, list[Reason]] = {}
    for validity in completed:
        for reason in validity.reasons:
            by_code.setdefault(reason.code, []).append(reason)
    reasons = [
        Reason(code, _counted(found, len(completed)), found[0].verdict)
        for code, found in by_code.items()
    ]
    if len(completed) < runs:
        missing = runs - len(completed)
        reasons.append(
            Reason(
                "incomplete-runs",
                f"{missing} of {runs} runs did not complete: the figures rest on the others",
                "suspect",
            )
        )
    return Validity.of(reasons)


def _counted(found: Sequence[Reason], runs: int) -> str:
    if runs == 1:
        return found[0].message
    return f"{len(found)} of {runs} runs: {found[0].message}"
