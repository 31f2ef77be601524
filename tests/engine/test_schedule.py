"""The schedule of a fixed-rate run rebuilt from a request log whose answer is known: logs
made by a model of h2load's `--rps` (each client's timer grants what fell due since it last
fired, a request goes out when the client's one stream is free) against a server with a
fixed service time that may stall."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest

from tui_bench.engine.log_ingest import LogIngest
from tui_bench.engine.schedule import RAMP_US, Schedule, slack_us
from tui_bench.engine.series import rate_figures, traffic_from_log
from tui_bench.histogram import LatencyHistogram
from tui_bench.result import Result
from tui_bench.spec import RunSpec
from tui_bench.validity import judge_run

T0 = 1_700_000_000_000_000
US = 1_000_000


@dataclass(frozen=True)
class Model:
    clients: int = 4
    per_client: float = 200.0
    seconds: float = 6.0
    service_us: int = 200
    # Between one client's connection and the next's.
    connect_gap_us: int = 700
    # The server answers nothing from stall[0] to stall[1] (µs into the run).
    stall: tuple[int, int] | None = None


@dataclass(frozen=True)
class Log:
    text: bytes
    # Each completed request's latency from when it was due, and from when it was sent.
    intended_us: np.ndarray
    service_us: np.ndarray


def _done(model: Model, sent: int) -> int:
    end = sent + model.service_us
    if model.stall is not None:
        begin, until = model.stall
        if end > begin and sent < until:
            return until + model.service_us
    return end


def h2load_log(model: Model) -> Log:
    tick = max(10_000, round(US / model.per_client))
    lines: list[tuple[int, int, int, int]] = []
    for client in range(model.clients):
        connect = 3_000 + model.connect_gap_us * client
        # h2load sends one request as a client connects, then starts its timer.
        due = [connect]
        started = float(connect)
        at = connect + tick
        while at < model.seconds * US:
            granted = round((at - started) / US * model.per_client)
            started += granted / model.per_client * US
            due += [at] * granted
            at += tick
        free = 0
        for when in due:
            sent = max(when, free)
            if sent >= model.seconds * US:
                break
            free = _done(model, sent)
            lines.append((free, T0 + sent, free - sent, free - when))
    lines.sort()
    text = b"".join(b"%d\t200\t%d\n" % (start, duration) for _, start, duration, _ in lines)
    intended = np.array([line[3] for line in lines], dtype=np.int64)
    service = np.array([line[2] for line in lines], dtype=np.int64)
    return Log(text, intended, service)


def spec_of(model: Model) -> RunSpec:
    return RunSpec(
        urls=("http://127.0.0.1/",),
        connections=model.clients,
        duration_s=model.seconds,
        rate=model.per_client * model.clients,
    )


def ingest(model: Model, log: Log, chunk: int = 4096) -> tuple[LogIngest, list[dict]]:
    ingest = LogIngest(T0, Schedule.of(spec_of(model), T0))
    closed = []
    for at in range(0, len(log.text), chunk):
        closed += ingest.feed(log.text[at : at + chunk])
    closed += ingest.close(T0 + int(model.seconds * US))
    return ingest, [traffic_from_log(s) for s in closed]


def histogram(values: np.ndarray) -> LatencyHistogram:
    h = LatencyHistogram()
    h.add(values)
    return h


@pytest.mark.parametrize(
    ("per_client", "connect_gap_us"),
    [(200.0, 700), (150.0, 700), (40.0, 700), (1000.0, 700), (200.0, 30_000)],
)
def test_a_healthy_run_is_late_by_nothing(per_client: float, connect_gap_us: int) -> None:
    model = Model(per_client=per_client, connect_gap_us=connect_gap_us)
    log = h2load_log(model)
    found, _ = ingest(model, log)
    assert found.overall.count == log.intended_us.size
    due = found.overall.percentiles_s((50, 99, 100))
    sent = found.service_overall
    assert sent is not None and sent == histogram(log.service_us)
    for a, b in zip(due, sent.percentiles_s((50, 99, 100)), strict=True):
        assert a == pytest.approx(b, abs=1e-6)


def test_a_stall_is_measured_from_when_requests_were_due() -> None:
    model = Model(stall=(1 * US, 2 * US))
    log = h2load_log(model)
    found, rows = ingest(model, log)
    truth = histogram(log.intended_us)
    p50, p99 = found.overall.percentiles_s((50, 99))
    true_p99 = truth.percentile_s(99)
    assert p99 is not None and true_p99 is not None and p50 is not None
    # Under-stated by at most the schedule's slack, never over-stated.
    assert true_p99 - slack_us(model.per_client) / US - 0.002 <= p99 <= true_p99 + 0.001
    assert p99 > 0.9
    assert p50 == pytest.approx(model.service_us / US, abs=1e-5)
    sent = found.service_overall
    assert sent is not None and sent.percentile_s(50) == pytest.approx(p50, abs=1e-5)
    by_second = {r["t_s"]: r for r in rows}
    # Due by the end of the stall's second but not sent: a second's worth, near enough.
    assert by_second[1]["backlog"] == pytest.approx(800, abs=20)
    assert by_second[4]["backlog"] <= 8
    assert by_second[2]["p99_s"] > 0.9 > 0.1 > by_second[2]["service_p99_s"]
    figures = rate_figures(spec_of(model), rows)
    assert figures is not None and figures.backlog_from_s is None


def test_the_result_does_not_depend_on_how_the_log_was_cut() -> None:
    model = Model(stall=(2 * US, 2 * US + 400_000))
    log = h2load_log(model)
    whole, whole_rows = ingest(model, log, chunk=len(log.text))
    cut, cut_rows = ingest(model, log, chunk=97)
    assert whole.overall == cut.overall
    assert whole_rows == cut_rows


def test_past_capacity_the_backlog_grows_and_the_run_is_invalid() -> None:
    # Each client can answer 1/400 µs = 2,500 req/s... asked for 5,000.
    model = Model(per_client=5000.0, service_us=400, seconds=4.0)
    log = h2load_log(model)
    found, rows = ingest(model, log)
    spec = spec_of(model)
    figures = rate_figures(spec, rows)
    assert figures is not None
    assert figures.backlog_from_s == 0.0
    assert figures.backlog_end is not None and figures.backlog_end > 5000
    result = Result(tool="h2load", rps=found.totals.requests / model.seconds, rate=figures)
    validity = judge_run(spec, "completed", None, result, [])
    assert validity.is_invalid
    assert [r.code for r in validity.reasons] == ["rate-not-held"]
    assert "of 20,000 req/s asked" in validity.reasons[0].message
    assert "the backlog grew from 0 s on" in validity.reasons[0].message


def test_a_closed_loop_run_has_no_schedule() -> None:
    assert Schedule.of(RunSpec(urls=("http://127.0.0.1/",)), T0) is None
    spec = RunSpec(urls=("http://127.0.0.1/",))
    assert rate_figures(spec, [{"t_s": 0, "backlog": 5}]) is None


def test_lateness_is_counted_from_the_most_ahead_request() -> None:
    schedule = Schedule(1000.0, 10_000, T0)
    # Clumps of ten every 10 ms are on time. The next request was due with the clump at
    # 30 ms; sent at 80 ms, it is 50 ms late, less one interval (the clump's spread).
    # The first request is the start-up's.
    at = T0 + RAMP_US
    starts = np.array(
        [T0, *(at + 10_000 * (k // 10) for k in range(30)), at + 80_000], dtype=np.int64
    )
    late = schedule.lateness(starts)
    assert late[:31].tolist() == [0] * 31
    assert late[31] == 49_000
    # 81 due by then (on the even spacing, from one slack after the origin); 32 sent.
    assert schedule.backlog_at(at + 80_000) == 81 - 32


def test_a_backlog_a_few_requests_late_is_jitter_not_a_queue() -> None:
    # 2,000 req/s over 10 connections: the slack is some requests at any moment.
    spec = RunSpec(urls=("http://127.0.0.1/",), connections=10, duration_s=6, rate=2000.0)
    slack = 2000 * slack_us(200.0) / US
    assert 5 < slack < 50
    # Late by a little more than the slack, growing by less than it: a busy machine.
    jitter = [{"t_s": t, "backlog": round(slack) + b} for t, b in enumerate([0, 1, 7, 5, 9, 9])]
    figures = rate_figures(spec, jitter)
    assert figures is not None and figures.backlog_from_s is None
    # Growing by more than the slack for as long: a queue.
    queue = [{"t_s": t, "backlog": round(slack) + 1 + 3 * round(slack) * t} for t in range(6)]
    figures = rate_figures(spec, queue)
    assert figures is not None and figures.backlog_from_s == 0.0


def test_a_count_runs_backlog_is_never_more_than_it_has_left_to_send() -> None:
    # `--rate 1000000 -n 100000`: a schedule due to end after 0.1 s, far past capacity.
    spec = RunSpec(urls=("http://127.0.0.1/",), connections=10, requests=100_000, rate=10**6)
    schedule = Schedule.of(spec, T0)
    assert schedule is not None
    # 40,000 sent, evenly over the first 2 s, the start-up included.
    starts = T0 + np.linspace(1_000, 2 * US, 40_000).astype(np.int64)
    schedule.lateness(starts)
    backlog = schedule.backlog_at(T0 + 7 * US)
    assert backlog == 100_000 - 40_000
    # A duration run at the same rate is due its rate times the time that has gone.
    endless = Schedule.of(RunSpec(urls=spec.urls, connections=10, rate=10**6), T0)
    assert endless is not None
    endless.lateness(starts)
    assert (endless.backlog_at(T0 + 7 * US) or 0) > 6_000_000


def _later(text: bytes, by_us: int) -> bytes:
    """The log `text` as sent `by_us` later (a steered run's next h2load)."""
    rows = [line.split(b"\t") for line in text.splitlines()]
    return b"".join(b"%d\t%s\t%s\n" % (int(s) + by_us, st, d) for s, st, d in rows)


def _steered(switch: bool) -> tuple[LogIngest, list[dict], int, int]:
    """3 s at 800 req/s, then a new h2load at 400 req/s for 3 s."""
    first, then = Model(per_client=200, seconds=3), Model(per_client=100, seconds=3)
    found = LogIngest(T0, Schedule.of(spec_of(first), T0))
    closed = found.feed(h2load_log(first).text)
    if switch:
        found.next_file(Schedule.of(spec_of(then), T0 + 3 * US), T0 + 3 * US)
    later = h2load_log(then)
    closed += found.feed(_later(later.text, 3 * US))
    closed += found.close(T0 + 6 * US)
    return found, [traffic_from_log(s) for s in closed], first.clients, later.intended_us.size


def test_a_steered_runs_next_tool_is_timed_by_its_own_schedule() -> None:
    found, rows, _, later = _steered(switch=True)
    sent = found.service_overall
    assert sent is not None
    # Healthy before and after the change: late by nothing, from when due as from the send.
    assert found.overall.percentile_s(99) == pytest.approx(sent.percentile_s(99), abs=1e-5)
    assert all(r["backlog"] <= 8 for r in rows if r["backlog"] is not None)
    assert found.of_files[1] == later
    # Each tool from its first request (lines come as requests complete, not in order).
    assert found.first_sent_of_files == pytest.approx([0.003, 3.003])
    # The same log timed by the first schedule alone: the slower tool looks ever later.
    alone, _, _, _ = _steered(switch=False)
    assert (alone.overall.percentile_s(99) or 0) > 0.5


def test_while_the_load_is_paused_nothing_is_due() -> None:
    model = Model(per_client=200, seconds=2)
    found = LogIngest(T0, Schedule.of(spec_of(model), T0))
    closed = found.feed(h2load_log(model).text)
    found.next_file(None, T0 + 2 * US)
    closed += found.close(T0 + 5 * US)
    rows = {s.t_s: traffic_from_log(s) for s in closed}
    assert [rows[t]["backlog"] for t in (2, 3, 4)] == [0, 0, 0]
    assert found.of_files == [h2load_log(model).intended_us.size, 0]
    assert found.first_sent_of_files == [0.003, None]
