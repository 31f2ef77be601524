"""End to end: `tuibench sweep` and `run --threshold` driving real h2load against nginx."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
import pytest

from tests.conftest import need
from tests.integration.test_cli_real_tools import tuibench
from tui_bench.demo.nginx_target import DemoTarget
from tui_bench.histogram import LatencyHistogram
from tui_bench.storage import store

pytestmark = pytest.mark.real


def sweep_json(*args: str) -> tuple[int, dict[str, Any], str]:
    proc = tuibench("sweep", "--headless", "--json", "--cool-down", "0", "--interval", "0.1", *args)
    payload = orjson.loads(proc.stdout) if proc.stdout.strip() else {}
    return proc.returncode, payload, proc.stderr


def test_sweep_of_two_points_repeated(nginx: DemoTarget, sessions: Path) -> None:
    need("h2load")
    code, out, stderr = sweep_json(
        "--vary", "c=2,4", "--repeat", "2", "-n", "2000", "-m", "4", "--threshold", "p99<5s",
        "--slo", "p99<5s,errors<1%", nginx.urls["h2c"],
    )  # fmt: skip
    assert code == 0, stderr
    assert out["kind"] == "sweep" and out["run_status"] == "completed"
    # Round by round, the second one backwards: c=2, c=4, c=4, c=2.
    assert [(r["name"], r["repeat"]) for r in out["runs"]] == [
        ("c=2", 0),
        ("c=4", 0),
        ("c=4", 1),
        ("c=2", 1),
    ]
    assert all(r["status"] == "completed" and r["rps"] > 0 for r in out["runs"])
    lines = [ln for ln in stderr.splitlines() if ln.startswith("run ")]
    assert lines[0].startswith("run 1/4 c=2 rep 1: ") and "req/s p99" in lines[0]
    assert lines[3].startswith("run 4/4 c=2 rep 2: ")

    session = store.load(out["session_path"])
    assert session.is_sweep and session.status == "completed"
    assert list(sessions.iterdir()) == [Path(out["session_path"])], "runs live in the sweep"
    runs = session.runs
    assert [r.spec.connections for r in runs] == [2, 4, 4, 2]
    histograms = [r.histogram for r in runs]
    assert all(h is not None and h.count == 2000 for h in histograms)

    for index, point in enumerate(out["points"]):
        assert point["values"] == {"c": 2 * (index + 1)}
        assert point["n"] == 2 and point["requests"] == 4000 and point["error_rate"] == 0
        # Its own runs, wherever the rounds put them.
        mine = [i for i, r in enumerate(out["runs"]) if r["name"] == point["name"]]
        assert len(mine) == 2 and all(runs[i].spec.connections == 2 * (index + 1) for i in mine)
        merged = LatencyHistogram()
        for hist in (histograms[i] for i in mine):
            assert hist is not None
            merged.merge(hist)
        assert point["latency"]["p99_s"] == merged.percentile_s(99)
        assert point["latency"]["max_s"] == merged.max_us / 1e6  # type: ignore[operator]
        rps = point["rps"]
        assert rps["n"] == 2 and rps["ci_low"] <= rps["mean"] <= rps["ci_high"]
        assert rps["mean"] == pytest.approx(sum(out["runs"][i]["rps"] for i in mine) / 2)
    assert out["knee"]["point"] in (0, 1) and out["knee"]["slo"] == "p99<5s,errors<1%"
    assert [t["passed"] for t in out["thresholds"]] == [True, True]
    assert session.doc["thresholds"] == out["thresholds"]


def test_failed_threshold_exits_99(nginx: DemoTarget, sessions: Path) -> None:
    need("h2load")
    code, out, stderr = sweep_json(
        "-n", "500", "-c", "2", "--threshold", "p50<1us", "--threshold", "rps>1",
        nginx.urls["h2c"],
    )  # fmt: skip
    assert code == 99, stderr
    assert out["run_status"] == "completed"
    assert [(t["text"], t["passed"]) for t in out["thresholds"]] == [
        ("p50<1us", False),
        ("rps>1", True),
    ]
    assert "threshold p50<1us: FAIL (p50 " in stderr
    assert "threshold rps>1: pass (" in stderr


def test_run_threshold_is_saved_and_exits_99(nginx: DemoTarget, sessions: Path) -> None:
    need("h2load")
    url = nginx.urls["h2c"]
    ok = tuibench("run", "--headless", "--json", "-n", "500", "--threshold", "p99.9<5s", url)
    assert ok.returncode == 0, ok.stderr
    assert orjson.loads(ok.stdout)["thresholds"][0]["passed"] is True
    bad = tuibench("run", "--headless", "--json", "-n", "500", "--threshold", "max<1us", url)
    assert bad.returncode == 99, bad.stderr
    payload = orjson.loads(bad.stdout)
    assert payload["run_status"] == "completed"
    verdict = store.load(payload["session_path"]).doc["thresholds"][0]
    assert verdict["metric"] == "max_s" and verdict["passed"] is False
    assert "threshold max<1us: FAIL (max " in bad.stderr


def test_an_invalid_point_is_marked_never_the_knee_and_exits_1(
    nginx: DemoTarget, sessions: Path
) -> None:
    need("h2load")
    closing, healthy = nginx.urls["closing_h2c"], nginx.urls["h2c"]
    code, out, stderr = sweep_json(
        "--vary", f"url={closing},{healthy}", "-d", "1.5", "-c", "4", "-t", "2",
        "--slo", "p99<5s",
        healthy,
    )  # fmt: skip
    assert code == 1, stderr
    first, second = out["points"]
    assert first["validity"]["verdict"] == "invalid"
    assert "connections-dying" in {r["code"] for r in first["validity"]["reasons"]}
    # The healthy point is valid, or suspect of a stall only: with a core kept busy, the
    # scheduler alone held a request for 345 ms, past the 0.2 s a stall is called at.
    healthy_verdict = second["validity"]["verdict"]
    reasons = {r["code"] for r in second["validity"]["reasons"]}
    assert (healthy_verdict, reasons) in (("valid", set()), ("suspect", {"stall"})), reasons
    # Only a valid point is the knee: the healthy one when it is, never the invalid one.
    knee = (out.get("knee") or {}).get("point")
    assert knee == (1 if healthy_verdict == "valid" else None), out.get("knee")
    assert [r["validity"]["verdict"] for r in out["runs"]] == ["invalid", healthy_verdict]
    assert f"point url={closing}: " in stderr and "(connections-dying)" in stderr
