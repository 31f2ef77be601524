"""Stalls found in closed-loop runs, on generated request logs and series whose answer is
known: where they are, how long, how many requests they held; none on healthy runs, nor
at a run's edges."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pytest

from tui_bench.analysis import stalls
from tui_bench.analysis.stalls import Stall, from_requests, from_silence, from_summary
from tui_bench.engine import stall_watch
from tui_bench.engine.log_ingest import LogIngest
from tui_bench.engine.stall_watch import StallWatch, stall_of_run
from tui_bench.result import Distribution, Requests, Result
from tui_bench.spec import RunSpec
from tui_bench.validity import judge_run

T0 = 1_795_000_000_000_000
S = 1_000_000
URL = ("http://127.0.0.1:8080/",)


def closed_loop(
    connections: int = 10,
    seconds: float = 6.0,
    latency_us: int = 1_000,
    pauses: Sequence[tuple[float, float, int]] = (),
    *,
    first_s: float = 0.0,
    first_latency_us: int | None = None,
    seed: int = 3,
) -> bytes:
    """h2load's log of a closed-loop run: each connection sends its next request when the
    last came back. A pause (from_s, to_s, connections it holds) keeps the requests of
    those connections in flight until it ends. Lines in completion order, from `first_s`
    (as after a warm-up, which h2load does not log)."""
    rng = np.random.default_rng(seed)
    rows: list[tuple[int, int, int]] = []
    for conn in range(connections):
        t = int(first_s * S) + int(rng.integers(0, latency_us))
        first = True
        while t < seconds * S:
            base = first_latency_us if first and first_latency_us else latency_us
            end = t + int(rng.uniform(0.5, 1.5) * base)
            for lo, hi, held in pauses:
                if conn < held and t < hi * S and end > lo * S:
                    end = int(hi * S) + int(rng.integers(1, 200))
            if end > seconds * S:
                break  # cut by the end of the run: h2load logs no such request
            rows.append((end, t, end - t))
            t, first = end, False
    rows.sort()
    return b"".join(f"{T0 + start}\t200\t{d}\n".encode() for _, start, d in rows)


def found(log: bytes, chunk: int = 50_000) -> tuple[list[Stall], LogIngest]:
    watch = StallWatch(T0)
    ingest = LogIngest(T0, observe=watch.observe)
    for i in range(0, len(log), chunk):
        ingest.feed(log[i : i + chunk])
    ingest.close()
    return from_requests(*watch.requests(), ingest.overall.percentile_s(50)), ingest


def test_a_pause_of_every_connection_is_one_stall_said_rightly() -> None:
    (stall,), _ = found(closed_loop(pauses=[(2.5, 3.5, 10)]))
    assert stall.start_s == pytest.approx(2.5, abs=0.002)
    assert stall.length_s == pytest.approx(1.0, abs=0.002)
    assert stall.held == 10


def test_a_pause_of_some_connections_holds_those_only() -> None:
    (stall,), _ = found(closed_loop(pauses=[(1.2, 1.6, 4)]))
    assert (stall.start_s, stall.held) == (pytest.approx(1.2, abs=0.002), 4)
    assert stall.length_s == pytest.approx(0.4, abs=0.002)


def test_two_pauses_are_two_stalls() -> None:
    got, _ = found(closed_loop(pauses=[(1.0, 1.3, 10), (4.0, 5.0, 10)]))
    assert [(round(s.start_s or 0, 1), round(s.length_s, 1), s.held) for s in got] == [
        (1.0, 0.3, 10),
        (4.0, 1.0, 10),
    ]


@pytest.mark.parametrize(
    "log",
    [
        pytest.param(closed_loop(), id="healthy"),
        pytest.param(closed_loop(seconds=0.8), id="short"),
        pytest.param(closed_loop(first_s=2.0), id="after a warm-up"),
        # A cold server's first requests, slower by far but under STALL_MIN_S.
        pytest.param(closed_loop(first_latency_us=120_000), id="cold first requests"),
        # The last second is partial and the run ended early (a count reached): the
        # silence after the last request is the end of the run, not a stall.
        pytest.param(closed_loop(seconds=3.4), id="partial last second"),
        # A slow server: every request takes 300 ms, the connections in step.
        pytest.param(closed_loop(latency_us=300_000, seconds=8, seed=0), id="slow server"),
        # A pause shorter than STALL_MIN_S: what a busy machine's scheduler can do.
        pytest.param(closed_loop(pauses=[(2.0, 2.1, 10)]), id="100 ms hiccup"),
    ],
)
def test_no_stall_on_a_healthy_run_nor_at_its_edges(log: bytes) -> None:
    assert found(log)[0] == []


def test_results_do_not_depend_on_how_the_log_was_cut() -> None:
    log = closed_loop(pauses=[(2.5, 3.5, 10)])
    assert found(log, chunk=1_000)[0] == found(log, chunk=len(log))[0]


def test_memory_stays_bounded_when_ordinary_requests_are_long(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(stall_watch, "MAX_KEPT", 50)
    short = [(0.5 + i * 0.4, 0.75 + i * 0.4, 10) for i in range(6)]
    got, _ = found(closed_loop(seconds=6, pauses=[*short, (4.0, 5.0, 10)]), chunk=2_000)
    # Past 50 long requests kept the bar doubled to 0.4 s: the 1 s pause still shows.
    assert [(round(s.start_s or 0, 1), s.held) for s in got] == [(4.0, 10)]


def rows(*counts: int | None, last_window: float = 1.0) -> list[Mapping[str, Any]]:
    return [
        {"t_s": i, "requests": n, "window_s": last_window if i == len(counts) - 1 else 1.0}
        for i, n in enumerate(counts)
    ]


def test_a_longest_request_far_beyond_the_median_is_a_stall_placed_at_the_dip() -> None:
    series = rows(9_000, 20_000, 20_000, 9_000, 11_000, 20_000, 15_000)
    assert from_summary(1.0, 300e-6, series) == [Stall(3.0, 1.0)]
    # Without a second that fell well below the others: when is not known.
    assert from_summary(1.0, 300e-6, rows(9_000, 20_000, 15_000, 19_000, 3_000)) == [
        Stall(None, 1.0)
    ]


@pytest.mark.parametrize(
    ("longest", "median"),
    [(0.025, 300e-6), (0.19, None), (0.9, 0.02)],
    ids=["healthy", "under the floor", "slow server"],
)
def test_a_longest_request_near_the_runs_own_pace_is_no_stall(
    longest: float, median: float | None
) -> None:
    assert from_summary(longest, median, rows(20_000, 0, 20_000)) == []


@pytest.mark.parametrize(
    ("series", "expected"),
    [
        (rows(20_000, 20_000, 0, 0, 0, 20_000, 5_000), [Stall(2.0, 3.0)]),
        (rows(20_000, 0, 20_000, 0, 20_000), []),  # one silent second: wrk's alignment
        (rows(0, 0, 20_000, 20_000), []),  # before the first request
        (rows(20_000, 20_000, 0, 0), []),  # the end of the run, not a stall between
        (rows(20_000, 0, 0, 0, last_window=0.4), []),
        (rows(20_000, None, None, 20_000), []),  # unknown is not 0
    ],
)
def test_silent_seconds_between_busy_ones(
    series: list[Mapping[str, Any]], expected: list[Stall]
) -> None:
    assert from_silence(series) == expected


def result(tool: str, longest: float, median: float, rps: float = 20_000) -> Result:
    latency = Distribution(max_s=longest, percentiles={"p50_s": median})
    return Result(tool=tool, requests=Requests(total=120_000), rps=rps, latency=latency)


def test_each_tool_says_its_stall_and_the_run_is_suspect() -> None:
    spec = RunSpec(urls=URL, duration_s=6, h1=True)
    log = closed_loop(pauses=[(2.5, 3.5, 10)])
    watch = StallWatch(T0)
    ingest = LogIngest(T0, observe=watch.observe)
    ingest.feed(log)
    ingest.close()
    (h2load,) = stall_of_run(spec, result("h2load", 1.0, 1e-3), [], watch, ingest.overall)
    assert h2load.code == "stall"
    assert "at 2.5 s for 1.00 s, 10 requests held, ~20,0" in h2load.message
    assert "understate" in h2load.message and "--rate" in h2load.message
    wrk = RunSpec(urls=URL, tool="wrk", duration_s=6)
    series = rows(20_000, 20_000, 9_000, 11_000, 20_000, 20_000)
    (said,) = stall_of_run(wrk, result("wrk", 1.0, 3e-4), series, None, None)
    assert "at 2.0 s for 1.00 s, ~20,000 sent" in said.message
    assert "fill in" in said.message
    ab = RunSpec(urls=URL, tool="ab", duration_s=6)
    (said,) = stall_of_run(ab, result("ab", 1.0, 0.0), series, None, None)
    assert said.message.startswith("a stall (at – for 1.00 s, ~20,000 sent")
    verdict = judge_run(spec, "completed", None, None, [{"code": said.code, "message": "m"}])
    assert verdict.verdict == "suspect" and verdict.reasons[0].code == "stall"
    assert stall_of_run(ab, result("ab", 0.012, 0.0), series, None, None) == []


def test_many_stalls_are_said_three_at_a_time() -> None:
    many = [Stall(float(i), 0.5, 10) for i in range(5)]
    warning = stalls.stall_warning(many, None, corrected=False)
    assert warning is not None and warning.message.startswith("5 stalls (at 0.0 s")
    assert "at 3.0 s" not in warning.message and "and 2 more" in warning.message
    assert stalls.stall_warning([], 1.0, corrected=False) is None
