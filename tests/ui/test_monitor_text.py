"""The header's words for the connection: asked for, negotiated, TLS."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from tui_bench.engine.events import (
    GeneratorsSeen,
    GeneratorView,
    OutputLine,
    Progress,
    RunFinished,
    RunStarted,
    SecondClosed,
)
from tui_bench.engine.live_state import LiveState
from tui_bench.records.warning import Warning
from tui_bench.result import Distribution, RateFigures, Requests, Result
from tui_bench.spec import RunSpec
from tui_bench.ui.text import monitor_text, result_text
from tui_bench.ui.tones import ANSI, Tones


@pytest.mark.parametrize(
    ("url", "lines", "shown"),
    [
        ("http://127.0.0.1:8080/", [], "h2c"),
        ("https://127.0.0.1:8443/", [], "h2 TLS"),
        (
            "https://127.0.0.1:8443/",
            ["TLS Protocol: TLSv1.3", "Application protocol: h2"],
            "h2 TLSv1.3",
        ),
        (
            "https://127.0.0.1:8443/",
            ["TLS Protocol: TLSv1.2", "Application protocol: http/1.1"],
            "h2 (negotiated http/1.1) TLSv1.2",
        ),
    ],
)
def test_connection(url: str, lines: list[str], shown: str) -> None:
    state = LiveState(RunSpec(urls=(url,)))
    for line in lines:
        state.apply(OutputLine.read("h2load", "stdout", line + "\n"))
    assert monitor_text.connection(state) == shown
    header = monitor_text.header(state, "h2load 1.52.0", paused=False, stopping=False)
    assert f"h2load 1.52.0  {shown}  {url}" in header.plain


def test_errors_without_a_response_are_told_apart_from_4xx_and_5xx() -> None:
    state = LiveState(RunSpec(urls=("http://127.0.0.1:8080/",)))
    row = {"t_s": 0, "rps": 100, "errors": 5, "2xx": 95, "4xx": 0, "5xx": 2}
    state.apply(SecondClosed(row))
    assert "errors 5  no response 3" in monitor_text.status(state, ANSI).plain
    state.apply(SecondClosed({**row, "t_s": 1, "errors": 2}))
    assert "errors 7  no response 3" in monitor_text.status(state, ANSI).plain
    answered = LiveState(state.spec)
    answered.apply(SecondClosed({**row, "errors": 2}))
    assert "no response" not in monitor_text.status(answered, ANSI).plain


def test_wrk_live_counts_show_unknown_status_until_its_summary() -> None:
    state = LiveState(RunSpec(urls=("http://127.0.0.1:1/",), tool="wrk", duration_s=2.0))
    state.apply(SecondClosed({"t_s": 0, "window_s": 1.0, "requests": 900, "rps": 900}))
    tones = Tones("red", "yellow", "green")
    live = monitor_text.status(state, tones).plain
    assert "2xx –" in live and "5xx –" in live and "errors –" in live
    assert monitor_text.throughput(state).plain.splitlines()[2].endswith("– req/s"), "good req/s"
    result = Result(tool="wrk", status={"2xx": 1790, "5xx": 10}, rps=900.0).with_(
        requests=Requests(total=1800, succeeded=1790)
    )
    state.apply(RunFinished("completed", 0, result, Path("/tmp/s.json"), None))
    ended = monitor_text.status(state, tones).plain
    assert "2xx 1,790" in ended and "5xx 10" in ended and "errors 10" in ended


def test_before_the_first_second_the_panels_say_they_are_waiting() -> None:
    state = LiveState(RunSpec(urls=("http://127.0.0.1:1/",), duration_s=5.0))
    tones = Tones("red", "yellow", "green")
    for text in (
        monitor_text.throughput(state),
        monitor_text.latency(state),
        monitor_text.status(state, tones),
    ):
        assert text.plain == "waiting for the first second"
    # The first requests done: figures at once, refined when the first second closes.
    state.apply(Progress(0.5, 0.1, 1_000, None))
    assert monitor_text.throughput(state).plain.splitlines() == [
        "so far 1,000 requests",
        "       2,000 req/s",
        "waiting for the first second",
    ]
    state.apply(SecondClosed({"t_s": 0, "window_s": 1.0, "requests": 10, "rps": 10}))
    assert "10 req/s" in monitor_text.throughput(state).plain


def test_the_generators_panel_names_tool_and_version_only_when_they_differ() -> None:
    state = LiveState(RunSpec(urls=("http://127.0.0.1:1/",)))
    tones = Tones("red", "yellow", "green")
    same = (
        GeneratorView("host0", "h2load", "1.52.0", 600.0, 0.6, 40.0),
        GeneratorView("host0#2", "h2load", "1.52.0", 400.0, 0.4, 30.0),
    )
    state.apply(GeneratorsSeen(same))
    assert monitor_text.generators(state, tones).plain.splitlines() == [
        "host0 600 req/s 60%  cpu 40%",
        "host0#2 400 req/s 40%  cpu 30%",
    ]
    state.apply(GeneratorsSeen((same[0], replace(same[1], version="1.64.0"))))
    assert monitor_text.generators(state, tones).plain.splitlines() == [
        "host0 h2load 1.52.0 600 req/s 60%  cpu 40%",
        "host0#2 h2load 1.64.0 400 req/s 40%  cpu 30%",
    ]


def test_the_header_says_stall_while_it_lasts() -> None:
    state = LiveState(RunSpec(urls=("http://127.0.0.1:8080/",), duration_s=6))

    def header_at(elapsed: float, done: int) -> str:
        state.apply(Progress(elapsed, elapsed / 6, done, None))
        return monitor_text.header(state, "h2load 1.52.0", paused=False, stopping=False).plain

    assert "STALL" not in header_at(1.0, 100)
    # How long nothing was answered, and how many requests wait: one per connection.
    assert "STALL 0.6 s, 10 waiting" in header_at(1.6, 100)
    assert "STALL" not in header_at(1.8, 200)


@pytest.mark.parametrize(
    ("warm_up_s", "phases"),
    [
        (None, {"main": "running", "done": "running (finishing)"}),
        (
            0.5,
            {
                "warm-up": "running (warm-up)",
                "main": "running (measuring)",
                "done": "running (finishing)",
            },
        ),
    ],
)
def test_the_header_names_the_tools_phase_in_plain_words(
    warm_up_s: float | None, phases: dict[str, str]
) -> None:
    spec = RunSpec(urls=("http://127.0.0.1:8080/",), duration_s=6, warm_up_s=warm_up_s)
    state = LiveState(spec)
    state.apply(RunStarted("20260101-120000-000-h2load", ("h2load",), 1, None))
    for phase, said in phases.items():
        state.apply(Progress(1.0, None, 100, phase))
        header = monitor_text.header(state, "h2load 1.52.0", paused=False, stopping=False)
        assert header.plain.rstrip().endswith(said), header.plain
        assert "(main)" not in header.plain


def test_an_ended_fixed_rate_run_shows_what_it_achieved_and_both_latencies() -> None:
    spec = RunSpec(urls=("http://127.0.0.1:8080/",), connections=10, rate=20_000.0)
    state = LiveState(spec)
    state.apply(SecondClosed({"t_s": 0, "rps": 9_000.0, "achieved_rps": 9_500, "backlog": 40}))
    due = Distribution(max_s=0.9, percentiles={"p50_s": 0.0002, "p99_s": 0.9})
    sent = Distribution(percentiles={"p50_s": 0.00015, "p99_s": 0.0003})
    result = Result(
        tool="h2load",
        rps=19_970.0,
        requests=Requests(total=119_820, succeeded=119_820),
        latency=due,
        service_latency=sent,
        rate=RateFigures(target_rps=20_000.0, per_client_rps=2_000.0, backlog_end=3),
    )
    state.apply(RunFinished("completed", 0, result, Path("s.json"), None))
    assert monitor_text.throughput(state).plain.splitlines() == [
        "target   20,000 req/s",
        "achieved 19,970 req/s",
        "backlog  3 due at the end",
    ]
    lines = monitor_text.latency(state).plain.splitlines()
    assert lines[1:] == ["p50 200 µs · 150 µs", "p99 900.00 ms · 300 µs"]
    assert monitor_text.latency_title(state) == "Latency (whole run)"


@pytest.mark.parametrize(
    ("code", "badge"), [("server-lost", "SERVER LOST"), ("stall-timeout", "NO ANSWER")]
)
def test_the_header_says_a_run_cut_short_at_once(code: str, badge: str) -> None:
    state = LiveState(RunSpec(urls=("http://127.0.0.1:8080/",), tool="wrk", duration_s=6))
    state.apply(SecondClosed({"t_s": 0, "rps": 120_000.0, "good_rps": 120_000.0}, None))

    def header() -> str:
        return monitor_text.header(state, "wrk 4.1.0", paused=False, stopping=False).plain

    assert badge not in header()
    state.apply(Warning(code, "the server was lost 1.5 s into the run (pid 1 exited)"))
    assert badge in header()
    assert "STALL" not in header()
    lost = code == "server-lost"
    now = monitor_text.throughput(state).plain
    assert ("now     – req/s" in now) is lost, now


def test_a_result_row_wraps_between_its_items_under_the_values() -> None:
    spec = RunSpec(urls=("http://127.0.0.1:8080/",), duration_s=3)
    state = LiveState(spec)
    latency = Distribution(
        min_s=0.000069,
        max_s=0.02789,
        mean_s=0.00769,
        percentiles={"p50_s": 0.00722, "p90_s": 0.01226, "p99_s": 0.0167, "p99_9_s": 0.02707},
    )
    result = Result(tool="h2load", rps=19_700.67, duration_s=3.0, latency=latency)
    state.apply(RunFinished("completed", 0, result, Path("s.json"), None))
    whole = result_text.summary(state, ANSI).plain
    (row,) = [line for line in whole.splitlines() if line.startswith("latency")]
    assert len(row) > 76, "one line when no width is given"
    lines = result_text.summary(state, ANSI, 76).plain.splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith("latency"))
    wrapped = lines[first : first + 2]
    assert all(len(line) <= 76 for line in wrapped)
    assert wrapped[0].endswith(",") and wrapped[1].startswith(" " * 11 + "p")
    # The same figures, each whole with its unit.
    assert " ".join(" ".join(wrapped).split()) == " ".join(row.split())
    assert not any(line.lstrip().startswith(("ms", "µs")) for line in lines)


def test_the_header_says_what_each_request_carries() -> None:
    post = RunSpec(
        urls=("http://127.0.0.1:8080/",),
        duration_s=6,
        method="POST",
        body_file="o.json",
        body_size=58,
    )
    header = monitor_text.header(LiveState(post), "h2load 1.52.0", paused=False, stopping=False)
    assert "c10 t1 POST 58 B" in header.plain
    plain = LiveState(RunSpec(urls=("http://127.0.0.1:8080/",), duration_s=6))
    assert "GET" not in monitor_text.header(plain, "h2load", paused=False, stopping=False).plain


def test_a_long_warning_in_the_result_wraps_under_itself() -> None:
    state = LiveState(RunSpec(urls=("http://127.0.0.1:8080/",), duration_s=6))
    warned = Warning("same-machine", "load generator and target share this machine: " * 2)
    state.apply(RunFinished("completed", 0, None, Path("/tmp/s.json"), None, warnings=(warned,)))
    text = result_text.summary(state, Tones("red", "yellow", "green"), width=50).plain
    lines = text[text.index("warning") :].splitlines()
    assert len(lines) > 1 and all(line.startswith(" " * 11) for line in lines[1:]), lines
    assert max(len(line) for line in lines) <= 50


def test_a_narrow_latency_panel_keeps_every_figure_it_shows_whole() -> None:
    state = LiveState(RunSpec(urls=("http://127.0.0.1:8080/",), duration_s=6))
    row = {"t_s": 0, "rps": 1.0, "p50_s": 0.000491, "p90_s": 0.0009, "p99_s": 0.01234}
    overall = {"overall_p50_s": 0.0005, "overall_p99_s": 0.0456}
    state.apply(SecondClosed({**row, "max_s": 0.123, **overall}))
    wide = monitor_text.latency(state, 40).plain.splitlines()
    assert wide[2] == "whole run p50 500 µs  p99 45.60 ms"
    # At 60x20 a panel has 26 columns: the window's and the whole run's, side by side.
    narrow = monitor_text.latency(state, 26).plain.splitlines()
    assert narrow == [
        "    1 s       whole run",
        "p50 491 µs    500 µs",
        "p99 12.34 ms  45.60 ms",
    ]


def test_a_narrow_header_says_how_far_the_run_is_before_its_shape() -> None:
    state = LiveState(RunSpec(urls=("http://127.0.0.1:8080/",), duration_s=8, streams=10))
    state.apply(RunStarted("20260101-120000-000-h2load", ("h2load",), 1, None))
    state.apply(Progress(3.0, 0.4, 100, "main"))
    wide = monitor_text.header(state, "h2load", paused=True, stopping=False, width=120)
    assert wide.plain.splitlines()[1].startswith("load c")
    narrow = monitor_text.header(state, "h2load", paused=True, stopping=False, width=58)
    # What a line cut at 58 columns keeps: the status, its badge and the time.
    kept = narrow.plain.splitlines()[1][:58]
    assert kept.startswith("running  PAUSED  elapsed 00:03  ETA"), kept


def test_a_long_session_path_in_the_result_stays_under_the_values() -> None:
    state = LiveState(RunSpec(urls=("http://127.0.0.1:8080/",), duration_s=6))
    saved = Path("/root/.local/share/tuibench/sessions/20261128-062819-055-h2load-demo.json")
    state.apply(RunFinished("completed", 0, None, saved, None))
    text = result_text.summary(state, Tones("red", "yellow", "green"), width=56).plain
    lines = text[text.index("session") :].splitlines()
    assert len(lines) > 1 and all(line.startswith(" " * 11) for line in lines[1:]), lines
    assert "".join(line[11:] for line in lines) == str(saved)
