"""The regression gate: which tested metrics count as worse at each tier and tolerance,
when a baseline is refused, how sweeps pair their points, and the exit status."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tests.analysis.test_significance import run, runs, sweep
from tui_bench.analysis import regression
from tui_bench.analysis.names import Tier
from tui_bench.analysis.regression import (
    Judgement,
    judge,
    pair_sides,
    regressions,
)
from tui_bench.analysis.significance import Side, compare_sides, side_of
from tui_bench.analysis.verdicts import Verdicts
from tui_bench.engine.sweep import SweepFinished
from tui_bench.errors import UsageError
from tui_bench.report.exit_codes import exit_code, sweep_exit_code
from tui_bench.storage.session import Session


def side(count: int, rps: float, **changes: Any) -> Side:
    if count == 1:
        return side_of(Session(run(0, rps, **changes)))
    return side_of(Session(sweep({"": runs(count, rps, **changes)})))


def gate(
    a: Side,
    b: Side,
    tolerance: float = 5.0,
    tier: Tier = "tested",
    *,
    allow: bool = False,
    primary: str = "rps",
) -> Judgement:
    return judge(
        "api@baseline",
        [(a, b)],
        tolerance_pct=tolerance,
        tier=tier,
        allow_setup_change=allow,
        primary=primary,
    )


def test_a_tested_drop_beyond_the_tolerance_fails_and_says_which() -> None:
    found = gate(side(10, 1000), side(10, 800))
    assert found.failed and not found.refused
    assert [r.metric for r in found.regressed] == ["rps"]
    (line,) = found.lines()
    assert line == "regression: req/s -20.0% (1,003 -> 803), worse (tested), beyond 5 %"
    assert exit_code(0, Verdicts(baseline=found)) == 99


def test_a_tested_drop_within_the_tolerance_passes() -> None:
    # Every run of B is 3 % slower than its twin: significant, but within 5 %.
    report = compare_sides(side(10, 1000), side(10, 970))
    assert report.verdict_of("rps").comparison.verdict == "worse"  # type: ignore[union-attr]
    assert regressions(report, 5.0, "tested") == []
    assert [r.metric for r in regressions(report, 2.0, "tested")] == ["rps"]
    assert exit_code(0, Verdicts(baseline=gate(side(10, 1000), side(10, 970)))) == 0


def test_better_is_never_a_regression() -> None:
    assert not gate(side(10, 1000), side(10, 1500)).failed


def test_latency_counts_upwards_when_it_is_the_gated_metric() -> None:
    a, b = side(1, 1000), side(1, 1000, p99=0.020)
    found = gate(a, b, tier="likely", primary="p99_s")
    assert [(r.metric, r.verdict) for r in found.regressed] == [("p99_s", "likely worse")]
    assert found.to_dict(sweep=False)["gate_metric"] == "p99_s"
    # Secondaries are reported, not gated on: with req/s gated the p99 passes.
    assert not gate(a, b, tier="likely").failed


def test_the_likely_tier_gates_single_runs_the_tested_one_refuses_them() -> None:
    a, b = side(1, 1000), side(1, 600)
    assert [r.metric for r in gate(a, b, tier="likely").regressed] == ["rps"]
    refused = gate(a, b, tier="tested")
    assert not refused.failed
    (line,) = refused.lines()
    assert "--verdict tested needs 4 runs a side" in line and "--verdict likely" in line
    assert exit_code(0, Verdicts(baseline=refused)) == 2


def test_an_invalid_baseline_is_refused_even_when_set_up_changes_are_allowed() -> None:
    a = side(1, 1000, status="interrupted")
    found = gate(a, side(1, 500), tier="likely", allow=True)
    assert found.refused and not found.failed
    assert "is invalid" in found.lines()[0]


def test_another_set_up_is_refused_unless_allowed() -> None:
    a, b = side(1, 1000), side(1, 500, connections=20)
    found = gate(a, b, tier="likely")
    assert found.refused and not found.failed
    assert any("set-up differs: flags" in line for line in found.lines())
    assert all("--allow-setup-change" in line for line in found.lines())
    allowed = gate(a, b, tier="likely", allow=True)
    assert allowed.failed and not allowed.refused


def test_without_a_tolerance_it_only_compares() -> None:
    found = judge(
        "r",
        [(side(1, 1000), side(1, 500, connections=20))],
        tolerance_pct=None,
        tier="tested",
        allow_setup_change=False,
    )
    assert not found.refused and not found.failed
    (line,) = found.lines()
    assert line.startswith("against 20260101-120000-000-h2load-run: req/s -50.0% likely worse")
    payload = found.to_dict(sweep=False)
    assert {"a", "b", "metrics", "warnings"} <= payload.keys() and payload["failed"] is False


def test_points_pair_by_name_and_a_missing_one_cannot() -> None:
    base = Session(sweep({"c=10": runs(2, 1000), "c=20": runs(2, 1500)}, name="grid"))
    new = Session(sweep({"c=20": runs(2, 900), "c=10": runs(2, 1000)}, "20260103-120000-000-s"))
    pairs = pair_sides(base, None, new)
    assert [(a.point, b.point) for a, b in pairs] == [("c=20", "c=20"), ("c=10", "c=10")]
    found = judge("grid@-2", pairs, tolerance_pct=5, tier="likely", allow_setup_change=False)
    assert [(r.point, r.metric) for r in found.regressed] == [("c=20", "rps")]
    payload = found.to_dict(sweep=True)
    assert [p["point"] for p in payload["points"]] == ["c=20", "c=10"]
    assert (
        sweep_exit_code(
            SweepFinished(
                "completed", None, Path("s"), Session({"points": []}), Verdicts(baseline=found)
            )
        )
        == 99
    )
    other = Session(sweep({"c=40": runs(2, 900)}, "20260103-120000-000-t"))
    with pytest.raises(UsageError, match="point c=40 of this sweep is not in the baseline"):
        pair_sides(base, None, other)


def test_one_baseline_side_stands_for_every_point_and_a_run_needs_a_point() -> None:
    base = Session(sweep({"c=10": runs(2, 1000), "c=20": runs(2, 1500)}))
    new = Session(sweep({"c=10": runs(2, 900), "c=20": runs(2, 1000)}, "20260103-120000-000-s"))
    pairs = pair_sides(base, "c=10", new)
    assert [(a.point, b.point) for a, b in pairs] == [("c=10", "c=10"), ("c=10", "c=20")]
    with pytest.raises(UsageError, match="name its point, REF@POINT"):
        pair_sides(base, None, Session(run(0, 1000)))


def test_the_run_failing_or_invalid_comes_before_the_baseline() -> None:
    failed = gate(side(10, 1000), side(10, 800))
    assert exit_code(130, Verdicts(baseline=failed)) == 130
    assert exit_code(0, Verdicts(baseline=failed), invalid=True) == 1


# Deciding at the counts each tier accepts


def noisy(count: int, rps: float, seed: int, start: int = 0) -> Side:
    """`count` runs of a plain --repeat sweep, their req/s with 3 % lognormal noise."""
    rng = np.random.default_rng(seed)
    values = rps * rng.lognormal(0.0, 0.03, count)
    return side_of(Session(sweep({"": [run(start + i, v) for i, v in enumerate(values)]})))


@pytest.mark.parametrize("seed", range(5))
def test_four_runs_a_side_find_a_halved_req_s(seed: int) -> None:
    found = gate(noisy(4, 10_000, seed), noisy(4, 5_000, seed + 100, start=10))
    assert not found.refused
    assert [(r.metric, r.verdict, r.tier) for r in found.regressed] == [("rps", "worse", "tested")]
    assert exit_code(0, Verdicts(baseline=found)) == 99


@pytest.mark.parametrize("seed", range(5))
def test_four_runs_a_side_without_a_change_give_no_verdict(seed: int) -> None:
    found = gate(noisy(4, 10_000, seed), noisy(4, 10_000, seed + 100, start=10))
    (report,) = found.reports
    assert report.primary.comparison.verdict == "no difference"
    assert not found.failed and found.lines() == [
        "req/s not worse than the baseline by more than 5 %"
    ]


@pytest.mark.parametrize(
    ("n_a", "n_b", "needs"),
    [(4, 4, False), (10, 4, False), (3, 10, True), (1, 1, True), (4, 3, True)],
)
def test_tested_needs_says_why_before_any_run(n_a: int, n_b: int, needs: bool) -> None:
    # Through the module: pytest would collect a name starting with "test" as a test.
    reason = regression.tested_needs(n_a, n_b)
    if not needs:
        assert reason is None
        return
    assert reason == (
        f"--verdict tested needs 4 runs a side or more (the baseline has {n_a}, this has "
        f"{n_b}): use `tuibench sweep --repeat N` with N of 4 or more, or --verdict likely"
    )


def test_a_gated_metric_nobody_measured_refuses_the_gate() -> None:
    found = gate(side(4, 1000, cpu=None), side(4, 900, cpu=None), primary="server_cpu_pct")
    assert found.refused == ("the baseline has no server CPU: nothing to gate on",)
    assert not found.failed
