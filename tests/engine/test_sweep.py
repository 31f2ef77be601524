"""The sweep runner with scripted runs (order, aggregates, stopping, recovery), and the
`tuibench sweep` command on a stand-in tool for what real tools cannot be made to do."""

from __future__ import annotations

import asyncio
import itertools
import os
import signal
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
import orjson
import pytest

from tests.fakes import wait_for_run
from tests.integration.test_cli_real_tools import TUIBENCH
from tui_bench.analysis.sweep_points import run_values
from tui_bench.analysis.thresholds import parse_slo, parse_threshold
from tui_bench.cli.main import main
from tui_bench.engine.events import Event, Listener, RunFinished
from tui_bench.engine.sweep import (
    CoolingDown,
    SweepFinished,
    SweepOptions,
    SweepRunFinished,
    SweepRunner,
    SweepRunStarted,
    SweepStarted,
    Target,
)
from tui_bench.errors import SessionError
from tui_bench.histogram import LatencyHistogram
from tui_bench.jobs.sweep_job import judged
from tui_bench.report.exit_codes import exit_code
from tui_bench.request.run import RunRequest
from tui_bench.request.sweep_plan import Point, SweepPlan, Variant, build_plan, parse_vary
from tui_bench.result import Distribution, RateFigures, Requests, Result
from tui_bench.runners.tools import Tool
from tui_bench.spec import RunSpec
from tui_bench.storage import store
from tui_bench.storage.journal import JournalWriter
from tui_bench.storage.session import Session
from tui_bench.storage.session_file import parse
from tui_bench.storage.session_records import SessionDraft

URL = "http://127.0.0.1:9/"
TOOL = Tool("h2load", "/usr/bin/h2load", "1.52.0")
FAKE = str(Path(__file__).parents[1] / "fakes" / "fake_tool.py")
_ids = itertools.count()


def plan_of(*vary: str, repeat: int = 1) -> SweepPlan:
    base = Variant(None, RunRequest(RunSpec(urls=(URL,), requests=100)), {})
    return build_plan([base], [parse_vary(v) for v in vary], repeat)


@dataclass
class Script:
    """How each scripted run goes, by its point: latencies (µs) of its requests, and
    whether it fails or waits to be stopped."""

    latencies: Callable[[Point, int], list[int]] = lambda point, n: [1000] * 100
    fail: set[int] = field(default_factory=set)
    hang: set[int] = field(default_factory=set)
    started: list[tuple[int, int]] = field(default_factory=list)
    going: asyncio.Event = field(default_factory=asyncio.Event)
    # What a fixed-rate run achieves at most: a rate above it is not held.
    capacity: float = float("inf")


class ScriptedRun:
    """Journals and finalizes a run as RunController does, without a process."""

    def __init__(self, point: Point, store_dir: Path, listener: Listener, script: Script) -> None:
        self.point = point
        self.store_dir = store_dir
        self.listener = listener
        self.script = script
        self.stopped = asyncio.Event()

    def stop(self) -> None:
        self.stopped.set()

    async def run(self) -> RunFinished:
        nth = sum(1 for p, _ in self.script.started if p == self.point.index)
        self.script.started.append((self.point.index, nth))
        draft = SessionDraft(
            id=f"run-{next(_ids):04d}",
            spec=self.point.spec,
            argv=[],
            tool={},
            host={},
            started_at=datetime.now(UTC).isoformat(),
            name=self.point.name,
        )
        journal = JournalWriter(store.journal_path(self.store_dir, draft.id), draft.header())
        journal.write("second", {"t_s": 0, "rps": 1})
        if self.point.index in self.script.hang:
            self.script.going.set()
            await self.stopped.wait()
        status, message = "completed", None
        if self.stopped.is_set():
            status, message = "interrupted", "stopped"
        elif self.point.index in self.script.fail:
            status, message = "failed", "all 100 requests failed"
        hist = LatencyHistogram()
        hist.add(np.array(self.script.latencies(self.point, nth), dtype=np.int64))
        total = hist.count
        rate = self.point.spec.rate
        result = Result(
            tool="h2load",
            rps=(
                float(self.point.spec.connections * 1000 + nth)
                if rate is None
                else min(rate, self.script.capacity)
            ),
            rate=RateFigures(rate, rate / self.point.spec.connections) if rate else None,
            requests=Requests(total=total, succeeded=0 if status == "failed" else total),
            latency=hist.distribution(),
        )
        journal.write(
            "warning", {"code": "same-machine", "message": "load generator and target share"}
        )
        journal.write(
            "end",
            {
                "status": status,
                "result": result.to_dict(),
                "histogram": hist.to_dict(),
                "message": message,
                "resources": {"server_cpu_mean_pct": 50.0 + nth},
            },
        )
        journal.close()
        path = store.finalize(journal.path)
        finished = RunFinished(status, 0, result, path, message)
        self.listener(finished)
        return finished


def runner(
    plan: SweepPlan,
    store_dir: Path,
    script: Script,
    events: list[Any] | None = None,
    **options: Any,
) -> SweepRunner:
    def make(point: Point, target: Target, work: Path, listener: Listener) -> ScriptedRun:
        return ScriptedRun(point, work, listener, script)

    return SweepRunner(
        plan,
        [Target(TOOL, None)] * len(plan.points),
        SweepOptions(**{"cool_down_s": 0.0, **options}),
        store_dir=store_dir,
        listener=(events.append if events is not None else None),
        controller=make,
    )


async def test_runs_interleave_and_the_sweep_is_one_session(tmp_path: Path) -> None:
    script = Script()
    events: list[Event | Any] = []
    finished = await runner(plan_of("c=1,2", repeat=3), tmp_path, script, events).run()
    # Every other round backwards: c=1 c=2, c=2 c=1, c=1 c=2.
    assert script.started == [(0, 0), (1, 0), (1, 1), (0, 1), (0, 2), (1, 2)]
    assert finished.status == "completed" and finished.message is None
    assert sorted(p.name for p in tmp_path.iterdir()) == [finished.session_path.name]
    session = store.load(finished.session_path)
    assert session.is_sweep and session.kind == "sweep"
    assert session.result is None and session.series == []
    assert session.spec.connections == 1, "the first point's spec"
    assert [(r["point"], r["repeat"]) for r in session.doc["runs"]] == [
        (0, 0),
        (1, 0),
        (1, 1),
        (0, 1),
        (0, 2),
        (1, 2),
    ]
    assert [r.status for r in session.runs] == ["completed"] * 6
    assert session.runs[0].histogram is not None and session.runs[0].histogram.count == 100
    assert [w["code"] for w in session.doc["warnings"]] == ["same-machine"], "once"
    kinds = [type(e) for e in events]
    assert kinds[0] is SweepStarted and kinds[-1] is SweepFinished
    assert kinds.count(SweepRunStarted) == kinds.count(SweepRunFinished) == 6
    assert kinds.count(RunFinished) == 6, "the runs' own events reach the listener"
    done = [e for e in events if isinstance(e, SweepRunFinished)]
    assert [(e.index, e.total, e.repeat, e.rounds) for e in done][:2] == [
        (0, 6, 0, 3),
        (1, 6, 0, 3),
    ]
    assert done[-1].eta_s == 0.0 and done[0].eta_s is not None


async def test_point_aggregates_merge_histograms(tmp_path: Path) -> None:
    # Run 1 of the point: 1000 requests of 1 ms; run 2: 10 of 100 ms. Merged, p99 is 1 ms
    # and p99.9 is 100 ms; averaging the runs' p99s would give about 50 ms.
    def latencies(point: Point, nth: int) -> list[int]:
        return [1000] * 1000 if nth == 0 else [100_000] * 10

    script = Script(latencies=latencies)
    finished = await runner(plan_of("c=1", repeat=2), tmp_path, script).run()
    point = finished.session.doc["points"][0]
    assert point["n"] == 2 and point["runs"] == 2
    assert point["latency_from"] == "histograms" and point["latency_runs"] == 2
    assert point["latency"]["p99_s"] == pytest.approx(0.001, rel=0.01)
    assert point["latency"]["p99_9_s"] == pytest.approx(0.1, rel=0.01)
    spread = point["latency_spread"]["p99_s"]
    assert spread["n"] == 2 and spread["mean"] == pytest.approx(0.0505, rel=0.01)
    assert point["rps"]["n"] == 2 and point["rps"]["mean"] == 1000.5
    assert point["rps"]["ci_low"] < 1000.5 < point["rps"]["ci_high"]
    assert point["error_rate"] == 0.0 and point["requests"] == 1010
    assert point["server_cpu_pct"]["mean"] == 50.5


async def test_knee_and_thresholds(tmp_path: Path) -> None:
    # c=1 and c=2 answer in 1 ms, c=3 in 80 ms: the knee under p99<50ms is c=2.
    def latencies(point: Point, nth: int) -> list[int]:
        return [80_000 if point.spec.connections == 3 else 1000] * 100

    events: list[Any] = []
    finished = await runner(
        plan_of("c=1,2,3"),
        tmp_path,
        Script(latencies=latencies),
        events,
        slo=tuple(parse_slo("p99<50ms,errors<1%")),
        slo_text="p99<50ms,errors<1%",
        thresholds=(parse_threshold("p99<50ms"),),
        judge=judged((parse_threshold("p99<50ms"),), None),
    ).run()
    doc = finished.session.doc
    assert doc["knee"]["point"] == 1 and doc["knee"]["name"] == "c=2"
    assert doc["knee"]["rps"] == 2000.0
    assert [(v["name"], v["passed"]) for v in doc["thresholds"]] == [
        ("c=1", True),
        ("c=2", True),
        ("c=3", False),
    ]
    assert doc["sweep"]["slo"] == "p99<50ms,errors<1%"
    assert doc["sweep"]["thresholds"] == ["p99<50ms"]
    assert exit_code(0, finished.verdicts) == 99
    assert exit_code(1, finished.verdicts) == 1, "a failed run says more than a threshold"
    values = [e.values for e in events if isinstance(e, SweepRunFinished)]
    assert values[2]["p99_s"] == pytest.approx(0.08, rel=0.01)


async def test_the_knee_of_a_rate_sweep_is_the_highest_rate_held_within_the_slo(
    tmp_path: Path,
) -> None:
    # 3000 req/s answers in 30 ms (over the SLO), 4000 is past what the server takes (not
    # held: invalid, however quick its answers); 1000 and 2000 hold within it.
    def latencies(point: Point, nth: int) -> list[int]:
        return [30_000 if point.spec.rate == 3000 else 1000] * 100

    finished = await runner(
        plan_of("rate=1000,2000,3000,4000"),
        tmp_path,
        Script(latencies=latencies, capacity=3500.0),
        slo=tuple(parse_slo("p99<20ms")),
        slo_text="p99<20ms",
    ).run()
    doc = finished.session.doc
    verdicts = [p["validity"]["verdict"] for p in doc["points"]]
    assert verdicts == ["valid", "valid", "valid", "invalid"]
    assert doc["points"][3]["validity"]["reasons"][0]["code"] == "rate-not-held"
    assert doc["knee"]["point"] == 1 and doc["knee"]["name"] == "rate=2000"
    assert doc["knee"]["values"] == {"rate": 2000.0} and doc["knee"]["rps"] == 2000.0


async def test_a_failed_run_does_not_stop_the_sweep(tmp_path: Path) -> None:
    script = Script(fail={0})
    finished = await runner(plan_of("c=1,2", repeat=2), tmp_path, script).run()
    assert len(script.started) == 4
    assert finished.status == "failed" and finished.message == "2 of 4 runs failed"
    points = finished.session.doc["points"]
    assert (points[0]["n"], points[0]["failed"]) == (0, 2)
    assert points[0]["rps"]["mean"] is None, "only completed runs count"
    assert points[1]["n"] == 2


async def test_stop_during_a_run_keeps_it_as_interrupted(tmp_path: Path) -> None:
    script = Script(hang={1})
    sweep = runner(plan_of("c=1,2,3", repeat=2), tmp_path, script)
    task = asyncio.create_task(sweep.run())
    await asyncio.wait_for(script.going.wait(), 60)
    sweep.stop()
    finished = await asyncio.wait_for(task, 10)
    assert script.started == [(0, 0), (1, 0)], "no run after the stop"
    assert finished.status == "interrupted"
    assert finished.message == "stopped after 2 of 6 runs; what ran is kept"
    runs = store.load(finished.session_path).runs
    assert [r.status for r in runs] == ["completed", "interrupted"]
    assert sorted(p.name for p in tmp_path.iterdir()) == [finished.session_path.name]


async def test_stop_during_the_cool_down_ends_at_once(tmp_path: Path) -> None:
    events: list[Any] = []
    script = Script()
    sweep = runner(plan_of("c=1,2"), tmp_path, script, events, cool_down_s=60.0)
    task = asyncio.create_task(sweep.run())
    while not any(isinstance(e, CoolingDown) for e in events):
        await asyncio.sleep(0.01)
    started = time.monotonic()
    sweep.stop()
    finished = await asyncio.wait_for(task, 10)
    assert time.monotonic() - started < 5
    assert finished.status == "interrupted" and len(script.started) == 1


async def test_an_error_mid_sweep_still_saves_it(tmp_path: Path) -> None:
    script = Script(latencies=lambda point, nth: [-1] if point.index == 1 else [1000])
    with pytest.raises(ValueError):
        await runner(plan_of("c=1,2"), tmp_path, script).run()
    [saved] = list(tmp_path.glob("*.json"))
    session = store.load(saved)
    assert session.status == "failed" and "ValueError" in session.doc["message"]
    assert len(session.runs) == 1


def test_recovery_adopts_the_run_that_was_going(tmp_path: Path) -> None:
    # What a kill -9 leaves: the sweep's journal with one run recorded, the next run's
    # journal in the working directory, and a finished run file already recorded.
    plan = plan_of("c=1,2")
    header = {
        **SessionDraft("sweep-x", plan.points[0].spec, [], {}, {}, "t0").header(),
        "kind": "sweep",
        "sweep": plan.to_dict(),
    }
    sweep = JournalWriter(store.journal_path(tmp_path, "sweep-x"), header)
    work = store.runs_dir(sweep.path)
    first = SessionDraft("run-a", plan.points[0].spec, [], {}, {}, "t1").header()
    first.update(series=[], status="completed")
    sweep.write("run", {"slot": 0, "point": 0, "repeat": 0, "session": first})
    sweep.close()
    work.mkdir()
    (work / "run-a.json").write_bytes(orjson.dumps(first))
    going = JournalWriter(
        store.journal_path(work, "run-b"),
        SessionDraft("run-b", plan.points[1].spec, [], {}, {}, "t2").header(),
    )
    going.write("second", {"t_s": 0, "rps": 7})
    going.close()
    [entry] = store.list_sessions(tmp_path)
    assert entry.session is not None, entry.error
    session = entry.session
    assert session.status == "interrupted"
    assert [(r["slot"], r["point"]) for r in session.doc["runs"]] == [(0, 0), (1, 1)]
    assert [r.status for r in session.runs] == ["completed", "interrupted"]
    assert session.runs[1].series == [{"t_s": 0, "rps": 7}]
    assert not work.exists()


def test_damaged_sweeps_and_histograms_are_one_line_errors() -> None:
    plan = plan_of("c=1")
    doc: dict[str, Any] = {
        **SessionDraft("s", plan.points[0].spec, [], {}, {}, "t").header(),
        "kind": "sweep",
        "sweep": plan.to_dict(),
        "series": [],
        "runs": [{"point": 5, "session": {}}],
    }
    with pytest.raises(SessionError, match="bad run 1"):
        parse(orjson.dumps(doc), "x.json")
    single = {**SessionDraft("s", plan.points[0].spec, [], {}, {}, "t").header(), "series": []}
    assert parse(orjson.dumps(single), "x.json").histogram is None, "optional"
    single["histogram"] = {"sub_bits": 7, "n": 3, "buckets": []}
    with pytest.raises(SessionError, match="bad 'histogram'"):
        parse(orjson.dumps(single), "x.json")


def test_run_values_without_histogram_read_the_result() -> None:
    result = Result(
        tool="wrk",
        rps=10.0,
        requests=Requests(total=100, succeeded=99),
        latency=Distribution(max_s=0.5, percentiles={"p99_s": 0.2}),
    )
    values = run_values(
        Session({"id": "r", "result": result.to_dict()}), ("p99_s", "p95_s", "max_s")
    )
    assert values == {
        "rps": 10.0,
        "error_rate": pytest.approx(0.01),
        "p99_s": 0.2,
        "p95_s": None,
        "max_s": 0.5,
    }


# ---- the command


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--vary", "x=1", URL], "unknown parameter 'x'"),
        (["--vary", "c=abc", URL], "expected a whole number"),
        (["--ramp", "c=400/3", URL], "400 is not a multiple of 3"),
        (["-t", "4", "--vary", "c=8,2", URL], "point c=2: -t 4 is more than -c 2"),
        (["--label", "old", URL], "--label 'old': expected NAME=ARGS"),
        (["--vary", "c=1", "--threshold", "p99<5", URL], "p99 needs a unit"),
        (["--vary", "c=1", "--slo", "p99<5ms,", URL], "empty clause"),
        (["--label", "old=--bogus", URL], "unrecognized arguments: --bogus"),
        (["--vary", "c=1"], "no URL given"),
        (["--h2load", "/nonexistent/h2load", URL], "/nonexistent/h2load"),
    ],
)
def test_bad_sweeps_are_one_line_exit_2(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str], sessions: Path
) -> None:
    try:
        code = main(["sweep", "--headless", "--no-server", *args])
    except SystemExit as exc:  # argparse's own errors
        code = int(str(exc.code))
    err = capsys.readouterr().err
    assert code == 2
    assert message in err and len(err.strip().splitlines()) == 1, err
    assert not sessions.exists(), "nothing ran"


def test_labels_override_the_common_options(sessions: Path) -> None:
    from tui_bench.cli.args import build_parser
    from tui_bench.cli.cmd_sweep import sweep_variants

    args = build_parser().parse_args(
        [
            "sweep",
            "-n",
            "500",
            "-c",
            "8",
            "-H",
            "X-A: 1",
            "--server-pid",
            "1",
            "--label",
            "old=http://127.0.0.1:1/",
            "--label",
            "new=http://127.0.0.1:2/ -d 5 -c 4 --server-name nginx -H 'X-B: 2'",
            URL,
        ]
    )
    old, new = sweep_variants(args)
    assert old.label == "old" and old.request.spec.urls == ("http://127.0.0.1:1/",)
    assert old.request.spec.connections == 8 and old.request.server_pid == 1
    assert new.request.spec.connections == 4
    assert (new.request.spec.duration_s, new.request.spec.requests) == (5.0, None)
    assert new.request.spec.headers == ("X-A: 1", "X-B: 2")
    assert (new.request.server_mode, new.request.server_name) == ("name", "nginx")
    assert args.header == ["X-A: 1"], "the common options are left alone"


# The stand-in h2load speaks no protocol: --h1 spares the question whether the quiet
# listener speaks h2c, which it would leave unanswered for seconds.
FAKE_ARGS = ("--no-server", "--h2load", FAKE, "--h1")


def run_fake(url: str, mode: str, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [*TUIBENCH, "sweep", "--headless", "--json", *FAKE_ARGS, *args, url],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "FAKE_MODE": mode},
    )


def test_failed_runs_exit_1_and_each_has_its_line(sessions: Path, quiet_url: str) -> None:
    proc = run_fake(quiet_url, "garbage", "--vary", "c=1,2", "-n", "10", "--cool-down", "0")
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 1, err
    payload = orjson.loads(out)
    assert payload["run_status"] == "failed" and payload["message"] == "2 of 2 runs failed"
    lines = [ln for ln in err.splitlines() if ln.startswith("run ")]
    assert lines[0].startswith("run 1/2 c=1: failed (")
    assert lines[1].startswith("run 2/2 c=2: failed (")
    assert len(list(sessions.iterdir())) == 1


def test_hangup_stops_the_going_run_and_keeps_it(sessions: Path, quiet_url: str) -> None:
    proc = run_fake(quiet_url, "hang", "--repeat", "3", "-n", "50")
    wait_for_run(sessions, "*.runs/*.journal")
    proc.send_signal(signal.SIGHUP)  # a dropped SSH session
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 130, err
    payload = orjson.loads(out)
    assert payload["run_status"] == "interrupted"
    assert [r["status"] for r in payload["runs"]] == ["interrupted"]
    session = store.load(payload["session_path"])
    assert session.status == "interrupted" and len(session.runs) == 1
    assert [p.name for p in sessions.iterdir()] == [Path(payload["session_path"]).name]


def test_kill_9_is_recovered_with_the_going_run(sessions: Path, quiet_url: str) -> None:
    proc = subprocess.Popen(
        [*TUIBENCH, "sweep", "--headless", *FAKE_ARGS, "-n", "50", quiet_url],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "FAKE_MODE": "hang"},
        start_new_session=True,
    )
    wait_for_run(sessions, "*.runs/*.journal")
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(10)
    [entry] = store.list_sessions(sessions)
    assert entry.session is not None and entry.session.is_sweep
    assert entry.session.status == "interrupted"
    assert [r.status for r in entry.session.runs] == ["interrupted"]
    assert [p.suffix for p in sessions.iterdir()] == [".json"]
