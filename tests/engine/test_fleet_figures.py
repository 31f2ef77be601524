"""Runs of several wrk or ab generators: their latencies merged from each tool's quantile
table (approximate, and said so), and each figure the same in every view that shows it."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import psutil
import pytest

from tests.conftest import need
from tui_bench.analysis.sweep_points import aggregate, run_values
from tui_bench.analysis.thresholds import parse_threshold
from tui_bench.demo.nginx_target import DemoTarget
from tui_bench.engine.events import Event, GeneratorsSeen, RunFinished, SecondClosed
from tui_bench.engine.generators import Generator, saved_views
from tui_bench.engine.live_state import LiveState
from tui_bench.engine.options import EngineOptions
from tui_bench.formats import fmt_compact, fmt_latency
from tui_bench.jobs.judge import judged
from tui_bench.records.plan import PlannedPoint
from tui_bench.report.export import export
from tui_bench.report.text import generator_lines, result_rows, verdict_line
from tui_bench.runners.tools import find_tool
from tui_bench.spec import RunSpec
from tui_bench.storage import store
from tui_bench.storage.session import Session
from tui_bench.ui.text.monitor_text import generators as generators_text
from tui_bench.ui.text.monitor_text import latency as latency_text
from tui_bench.ui.tones import ANSI

P99 = parse_threshold("p99<10s")


async def run_fleet(
    tmp_path: Path, spec: RunSpec, nginx: DemoTarget
) -> tuple[RunFinished, list[Event]]:
    tool = find_tool(spec.tool)
    engine = EngineOptions(
        server=psutil.Process(nginx.pid),
        generators=(Generator(None, tool), Generator(None, tool)),
        interval_s=0.2,
        judge=judged([P99], None),
    )
    said: list[Event] = []
    finished = await engine.controller(spec, tool, said.append, tmp_path).run()
    return finished, said


@pytest.mark.parametrize(
    "spec",
    [
        RunSpec(tool="wrk", urls=("",), connections=2, threads=1, duration_s=1.0),
        RunSpec(tool="ab", urls=("",), connections=2, requests=2000),
    ],
    ids=["wrk", "ab"],
)
async def test_percentiles_merge_from_quantile_tables_in_every_view(
    tmp_path: Path, nginx: DemoTarget, spec: RunSpec
) -> None:
    need(spec.tool)
    finished, said = await run_fleet(tmp_path, replace(spec, urls=(nginx.urls["h1"],)), nginx)
    assert finished.status == "completed" and finished.result is not None
    session = store.load(finished.session_path)
    doc = session.doc
    latency = finished.result.latency
    assert latency is not None and latency.approx
    p99 = latency.percentiles["p99_s"]
    # The histogram merged from the tables holds every request of every generator once.
    histogram = session.histogram
    assert histogram is not None and doc["histogram"]["approx"] is True
    assert histogram.count == finished.result.requests.done
    # Between the generators' own p99s: what merging their distributions gives.
    own = [g["session"]["result"]["latency"]["p99_s"] for g in doc["generators"]]
    assert min(own) * 0.9 <= p99 <= max(own) * 1.1
    # The same p99 in the session, what thresholds and sweep points read, the summary, the
    # md export and the threshold's verdict, each marked approximate.
    assert doc["result"]["latency"]["p99_s"] == p99 and doc["result"]["latency"]["approx"]
    assert run_values(session, ("p99_s",))["p99_s"] == pytest.approx(p99)
    # A sweep point of this run: its p99, and its knee under an SLO on it.
    plan = [PlannedPoint(0, "c=2", "c=2", {"c": 2})]
    sweep = aggregate(plan, [(0, session)], [P99], "p99<10s")
    assert sweep.points[0].latency["p99_s"] == pytest.approx(p99)
    assert sweep.knee is not None and sweep.knee.point == 0
    shown = f"p99 ≈{fmt_latency(p99, latency.resolution_s)}"
    assert shown in dict(result_rows(finished.result))["latency"]
    assert f"| latency | {dict(result_rows(session.result))['latency']} |" in export(session, "md")
    [verdict] = doc["thresholds"]
    assert verdict["passed"] and verdict["approx"] and verdict["actual"] == pytest.approx(p99)
    assert "(p99 ≈" in verdict_line(session.thresholds[0])
    assert finished.exit_code == 0
    # The live view's whole-run figures once the run ended.
    state = LiveState(spec)
    for event in said:
        state.apply(event)
    assert f"p99 {shown.split()[1]}" in latency_text(state).plain


async def test_the_generators_panel_ends_on_the_whole_runs_figures(
    tmp_path: Path, nginx: DemoTarget
) -> None:
    need("wrk")
    spec = RunSpec(tool="wrk", urls=(nginx.urls["h1"],), connections=2, threads=1, duration_s=1.5)
    finished, said = await run_fleet(tmp_path, spec, nginx)
    assert finished.result is not None and finished.result.duration_s
    doc = store.load(finished.session_path).doc
    generators = doc["generators"]
    # Each one's requests over the merged window: they add up to the run's req/s and to 1.
    for g in generators:
        done = g["session"]["result"]["requests"]["done"]
        assert g["rps"] == pytest.approx(done / finished.result.duration_s)
    assert sum(g["rps"] for g in generators) == pytest.approx(finished.result.rps)
    assert finished.result.rps == pytest.approx(
        finished.result.requests.done / finished.result.duration_s
    )
    assert sum(g["share"] for g in generators) == pytest.approx(1.0)
    # Started on this machine, each one's start after the shared one is known.
    assert all(g["start_skew_s"] is not None and 0 <= g["start_skew_s"] < 1 for g in generators)
    # The panel's last word is the saved run's, not its last second's.
    last = [e for e in said if isinstance(e, GeneratorsSeen)][-1]
    assert last == saved_views(Session(doc))
    state = LiveState(spec)
    for event in said:
        state.apply(event)
    panel = generators_text(state, ANSI).plain
    for g in generators:
        assert f"{fmt_compact(g['rps'])} req/s" in panel
    lines = generator_lines(Session(doc).generators)
    assert [line.split()[1] for line in lines] == ["local", "local#2"]
    # The server is sampled by the run: every whole second of its series has its figures
    # (the first and the last may hold only a reading too short to tell CPU: unknown).
    rows = [e.row for e in said if isinstance(e, SecondClosed)]
    assert any(r["server_cpu_pct"] is not None for r in rows)
    assert all(r["server_cpu_pct"] is not None for r in rows[1:-1]), rows
    assert doc["resources"]["server_cpu_mean_pct"] is not None
