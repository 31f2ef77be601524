"""Pass/fail limits on a run's numbers (`--threshold 'p99<50ms'`), SLOs (`--slo
'p99<50ms,errors<1%'`) and the knee of a sweep: the highest throughput that meets its SLO.

Grammar of one clause: METRIC OP NUMBER [UNIT], spaces allowed between the parts.
- METRIC: `p50`, `p99.9`, … (any percentile strictly between 0 and 100), `max`, `mean`, `rps`,
  `errors`; or a result key itself: `p99_s`, `p99_9_s`, `max_s`, `mean_s`, `error_rate`.
- OP: `<`, `<=`, `>`, `>=`.
- UNIT: latencies take `us` (or `µs`), `ms` or `s`, and need one unless the metric is
  written as its key (`p99_s<0.05`, whose name says seconds); error rates are a fraction
  (`error_rate<0.01`) or a percentage (`errors<1%`); `rps` takes a plain number.
Limits are stored in the result key's own unit: seconds, a fraction, requests per second.
"""

from __future__ import annotations

import math
import operator
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal, cast

from tui_bench.errors import UsageError
from tui_bench.records.threshold import ThresholdVerdict
from tui_bench.result import percentile_key, percentile_of_key

Op = Literal["<", "<=", ">", ">="]
_OPS: dict[Op, Callable[[float, float], bool]] = {
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
}

_CLAUSE = re.compile(
    r"\s*(?P<metric>[a-z][a-z0-9_.]*)\s*(?P<op><=|>=|<|>)\s*"
    r"(?P<number>(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:e[+-]?[0-9]+)?)\s*(?P<unit>[a-zµμ%]*)\s*"
)
_PERCENTILE = re.compile(r"p(?P<whole>[0-9]+)(?:[._](?P<frac>[0-9]+))?(?P<key>_s)?")
_SHAPE = "expected METRIC OP NUMBER[UNIT], like p99<50ms, rps>10000 or errors<1%"
_METRICS = "p50, p90, p99, p99.9, max, mean, rps, errors"

# Written units per second. Dividing (not multiplying by 1e-6) gives the same float the
# results hold, so `p99<=50us` passes a p99 of exactly 50 µs. The micro sign and the Greek
# mu look the same: both are taken.
_PER_SECOND = {"us": 1e6, "µs": 1e6, "μs": 1e6, "ms": 1e3, "s": 1.0}
_TIME_KEYS = {"max": "max_s", "mean": "mean_s"}
_RATE_NAMES = ("errors", "error_rate")


@dataclass(frozen=True)
class Threshold:
    """One clause: `metric` is the result key (p99_s, rps, error_rate), `limit` is in that
    key's unit (seconds, req/s, a fraction)."""

    text: str
    metric: str
    op: Op
    limit: float

    def holds(self, actual: float) -> bool:
        return _OPS[self.op](actual, self.limit)


def parse_threshold(text: str) -> Threshold:
    """One clause; UsageError with a one-line reason naming `text` when it is not one."""
    match = _CLAUSE.fullmatch(text.lower())
    if match is None:
        raise _bad(text, _SHAPE)
    metric, unit = match["metric"], match["unit"]
    op = cast(Op, match["op"])  # the pattern admits only the four
    number = float(match["number"])
    if not math.isfinite(number):
        raise _bad(text, f"{match['number']} is not a finite number")
    key, per_unit = _resolve(text, metric, unit)
    limit = number / per_unit
    if key == "error_rate" and limit > 1:
        raise _bad(text, "an error rate is a fraction from 0 to 1 (or 0% to 100%)")
    return Threshold(text=text.strip(), metric=key, op=op, limit=limit)


def _resolve(text: str, metric: str, unit: str) -> tuple[str, float]:
    """(result key, how many written units make one of the key's unit)."""
    if metric == "rps":
        if unit:
            raise _bad(text, f"rps takes a plain number, not {unit!r}")
        return "rps", 1.0
    if metric in _RATE_NAMES:
        if unit not in ("", "%"):
            raise _bad(text, f"an error rate is a fraction or a percentage, not {unit!r}")
        return "error_rate", 100.0 if unit == "%" else 1.0
    key, written_as_key = _time_key(text, metric)
    if not unit and written_as_key:
        return key, 1.0
    if unit not in _PER_SECOND:
        need = "a unit (us, ms or s)" if not unit else f"us, ms or s, not {unit!r}"
        raise _bad(text, f"{metric} needs {need}")
    return key, _PER_SECOND[unit]


def _time_key(text: str, metric: str) -> tuple[str, bool]:
    """(result key of a latency metric, whether it was written as that key)."""
    if metric in _TIME_KEYS:
        return _TIME_KEYS[metric], False
    if metric in _TIME_KEYS.values():
        return metric, True
    match = _PERCENTILE.fullmatch(metric)
    if match is None:
        raise _bad(text, f"unknown metric {metric!r} (try {_METRICS})")
    q = float(match["whole"] + "." + (match["frac"] or "0"))
    if not 0 < q < 100:
        raise _bad(text, f"a percentile lies strictly between p0 and p100, not {metric}")
    key = percentile_key(q)
    if percentile_of_key(key) != q:
        raise _bad(text, f"{metric} is finer than a millionth of a percent")
    return key, match["key"] is not None


def parse_slo(text: str) -> list[Threshold]:
    """A comma-separated list of clauses (`p99<50ms,errors<1%`)."""
    clauses = text.split(",")
    if any(not clause.strip() for clause in clauses):
        raise UsageError(f"bad SLO {text!r}: an empty clause (a stray comma?)")
    return [parse_threshold(clause) for clause in clauses]


def _bad(text: str, reason: str) -> UsageError:
    return UsageError(f"bad threshold {text.strip()!r}: {reason}")


def evaluate(
    thresholds: Sequence[Threshold], values: Mapping[str, float | None]
) -> list[ThresholdVerdict]:
    """Check each threshold against `values` (result keys to numbers); a missing or
    non-finite value fails the threshold."""
    results = []
    for threshold in thresholds:
        actual = values.get(threshold.metric)
        if actual is not None and not math.isfinite(actual):
            actual = None
        results.append(
            ThresholdVerdict(
                text=threshold.text,
                metric=threshold.metric,
                op=threshold.op,
                limit=threshold.limit,
                actual=actual,
                passed=actual is not None and threshold.holds(actual),
                reason=None if actual is not None else f"no {threshold.metric} was measured",
            )
        )
    return results


def meets(thresholds: Sequence[Threshold], values: Mapping[str, float | None]) -> bool:
    return all(result.passed for result in evaluate(thresholds, values))


def find_knee(
    points: Sequence[Mapping[str, float | None]], slo: Sequence[Threshold], by: str = "rps"
) -> int | None:
    """Index of the point with the highest `by` (req/s; a rate sweep's rate) among those
    meeting every clause of `slo`; None when none does. On equal values the earlier wins."""
    best: int | None = None
    best_value = -math.inf
    for index, values in enumerate(points):
        value = values.get(by)
        if value is None or not math.isfinite(value) or not meets(slo, values):
            continue
        if value > best_value:
            best, best_value = index, value
    return best
