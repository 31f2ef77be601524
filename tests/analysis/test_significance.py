"""Sides and reports of `tuibench compare`: single runs, sweeps with repeats, two points of
one sweep, set-up differences and the correction for testing many metrics at once.

The builders here (`run`, `sweep`) make the synthetic sessions the CLI and screen tests use.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from tests.analysis.test_compare import doc, result
from tui_bench.analysis.significance import (
    FAMILY,
    TESTED,
    Side,
    compare_sides,
    fmt_ci,
    fmt_p,
    median_deltas,
    side_of,
)
from tui_bench.errors import UsageError
from tui_bench.report.comparison import report_markdown
from tui_bench.result import Distribution
from tui_bench.storage.refs import split_ref
from tui_bench.storage.session import SCHEMA, Session
from tui_bench.storage.session_file import check

CONTRACT_KEYS = {
    "name",
    "unit",
    "direction",
    "a",
    "b",
    "delta_pct",
    "ci_low_pct",
    "ci_high_pct",
    "p_value",
    "p_adjusted",
    "n_a",
    "n_b",
    "verdict",
    "tier",
    "role",
}


def run(
    i: int,
    rps: float,
    *,
    p99: float = 0.010,
    cpu: float | None = 50.0,
    connections: int = 10,
    status: str = "completed",
) -> dict[str, Any]:
    """A run of h2load -c `connections` (test_compare's), its noise a fixed function of `i`:
    within ±2 % on rps, p50, p99 and server CPU (None: not sampled)."""
    wobble = 1 + 0.02 * math.sin(i * 2.4)
    argv = list(doc()["argv"])
    argv[argv.index("-c") + 1] = str(connections)
    latency = Distribution(
        min_s=0.0001,
        max_s=0.050,
        mean_s=0.004,
        percentiles={"p50_s": 0.003 * wobble, "p90_s": 0.008 * wobble, "p99_s": p99 * wobble},
    )
    return doc(
        id=f"20260101-120000-{i:03d}-h2load-run",
        name=f"run {i}",
        status=status,
        spec={**doc()["spec"], "connections": connections},
        argv=argv,
        resources={"server_cpu_mean_pct": None if cpu is None else cpu * wobble},
        # Without CPU: no series to fall back on either.
        series=doc()["series"] if cpu is not None else [],
        result=result(rps=rps * wobble, latency=latency),
    )


def runs(count: int, rps: float, start: int = 0, **changes: Any) -> list[dict[str, Any]]:
    return [run(start + i, rps, **changes) for i in range(count)]


def sweep(
    points: Mapping[str, Sequence[dict[str, Any]]],
    sweep_id: str = "20260102-120000-000-sweep-s",
    name: str = "",
) -> dict[str, Any]:
    """A sweep document of `points` (name -> its runs), interleaved as a sweep runs them:
    round by round, every other round backwards."""
    names = list(points)
    first = points[names[0]][0]
    rounds = max(len(r) for r in points.values())
    entries: list[dict[str, Any]] = []
    for repeat in range(rounds):
        forth = list(enumerate(names))
        for index, point in forth if repeat % 2 == 0 else reversed(forth):
            if repeat < len(points[point]):
                session = points[point][repeat]
                entry = {"point": index, "repeat": repeat, "session": session}
                entries.append({"slot": len(entries), **entry})
    document = {
        **{key: first[key] for key in ("spec", "argv", "tool", "host", "server", "started_at")},
        "schema": SCHEMA,
        "version": 1,
        "id": sweep_id,
        "name": name,
        "kind": "sweep",
        "status": "completed",
        "series": [],
        "result": None,
        "sweep": {
            "repeat": rounds,
            "points": [
                {"index": i, "name": point, "label": None, "values": {}}
                for i, point in enumerate(names)
            ],
            "order": [[e["point"], e["repeat"]] for e in entries],
        },
        "runs": entries,
    }
    check(document, "test")
    return document


def repeated(count: int, rps: float, start: int = 0, **changes: Any) -> Side:
    """The side of a plain `--repeat count` sweep."""
    return side_of(Session(sweep({"": runs(count, rps, start, **changes)})))


def verdicts(a: Side, b: Side) -> dict[str, Any]:
    return {m.metric.name: m.comparison for m in compare_sides(a, b).metrics}


# Sides


def test_a_single_run_is_a_side_of_one() -> None:
    session = Session(run(0, 1000))
    side = side_of(session)
    assert side.runs == (session,) and side.shown is session
    assert side.point is None and not side.is_point and side.label == session.id
    assert side.runs_label == "1 run"
    with pytest.raises(UsageError, match="is a single run: it has no point 'c=10'"):
        side_of(session, "c=10")


def test_a_sweep_of_one_point_needs_no_point() -> None:
    session = Session(sweep({"": runs(5, 1000)}))
    side = side_of(session)
    assert side.is_point and side.point is None and side.label == session.id
    assert len(side.runs) == 5 and side.runs_label == "5 runs"
    assert side.shown.id == "20260101-120000-000-h2load-run", "the first run stands for it"


def test_points_by_name_or_number_from_1() -> None:
    session = Session(sweep({"c=10": runs(3, 1000), "c=20": runs(3, 1200, start=10)}))
    by_name, by_number = side_of(session, "c=20"), side_of(session, "2")
    assert by_name.point == by_number.point == "c=20"
    assert by_name.label == "20260102-120000-000-sweep-s@c=20"
    assert [r.id for r in by_name.runs] == [r.id for r in by_number.runs]
    assert all(r.result and r.result.rps and r.result.rps > 1100 for r in by_name.runs)
    assert side_of(session, "1").point == "c=10"


def test_a_sweep_of_several_points_without_one_lists_the_choices() -> None:
    session = Session(sweep({"c=10": runs(2, 1000), "c=20": runs(2, 1000, start=10)}))
    with pytest.raises(UsageError) as error:
        side_of(session)
    message = str(error.value)
    assert "is a sweep of 2 points: add @POINT, one of c=10, c=20 (or its number, 1-2)" in message
    assert "\n" not in message
    for bad in ("c=30", "3", "0"):
        with pytest.raises(UsageError, match=f"has no point '{bad}': its points are c=10, c=20"):
            side_of(session, bad)


def test_runs_that_did_not_complete_are_left_out_and_said() -> None:
    failed = run(9, 10, status="failed")
    side = side_of(Session(sweep({"": [failed, *runs(4, 1000)]})))
    assert len(side.runs) == 4 and side.left_out == 1
    assert side.runs_label == "4 runs, 1 left out"
    assert side.shown.id != failed["id"], "the first completed run stands for the point"
    report = compare_sides(side, repeated(4, 1000, start=20))
    assert "A: 1 of 5 runs did not complete and are left out" in report.notes


@pytest.mark.parametrize(
    ("ref", "files", "expected"),
    [
        ("20260102-120000", set(), ("20260102-120000", None)),
        ("20260102@c=200", set(), ("20260102", "c=200")),
        ("20260102@legacy c=200 m=10", set(), ("20260102", "legacy c=200 m=10")),
        ("/tmp/a@b/s.json", {"/tmp/a@b/s.json"}, ("/tmp/a@b/s.json", None)),
        ("/tmp/a@b/s.json@2", {"/tmp/a@b/s.json"}, ("/tmp/a@b/s.json", "2")),
        ("s.json@url=http://u@h/", {"s.json"}, ("s.json", "url=http://u@h/")),
        ("missing@x", set(), ("missing", "x")),
    ],
)
def test_split_ref(ref: str, files: set[str], expected: tuple[str, str | None]) -> None:
    assert split_ref(ref, files.__contains__) == expected


# Reports


def test_single_runs_give_the_delta_but_no_verdict() -> None:
    a, b = side_of(Session(run(0, 1000))), side_of(Session(run(0, 1100)))
    report = compare_sides(a, b)
    rps = report.verdict_of("rps")
    assert rps is not None
    c = rps.comparison
    assert c.verdict == "insufficient data" and (c.n_a, c.n_b) == (1, 1)
    assert c.delta_pct == pytest.approx(10.0)
    assert c.ci_low_pct is None and c.p_value is None and c.p_adjusted is None
    assert all(m.comparison.verdict == "insufficient data" for m in report.metrics)
    assert report.notes == (
        "fewer than 4 runs a side (A has 1, B has 1): no tested verdict; 'likely "
        "better/worse' only where every run of one side is beyond every run of the other by "
        "15 % or more (25 % with one run a side), run-to-run noise not measured; repeat runs "
        "with `tuibench sweep --repeat N` for a tested one",
    ), "nothing was tested: no correction to speak of"
    assert report.to_dict()["metrics"][0]["tier"] is None


def test_ten_runs_a_side_and_ten_percent_more_req_s_is_better() -> None:
    report = compare_sides(repeated(10, 10_000), repeated(10, 11_000, start=10))
    by_name = {m.metric.name: m.comparison for m in report.metrics}
    rps = by_name["rps"]
    assert rps.verdict == "better" and (rps.n_a, rps.n_b) == (10, 10)
    assert rps.delta_pct == pytest.approx(10.0, abs=1.5)
    assert rps.ci_low_pct is not None and rps.ci_high_pct is not None
    assert 0 < rps.ci_low_pct < 10 < rps.ci_high_pct < 20
    assert rps.p_adjusted is not None and rps.p_value is not None
    assert rps.p_value <= rps.p_adjusted < 0.05
    for name in ("p50_s", "p90_s", "p99_s", "server_cpu_pct"):
        assert by_name[name].verdict == "no difference", name
    assert by_name["error_rate"].verdict == "no difference"
    assert by_name["error_rate"].delta_pct == 0.0
    note = next(n for n in report.notes if "Holm" in n)
    assert note.startswith("req/s is the primary metric: tested alone, its verdict at p < 0.05")
    assert "the 5 secondary metrics are adjusted among themselves by Holm–Bonferroni" in note
    assert not report.differences, "the same set-up on both sides"


def test_higher_latency_is_worse_and_lower_cpu_is_better() -> None:
    found = verdicts(repeated(8, 10_000), repeated(8, 10_000, start=8, p99=0.013, cpu=40.0))
    assert found["p99_s"].verdict == "worse" and found["p99_s"].delta_pct > 20
    assert found["server_cpu_pct"].verdict == "better"
    assert found["rps"].verdict == "no difference"


def test_swapping_the_sides_turns_better_into_worse() -> None:
    a, b = repeated(10, 10_000), repeated(10, 11_000, start=10)
    assert verdicts(a, b)["rps"].verdict == "better"
    assert verdicts(b, a)["rps"].verdict == "worse"


def test_two_points_of_one_sweep_differ_in_their_set_up() -> None:
    session = Session(
        sweep(
            {
                "c=10": runs(6, 10_000, connections=10),
                "c=20": runs(6, 12_000, start=10, connections=20),
            }
        )
    )
    report = compare_sides(side_of(session, "c=10"), side_of(session, "c=20"))
    assert report.verdict_of("rps") is not None
    assert {m.comparison.verdict for m in report.metrics if m.metric.name == "rps"} == {"better"}
    assert "set-up differs: connections: 10 (A) vs 20 (B)" in report.warnings
    flags = next(w for w in report.warnings if w.startswith("set-up differs: flags"))
    assert "-c 10" in flags and "-c 20" in flags
    described = report.to_dict()
    assert described["a"]["point"] == "c=10" and described["b"]["point"] == "c=20"
    assert described["a"]["session"] == described["b"]["session"] == session.id
    assert described["a"]["kind"] == "sweep" and described["a"]["runs"] == 6


def test_set_up_differences_come_first_in_the_warnings() -> None:
    a = repeated(4, 1000)
    b = side_of(Session(sweep({"": runs(4, 1000, connections=40)}, "20260103-120000-000-sweep")))
    warnings = compare_sides(a, b).warnings
    assert warnings[0] == "set-up differs: connections: 10 (A) vs 40 (B)"
    assert any("Holm" in w for w in warnings)


def test_the_primary_decides_at_four_runs_a_side_the_secondaries_say_they_cannot() -> None:
    # Four runs a side, completely apart: p = 2/70 ≈ 0.029, under 0.05 for the primary
    # tested alone; the five secondaries share their own Holm family, where 0.029 × 5 is not.
    report = compare_sides(repeated(4, 10_000, p99=0.010), repeated(4, 12_000, 10, p99=0.020))
    rps, p99 = report.verdict_of("rps"), report.verdict_of("p99_s")
    assert rps is not None and p99 is not None
    assert rps.primary and report.primary is rps
    assert rps.comparison.p_value == rps.comparison.p_adjusted == pytest.approx(2 / 70)
    assert rps.comparison.verdict == "better"
    assert p99.comparison.p_value == pytest.approx(2 / 70)
    assert p99.comparison.verdict == "no difference"
    holm = next(n for n in report.notes if "Holm" in n)
    assert holm.endswith("1 significant before adjustment, not after")
    assert (
        "with 4 and 4 runs the 5 secondary metrics cannot reach a tested verdict after their "
        "adjustment (at best p 0.029 × 5); 5 runs a side can" in report.notes
    )


def test_secondaries_are_adjusted_among_themselves_only() -> None:
    a, b = repeated(6, 10_000, p99=0.010), repeated(6, 10_300, 10, p99=0.013)
    report = compare_sides(a, b)
    by_name = {m.metric.name: m.comparison for m in report.metrics}
    secondary = {n: c for n, c in by_name.items() if n != "rps" and c.p_value is not None}
    assert len(secondary) == 5
    # Holm over the five secondaries alone: the smallest p is multiplied by 5, not 6.
    smallest = min(secondary.values(), key=lambda c: c.p_value or 1.0)
    assert smallest.p_value is not None
    assert smallest.p_adjusted == pytest.approx(min(1.0, 5 * smallest.p_value))
    assert by_name["rps"].p_adjusted == by_name["rps"].p_value


def test_another_primary_is_tested_alone_and_req_s_joins_the_secondaries() -> None:
    report = compare_sides(
        repeated(4, 10_000, p99=0.010), repeated(4, 12_000, 10, p99=0.020), primary="p99_s"
    )
    assert [m.metric.name for m in report.metrics][:2] == ["p99_s", "rps"]
    assert report.primary.comparison.verdict == "worse"
    rps = report.verdict_of("rps")
    assert rps is not None and rps.comparison.verdict == "no difference"
    assert report.to_dict()["primary"] == "p99_s"
    assert next(n for n in report.notes if "Holm" in n).startswith("p99 is the primary metric")


def test_a_metric_outside_the_family_can_be_primary() -> None:
    report = compare_sides(repeated(4, 10_000), repeated(4, 12_000, 10), primary="good_rps")
    names = [m.metric.name for m in report.metrics]
    assert names == ["good_rps", *TESTED]
    assert report.primary.comparison.verdict == "better"
    with pytest.raises(UsageError, match="no metric 'nope'"):
        compare_sides(repeated(4, 1), repeated(4, 1), primary="nope")


def test_every_metric_of_the_family_is_listed_even_unknown() -> None:
    report = compare_sides(repeated(5, 1000, cpu=None), repeated(5, 1000, start=5, cpu=None))
    assert [m.metric.name for m in report.metrics] == list(TESTED)
    cpu = report.verdict_of("server_cpu_pct")
    assert cpu is not None
    assert (cpu.comparison.n_a, cpu.comparison.n_b) == (0, 0)
    assert cpu.comparison.verdict == "insufficient data"
    assert "the 4 secondary metrics are adjusted" in next(n for n in report.notes if "Holm" in n)


def test_the_json_has_the_contract_keys() -> None:
    payload = compare_sides(repeated(5, 1000), repeated(5, 1100, start=5)).to_dict()
    assert set(payload) == {"a", "b", "primary", "adjustment", "alpha", "metrics", "warnings"}
    assert payload["primary"] == "rps"
    assert payload["adjustment"] == {"primary": "none", "secondary": "holm"}
    assert [m["role"] for m in payload["metrics"]] == ["primary"] + ["secondary"] * 5
    names = [m["name"] for m in payload["metrics"]]
    assert {"rps", "p50_s", "p99_s", "error_rate", "server_cpu_pct"} <= set(names)
    for metric in payload["metrics"]:
        assert set(metric) == CONTRACT_KEYS
        assert metric["verdict"] in ("better", "worse", "no difference", "insufficient data")
    rps = payload["metrics"][0]
    assert (rps["unit"], rps["direction"]) == ("req/s", "higher")
    assert rps["a"] < rps["b"], "a and b are the sides' medians"
    assert payload["a"]["runs"] == payload["b"]["runs"] == 5


def test_median_deltas_take_the_medians_of_the_runs() -> None:
    a = repeated(3, 1000)
    b = side_of(Session(sweep({"": [run(10, 900), run(11, 5000), run(12, 1200)]})))
    deltas = {d.name: d for d in median_deltas(a, b)}
    wobble = [1 + 0.02 * math.sin(i * 2.4) for i in (10, 11, 12)]
    # good req/s is rps times the success share (99 %), never tested.
    assert "good_rps" not in TESTED
    b_rps = sorted(r * w for r, w in zip((900, 5000, 1200), wobble, strict=True))[1]
    assert deltas["good_rps"].b == pytest.approx(b_rps * 0.99)
    assert deltas["rps"].b == pytest.approx(b_rps), "one run far off does not move the median"
    single = {d.name: d for d in median_deltas(side_of(Session(run(0, 1000))), a)}
    assert single["rps"].a == pytest.approx(1000 * (1 + 0.02 * math.sin(0)))


def test_family_is_a_subset_of_the_catalogue() -> None:
    assert [m.name for m in FAMILY] == list(TESTED)


# Words


@pytest.mark.parametrize(
    ("low", "high", "text"),
    [
        (-20.14, 9.43, "-20…+9.4%"),
        (373.8, 540.2, "+374…+540%"),
        (0.0, -0.01, "0…0%"),
        (None, 3.0, "–"),
    ],
)
def test_fmt_ci(low: float | None, high: float | None, text: str) -> None:
    assert fmt_ci(low, high) == text


def test_fmt_p() -> None:
    assert [fmt_p(p) for p in (None, 0.0004, 0.0476, 1.0)] == ["–", "<0.001", "0.048", "1.000"]


def test_the_markdown_report() -> None:
    a = repeated(10, 10_000)
    b = side_of(Session(sweep({"": runs(10, 11_000, 10, connections=20)}, name="after")))
    text = report_markdown(compare_sides(a, b))
    assert text.startswith("# after against 20260102-120000-000-sweep-s\n")
    assert "- A: 20260102-120000-000-sweep-s, 10 runs, " in text
    row = next(line for line in text.splitlines() if line.startswith("| req/s (primary) |"))
    assert "| 10/10 |" in row and row.endswith("| better |")
    assert "- req/s is the primary metric: tested alone" in text
    assert "## Not tested: the change of the medians" in text
    assert "| good req/s |" in text and "| good req/s | 10/10" not in text
    assert "| connections | 10 | 20 |" in text
    assert "## Tested, run by run" in text
    single = report_markdown(compare_sides(side_of(Session(run(0, 1))), a))
    assert "| req/s (primary) | 1/10 |" in single and "fewer than 4 runs a side (A has 1)" in single
    # Nothing was tested: the table says what it holds.
    assert "## Run by run (too few runs to test)" in single and "## Tested" not in single


def test_two_runs_a_side_have_a_noise_but_too_little_to_test() -> None:
    report = compare_sides(repeated(2, 10_000), repeated(2, 10_100, start=2))
    (few,) = [note for note in report.notes if note.startswith("fewer than 4 runs")]
    assert "too few runs to test a change against their run-to-run noise" in few
    assert "not measured" not in few


def test_a_lower_server_cpu_at_fewer_req_s_is_said_per_request() -> None:
    # B serves 40 % fewer req/s at 30 % less CPU: lower CPU, but more of it per request.
    report = compare_sides(repeated(2, 10_000, cpu=60.0), repeated(2, 6_000, start=2, cpu=42.0))
    cpu = report.verdict_of("server_cpu_pct")
    assert cpu is not None and cpu.comparison.verdict == "likely better"
    (note,) = [n for n in report.notes if n.startswith("server CPU moved with req/s")]
    assert "its 'likely better' is not a cost per request" in note
    assert "A 6.00 %, B 7.00 % per 1,000 req/s" in note
    # The same CPU for more work is no such case.
    same = compare_sides(repeated(2, 10_000, cpu=60.0), repeated(2, 14_000, start=2, cpu=42.0))
    assert not [n for n in same.notes if "moved with req/s" in n]


def test_an_interrupted_invalid_or_much_shorter_side_is_said() -> None:
    a = side_of(Session(run(0, 40_000.0)))
    stopped = side_of(Session(run(1, 40_000.0, status="interrupted")))
    report = compare_sides(a, stopped)
    assert report.to_dict()["b"]["validity"]["verdict"] == "invalid"
    assert any(w.startswith("B is invalid: stopped before the end") for w in report.warnings)
    assert report.to_dict()["a"]["validity"] == {"verdict": "valid", "reasons": []}
    short_doc = run(2, 40_000.0)
    short_doc["result"] = {**short_doc["result"], "duration_s": 2.0}
    short = compare_sides(a, side_of(Session(short_doc)))
    assert any(w.startswith("B measured 2 s, the other 10 s") for w in short.warnings)
    fair = compare_sides(a, side_of(Session(run(3, 41_000.0))))
    unfair = ("A is ", "B is ", "A measured ", "B measured ")
    assert not any(w.startswith(unfair) for w in fair.warnings)
