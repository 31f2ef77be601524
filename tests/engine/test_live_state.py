from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tui_bench.engine.events import (
    Event,
    OutputLine,
    Progress,
    ResourcesSampled,
    RunFinished,
    RunStarted,
    SecondClosed,
)
from tui_bench.engine.live_state import LiveState
from tui_bench.records.warning import Warning
from tui_bench.result import Distribution, Result, Tls
from tui_bench.sampling.samples import ResourceSample
from tui_bench.spec import RunSpec

SPEC = RunSpec(urls=("http://127.0.0.1:8080/",), duration_s=10.0)


def row(t: int, rps: float, **extra: Any) -> SecondClosed:
    return SecondClosed({"t_s": t, "rps": rps, "good_rps": rps, "errors": 0, "2xx": rps, **extra})


def sample(client_thread_max_pct: float | None) -> ResourceSample:
    return ResourceSample(
        t_s=1.0,
        server_cpu_pct=50.0,
        server_rss_bytes=1 << 20,
        server_uss_bytes=None,
        server_pss_bytes=None,
        server_procs=3,
        server_threads=3,
        server_fds=10,
        system_cpu_pct=(10.0, 90.0),
        system_mem_used_bytes=1 << 30,
        system_mem_total_bytes=4 << 30,
        client_cpu_pct=80.0,
        client_thread_max_pct=client_thread_max_pct,
        sampler_cpu_pct=1.0,
    )


def test_a_fresh_state_is_starting_and_knows_only_its_plan() -> None:
    state = LiveState(SPEC)
    assert state.status == "starting"
    assert state.rps_now is None and state.rps_overall is None
    assert state.eta_s == 10.0
    assert state.latency == {"p50_s": None, "p90_s": None, "p99_s": None, "max_s": None}


def test_every_event_bumps_the_version() -> None:
    state = LiveState(SPEC)
    events: list[Event] = [
        RunStarted("s1", ("h2load", "-D", "10"), 42),
        OutputLine("stdout", "starting benchmark...\n"),
        Progress(1.5, 0.15, 100, "main"),
        row(0, 1000.0),
        ResourcesSampled(sample(10.0)),
        Warning("w", "careful"),
    ]
    for i, event in enumerate(events, 1):
        state.apply(event)
        assert state.version == i
    assert state.status == "running"
    assert state.argv == ("h2load", "-D", "10")
    assert state.elapsed_s == 1.5 and state.fraction == 0.15 and state.phase == "main"
    assert state.eta_s == 8.5
    assert [w.message for w in state.warnings] == ["careful"]


def test_rows_give_now_overall_window_and_totals() -> None:
    state = LiveState(SPEC)
    state.apply(row(0, 1000.0, errors=2, **{"5xx": 2, "n": 998, "p99_s": 0.004}))
    state.apply(row(1, 3000.0, good_rps=2990.0, **{"n": 3000, "p50_s": 0.001, "p99_s": 0.002}))
    assert state.rps_now == 3000.0
    assert state.good_rps_now == 2990.0
    assert state.rps_overall == 2000.0
    assert state.latency["p99_s"] == 0.002 and state.latency["p50_s"] == 0.001
    assert state.latency_n == 3000
    assert state.error_total == 2
    assert state.status_totals == {"2xx": 4000, "3xx": 0, "4xx": 0, "5xx": 2}
    assert state.series("p50_s") == [0.001]
    assert state.rows_version == 2


def test_rows_and_lines_are_bounded_but_totals_are_not() -> None:
    state = LiveState(SPEC, max_rows=3, max_lines=2)
    for t in range(5):
        state.apply(row(t, 10.0))
    for i in range(5):
        state.apply(OutputLine("stderr", f"line {i}\n"))
    assert [r["t_s"] for r in state.rows] == [2, 3, 4]
    assert state.status_totals["2xx"] == 50
    assert [line.text for line in state.output] == ["line 3\n", "line 4\n"]
    assert state.lines_seen == 5
    assert [line.text for line in state.new_lines(4)] == ["line 4\n"]
    assert [line.text for line in state.new_lines(0)] == ["line 3\n", "line 4\n"]
    assert state.new_lines(5) == []


def test_client_bound_when_the_busiest_generator_thread_is_saturated() -> None:
    state = LiveState(SPEC)
    assert not state.client_bound
    state.apply(ResourcesSampled(sample(89.9)))
    assert not state.client_bound
    state.apply(ResourcesSampled(sample(90.0)))
    assert state.client_bound
    state.apply(ResourcesSampled(sample(None)))
    assert not state.client_bound


def test_count_mode_eta_follows_the_fraction_done_then_the_last_seconds_rate() -> None:
    state = LiveState(RunSpec(urls=SPEC.urls, requests=1000))
    assert state.eta_s is None
    state.apply(Progress(2.0, 0.25, 250, None))
    assert state.eta_s == 6.0
    # The server slowed down: the 750 left go at the last seconds' 25 req/s, not 125.
    for t, rps in enumerate([200, 50, *[20] * 5, *[30] * 5]):
        state.apply(SecondClosed({"t_s": t, "rps": rps}))
    assert state.eta_s == pytest.approx(750 / 25)


def test_finished_run_reports_status_and_session() -> None:
    state = LiveState(SPEC)
    state.apply(RunFinished("interrupted", 130, None, Path("/tmp/s.json"), "stopped"))
    assert not state.running
    assert state.status == "interrupted"
    assert state.session_path == Path("/tmp/s.json")
    assert state.result is None
    assert state.eta_s == 0.0


def test_what_the_connection_negotiated_comes_from_the_output_then_the_result() -> None:
    state = LiveState(RunSpec(urls=("https://127.0.0.1:8443/",)))
    assert (state.protocol, state.tls_version) == (None, None)
    for line in ("TLS Protocol: TLSv1.3\n", "Cipher: TLS_AES_128_GCM_SHA256\n"):
        state.apply(OutputLine.read("h2load", "stdout", line))
    state.apply(OutputLine.read("h2load", "stdout", "Application protocol: http/1.1\n"))
    assert (state.protocol, state.tls_version) == ("http/1.1", "TLSv1.3")
    # A tool that says nothing while it runs (wrk, ab) is known by its result.
    quiet = LiveState(RunSpec(urls=("https://127.0.0.1:8443/",), tool="ab", requests=10))
    result = Result(
        tool="ab", protocol="http/1.0", tls=Tls(protocol="TLSv1.2", cipher="X"), rps=1.0
    )
    quiet.apply(RunFinished("completed", 0, result, Path("/tmp/s.json"), None))
    assert (quiet.protocol, quiet.tls_version) == ("http/1.0", "TLSv1.2")


def test_whole_run_latency_from_the_rows_then_from_the_result() -> None:
    state = LiveState(SPEC)
    assert state.latency_overall == {"p50_s": None, "p90_s": None, "p99_s": None}
    state.apply(row(0, 1000.0, p99_s=0.020, overall_p50_s=0.001, overall_p99_s=0.015))
    assert state.latency_overall == {"p50_s": 0.001, "p90_s": None, "p99_s": 0.015}
    assert state.latency["p99_s"] == 0.020  # the window is apart
    result = Result(
        tool="h2load",
        latency=Distribution(percentiles={"p50_s": 0.002, "p90_s": 0.004, "p99_s": 0.016}),
    )
    state.apply(RunFinished("completed", 0, result, Path("/tmp/s.json"), None))
    assert state.latency_overall == {"p50_s": 0.002, "p90_s": 0.004, "p99_s": 0.016}


def progress(state: LiveState, *ticks: tuple[float, int | None]) -> list[bool]:
    """Whether the state says STALL after each (elapsed, requests done) tick."""
    seen = []
    for elapsed, done in ticks:
        state.apply(Progress(elapsed, None, done, None))
        seen.append(state.stalled)
    return seen


def test_a_stall_lasts_while_nothing_completes() -> None:
    state = LiveState(SPEC)
    ticks = [(0.2, None), (0.4, 100), (0.6, 200), (0.8, 200), (1.0, 200), (1.2, 200), (1.4, 300)]
    assert progress(state, *ticks) == [False, False, False, False, False, True, False]


def test_no_stall_before_the_first_request_nor_once_no_load_is_due() -> None:
    # A warm-up logs nothing: no count moves until it is over.
    assert progress(LiveState(SPEC), (0.5, None), (1.0, 0), (2.0, 0)) == [False] * 3
    # Past the run's time the tool only stops: nothing is due.
    assert progress(LiveState(SPEC), (9.9, 100), (10.6, 100)) == [False, False]
    counted = LiveState(RunSpec(urls=SPEC.urls, requests=100))
    assert progress(counted, (0.2, 100), (1.0, 100)) == [False, False]
    state = LiveState(SPEC)
    progress(state, (0.2, 100), (1.0, 100))
    state.apply(RunFinished("completed", 0, None, Path("s.json"), None))
    assert not state.stalled


def test_stall_waits_for_the_counts_each_tool_gives() -> None:
    wrk = RunSpec(urls=SPEC.urls, tool="wrk", duration_s=10.0)
    # wrk's counts come once a second per thread.
    assert progress(LiveState(wrk), (1.0, 100), (2.8, 100), (3.0, 100)) == [False, False, True]
    # ab's come a tenth of its requests at a time: silence tells nothing.
    ab = RunSpec(urls=SPEC.urls, tool="ab", duration_s=10.0)
    assert progress(LiveState(ab), (1.0, 100), (5.0, 100)) == [False, False]


def test_the_whole_run_only_grows_through_a_warm_up() -> None:
    """The live bar fills the warm-up, then the measured window; a sweep's bar adds how far
    the whole run is to the runs done, which must never go back."""
    state = LiveState(RunSpec(urls=("http://h/",), duration_s=4, warm_up_s=1).validate())
    seen = []
    for elapsed, fraction in ((0.5, 0.5), (1.0, 1.0), (2.0, 0.25), (5.0, 1.0)):
        state.apply(Progress(elapsed, fraction, 10, None))
        seen.append(state.whole_fraction)
    assert seen == [0.1, 0.2, 0.4, 1.0]


def test_a_status_class_unknown_in_a_row_leaves_the_counts_unknown() -> None:
    # As a saved session's row reads where another second knew its classes (wrk's last).
    state = LiveState(SPEC)
    state.apply(SecondClosed({"t_s": 0, "rps": 5, "2xx": None, "5xx": None}))
    assert state.status_counts is None and state.errors_seen is None
    state.apply(SecondClosed({"t_s": 1, "rps": 5, "2xx": 4, "5xx": 1}))
    assert state.status_counts == {"2xx": 4, "3xx": 0, "4xx": 0, "5xx": 1}
