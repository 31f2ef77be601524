from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tui_bench.analysis.thresholds import (
    Op,
    Threshold,
    ThresholdVerdict,
    evaluate,
    find_knee,
    meets,
    parse_slo,
    parse_threshold,
)
from tui_bench.errors import UsageError
from tui_bench.result import Requests, Result

# --- grammar -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "metric", "op", "limit"),
    [
        ("p99<50ms", "p99_s", "<", 0.05),
        ("p50<=2ms", "p50_s", "<=", 0.002),
        ("p90>1ms", "p90_s", ">", 0.001),
        ("p75>=250us", "p75_s", ">=", 0.00025),
        ("p99<50µs", "p99_s", "<", 0.00005),  # micro sign
        ("p99<50μs", "p99_s", "<", 0.00005),  # Greek mu
        ("max<1s", "max_s", "<", 1.0),
        ("mean<1.5s", "mean_s", "<", 1.5),
        ("p99.9<3ms", "p99_9_s", "<", 0.003),
        ("p99.99<.5s", "p99_99_s", "<", 0.5),
        ("p99<1e2ms", "p99_s", "<", 0.1),
        ("rps>10000", "rps", ">", 10000.0),
        ("rps>=2.5e4", "rps", ">=", 25000.0),
        ("errors<1%", "error_rate", "<", 0.01),
        ("errors<=0.5%", "error_rate", "<=", 0.005),
        ("error_rate<0.01", "error_rate", "<", 0.01),
        ("error_rate<2%", "error_rate", "<", 0.02),
        ("errors<0", "error_rate", "<", 0.0),
        # A result key names its unit: a bare number is seconds, a unit still converts.
        ("p99_s<0.05", "p99_s", "<", 0.05),
        ("p99_9_s<=0.1", "p99_9_s", "<=", 0.1),
        ("max_s<2", "max_s", "<", 2.0),
        ("mean_s<20ms", "mean_s", "<", 0.02),
        # Spaces and case do not matter.
        ("  P99 <  50 MS ", "p99_s", "<", 0.05),
        ("RPS>=1", "rps", ">=", 1.0),
    ],
)
def test_parse(text: str, metric: str, op: Op, limit: float) -> None:
    threshold = parse_threshold(text)
    assert threshold == Threshold(text=text.strip(), metric=metric, op=op, limit=limit)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "expected METRIC OP NUMBER[UNIT]"),
        ("p99", "expected METRIC OP NUMBER[UNIT]"),
        ("p99<", "expected METRIC OP NUMBER[UNIT]"),
        ("p99=5ms", "expected METRIC OP NUMBER[UNIT]"),
        ("p99<<5ms", "expected METRIC OP NUMBER[UNIT]"),
        ("p99<-5ms", "expected METRIC OP NUMBER[UNIT]"),
        ("p99<5 ms extra", "expected METRIC OP NUMBER[UNIT]"),
        ("<5ms", "expected METRIC OP NUMBER[UNIT]"),
        ("p99<nanms", "expected METRIC OP NUMBER[UNIT]"),
        ("p99<50", "p99 needs a unit (us, ms or s)"),
        ("max<3", "max needs a unit (us, ms or s)"),
        ("p99<50sec", "p99 needs us, ms or s, not 'sec'"),
        ("p99<5%", "p99 needs us, ms or s, not '%'"),
        ("p99<1e999s", "1e999 is not a finite number"),
        ("rps>10k", "rps takes a plain number, not 'k'"),
        ("rps>10%", "rps takes a plain number, not '%'"),
        ("errors<1ms", "an error rate is a fraction or a percentage, not 'ms'"),
        ("errors<150%", "an error rate is a fraction from 0 to 1"),
        ("error_rate<5", "an error rate is a fraction from 0 to 1"),
        ("latency<5ms", "unknown metric 'latency'"),
        ("p99.9.9<1s", "unknown metric 'p99.9.9'"),
        ("p100<1s", "strictly between p0 and p100, not p100"),
        ("p0<1s", "strictly between p0 and p100, not p0"),
        ("p0.00000001<1s", "finer than a millionth of a percent"),
    ],
)
def test_bad_thresholds_say_why_on_one_line(text: str, reason: str) -> None:
    with pytest.raises(UsageError) as caught:
        parse_threshold(text)
    message = str(caught.value)
    assert message.startswith(f"bad threshold {text.strip()!r}: ")
    assert reason in message
    assert "\n" not in message


def test_slo() -> None:
    assert parse_slo("p99<50ms, errors<1%") == [
        Threshold("p99<50ms", "p99_s", "<", 0.05),
        Threshold("errors<1%", "error_rate", "<", 0.01),
    ]
    assert parse_slo("rps>1") == [Threshold("rps>1", "rps", ">", 1.0)]


@pytest.mark.parametrize("text", ["", "p99<50ms,", ",p99<50ms", "p99<50ms,,errors<1%", " , "])
def test_slo_with_an_empty_clause(text: str) -> None:
    with pytest.raises(UsageError, match=r"^bad SLO .*: an empty clause"):
        parse_slo(text)


def test_a_bad_clause_of_an_slo_is_named() -> None:
    with pytest.raises(UsageError, match=r"^bad threshold 'p99<50': p99 needs a unit"):
        parse_slo("errors<1%,p99<50")


@given(st.text())
def test_parse_raises_nothing_but_usage_errors(text: str) -> None:
    try:
        threshold = parse_threshold(text)
    except UsageError as error:
        assert "\n" not in str(error)
    else:
        assert math.isfinite(threshold.limit) and threshold.limit >= 0


_LOOKS_RIGHT = st.builds(
    lambda metric, space1, op, number, space2, unit: f"{metric}{space1}{op}{number}{space2}{unit}",
    st.one_of(
        st.sampled_from(["p50", "p99.9", "max", "mean_s", "rps", "errors", "error_rate"]),
        st.from_regex(r"p[0-9]{1,4}([._][0-9]{1,8})?(_s)?", fullmatch=True),
    ),
    st.sampled_from(["", " "]),
    st.sampled_from(["<", "<=", ">", ">=", "=", "=<"]),
    st.one_of(
        st.floats(min_value=0, allow_nan=False).map(repr),
        st.from_regex(r"[0-9]{0,400}(\.[0-9]*)?(e[+-]?[0-9]{1,5})?", fullmatch=True),
    ),
    st.sampled_from(["", " "]),
    st.sampled_from(["", "us", "µs", "ms", "s", "%", "m", "k"]),
)


@given(_LOOKS_RIGHT)
def test_parse_of_nearly_right_text_raises_nothing_but_usage_errors(text: str) -> None:
    try:
        threshold = parse_threshold(text)
    except UsageError:
        return
    assert math.isfinite(threshold.limit) and threshold.limit >= 0
    assert threshold.metric in {"rps", "error_rate", "max_s", "mean_s"} or (
        threshold.metric.startswith("p") and threshold.metric.endswith("_s")
    )


@given(st.integers(min_value=0, max_value=10**9))
def test_units_scale_like_the_results_do(us: int) -> None:
    # The results hold us / 1e6: a limit written in µs must compare equal to it.
    seconds = us / 1_000_000
    assert parse_threshold(f"p99<={us}us").limit == seconds
    assert parse_threshold(f"p99<={us / 1000!r}ms").limit == pytest.approx(seconds)


# --- evaluate ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "actual", "passed"),
    [
        ("p99<50ms", 0.049, True),
        ("p99<50ms", 0.05, False),
        ("p99<=50ms", 0.05, True),
        ("p99<=50ms", 0.0501, False),
        ("rps>10000", 10000.0, False),
        ("rps>10000", 10001.0, True),
        ("rps>=10000", 10000.0, True),
        ("rps>=10000", 9999.0, False),
        ("p99<=50us", 50 / 1_000_000, True),
    ],
)
def test_each_op_at_its_boundary(text: str, actual: float, passed: bool) -> None:
    threshold = parse_threshold(text)
    [result] = evaluate([threshold], {threshold.metric: actual})
    assert result.passed is passed
    assert result.actual == actual
    assert result.reason is None


def test_evaluate_reports_every_threshold_in_order() -> None:
    thresholds = [parse_threshold(t) for t in ("p99<50ms", "rps>10000", "errors<1%")]
    values = {"p99_s": 0.042, "rps": 9000.0, "error_rate": 0.0}
    assert evaluate(thresholds, values) == [
        ThresholdVerdict("p99<50ms", "p99_s", "<", 0.05, 0.042, True),
        ThresholdVerdict("rps>10000", "rps", ">", 10000.0, 9000.0, False),
        ThresholdVerdict("errors<1%", "error_rate", "<", 0.01, 0.0, True),
    ]
    assert not meets(thresholds, values)
    assert meets(thresholds[::2], values)


@pytest.mark.parametrize("values", [{}, {"p99_9_s": None}, {"p99_9_s": math.nan}])
def test_a_value_that_was_not_measured_fails_and_says_so(values: dict[str, float | None]) -> None:
    [result] = evaluate([parse_threshold("p99.9<1s")], values)
    assert result.passed is False
    assert result.actual is None
    assert result.reason == "no p99_9_s was measured"


# --- knee --------------------------------------------------------------------------------

SLO = "p99<50ms,errors<1%"


def point(
    rps: float | None, p99_s: float | None, error_rate: float = 0.0
) -> dict[str, float | None]:
    return {"rps": rps, "p99_s": p99_s, "error_rate": error_rate}


def test_knee_is_the_fastest_point_within_the_slo() -> None:
    sweep = [
        point(1000, 0.005),
        point(4000, 0.012),
        point(9000, 0.045),
        point(9500, 0.080),  # faster, but its p99 breaks the SLO
        point(7000, 0.300, error_rate=0.2),
    ]
    assert find_knee(sweep, parse_slo(SLO)) == 2


def test_knee_is_not_bound_to_the_order_of_the_points() -> None:
    sweep = [point(9000, 0.045), point(1000, 0.005), point(9800, 0.049, error_rate=0.02)]
    assert find_knee(sweep, parse_slo(SLO)) == 0


def test_no_knee_when_no_point_meets_the_slo() -> None:
    sweep = [point(1000, 0.060), point(2000, 0.070, error_rate=0.5)]
    assert find_knee(sweep, parse_slo(SLO)) is None
    assert find_knee([], parse_slo(SLO)) is None


def test_knee_skips_points_without_rps_or_with_a_missing_slo_value() -> None:
    sweep = [point(None, 0.001), point(3000, None), point(2000, 0.010)]
    assert find_knee(sweep, parse_slo(SLO)) == 2


def test_knee_prefers_the_earlier_point_on_equal_rps() -> None:
    sweep = [point(5000, 0.030), point(5000, 0.010)]
    assert find_knee(sweep, parse_slo(SLO)) == 0


# --- error_rate --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("requests", "rate"),
    [
        (Requests(total=1000, succeeded=990, failed=10), 0.01),
        (Requests(total=1000, succeeded=1000, failed=0), 0.0),
        (Requests(total=400, succeeded=0, failed=400), 1.0),
        (Requests(total=0, succeeded=0), None),
        (Requests(total=100, succeeded=None), None),
        (Requests(total=None, succeeded=5), None),
    ],
)
def test_error_rate(requests: Requests, rate: float | None) -> None:
    assert Result(tool="h2load", requests=requests).error_rate == rate
