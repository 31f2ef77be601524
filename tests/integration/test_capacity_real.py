"""End to end: `tuibench capacity` driving real h2load against nginx, bounded to a few
seconds (short steps, a coarse resolution)."""

from __future__ import annotations

import re
from pathlib import Path

import orjson
import pytest
from junitparser import JUnitXml

from tests.conftest import need
from tests.integration.test_cli_real_tools import tuibench
from tui_bench.demo.nginx_target import DemoTarget
from tui_bench.storage import store

pytestmark = pytest.mark.real


def test_capacity_lies_between_the_lowest_rate_and_the_peak(
    nginx: DemoTarget, sessions: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    need("h2load")
    summary, junit = tmp_path / "summary.md", tmp_path / "capacity.xml"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    proc = tuibench(
        "capacity", "--headless", "--json", "--cool-down", "0", "--interval", "0.1",
        "-c", "4", "--step-duration", "1.2", "--resolution", "40", "--slo", "p99<1s",
        "--junit", str(junit), nginx.urls["h2c"],
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    out = orjson.loads(proc.stdout)
    assert out["kind"] == "capacity" and out["found"] and out["run_status"] == "completed"
    assert out["lowest_rate"] <= out["capacity_rps"] < out["peak_rps"]
    assert out["achieved_rps"]["median"] > 0 and out["latency_s"]["p99_s"]["median"] < 1
    assert "next step: rate=" in proc.stderr
    session = store.load(Path(out["session_path"]))
    assert session.is_sweep
    points = session.doc["sweep"]["points"]
    assert len(points) == 1 + len(out["steps"]) and len(out["steps"]) >= 2
    assert [r["point"] for r in session.doc["runs"]] == list(range(len(points)))
    assert session.doc["knee"]["values"] == {"rate": out["capacity_rps"]}
    # For CI: a case per step (a step past capacity is what the search looks for, not a
    # failure) and the capacity found, passing as the exit status does; the summary.
    [suite] = list(JUnitXml.fromfile(str(junit)))
    cases = {str(c.name): c for c in suite}
    assert len(cases) == len(points) + 1 and all(c.is_passed for c in cases.values())
    found = re.search(r"^capacity +([\d,]+) req/s held", str(cases["capacity"].system_out), re.M)
    assert found and found[1] == f"{out['capacity_rps']:,.0f}"
    assert "## Capacity" in summary.read_text()


def test_a_tool_without_a_schedule_is_refused_before_any_load(sessions: Path) -> None:
    proc = tuibench("capacity", "--tool", "wrk", "--slo", "p99<1s", "http://127.0.0.1:9/")
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1
    assert "capacity: --rate needs h2load" in proc.stderr
    assert not sessions.exists() or not any(sessions.iterdir())
