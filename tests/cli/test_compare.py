"""`tuibench compare A B --json` end to end on session files in a temporary store: by id,
id prefix, path and @POINT."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import orjson
import pytest

from tests.analysis.test_significance import CONTRACT_KEYS, run, runs, sweep
from tui_bench.cli.main import main

TUIBENCH = [sys.executable, "-m", "tui_bench.cli.main"]
BASE = "20260102-120000-000-sweep-base"
FASTER = "20260102-130000-000-sweep-faster"
GRID = "20260102-140000-000-sweep-grid"
SINGLE = "20260101-120000-000-h2load-run"


def save(directory: Path, document: dict[str, Any]) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"{document['id']}.json"
    path.write_bytes(orjson.dumps(document))
    return path


@pytest.fixture
def store(sessions: Path) -> Path:
    """Two one-point sweeps of ten runs (B 10 % more req/s), a sweep of two points, a run."""
    save(sessions, sweep({"": runs(10, 10_000)}, BASE))
    save(sessions, sweep({"": runs(10, 11_000, start=10)}, FASTER))
    points = {"c=10": runs(5, 10_000, start=20), "c=20": runs(5, 10_000, 30, connections=20)}
    save(sessions, sweep(points, GRID))
    save(sessions, run(0, 10_000))
    return sessions


def compare_json(capsys: pytest.CaptureFixture[str], *refs: str) -> dict[str, Any]:
    code = main(["compare", *refs, "--json"])
    out = capsys.readouterr().out
    assert code == 0
    payload: dict[str, Any] = orjson.loads(out)
    return payload


def by_name(payload: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {m["name"]: m for m in payload["metrics"]}


def test_json_is_the_contract_and_opens_no_screen(store: Path) -> None:
    proc = subprocess.run(
        [*TUIBENCH, "compare", BASE, "20260102-13", "--json"],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "TUIBENCH_SESSIONS": str(store)},
        stdin=subprocess.DEVNULL,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    payload = orjson.loads(proc.stdout)
    assert set(payload) == {"a", "b", "primary", "adjustment", "alpha", "metrics", "warnings"}
    for metric in payload["metrics"]:
        assert set(metric) == CONTRACT_KEYS, metric["name"]
    metrics = by_name(payload)
    assert {"rps", "p50_s", "p99_s", "error_rate", "server_cpu_pct"} <= set(metrics)
    rps = metrics["rps"]
    assert rps["verdict"] == "better" and (rps["n_a"], rps["n_b"]) == (10, 10)
    assert rps["ci_low_pct"] > 0 and rps["p_adjusted"] < 0.05
    assert payload["a"]["session"] == BASE and payload["b"]["session"] == FASTER
    assert any("Holm" in w for w in payload["warnings"])


def test_session_files_by_path_even_with_an_at_sign(
    store: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    odd = tmp_path / "copies@home"
    a = save(odd, orjson.loads((store / f"{BASE}.json").read_bytes()))
    b = save(odd, orjson.loads((store / f"{GRID}.json").read_bytes()))
    payload = compare_json(capsys, str(a), f"{b}@c=20")
    assert payload["a"]["path"] == str(a) and payload["a"]["point"] is None
    assert payload["b"]["path"] == str(b) and payload["b"]["point"] == "c=20"


def test_single_runs_have_a_delta_and_insufficient_data(
    store: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    payload = compare_json(capsys, SINGLE, f"{GRID}@1")
    rps = by_name(payload)["rps"]
    assert rps["verdict"] == "insufficient data" and (rps["n_a"], rps["n_b"]) == (1, 5)
    assert rps["delta_pct"] is not None and rps["p_value"] is None
    assert any(w.startswith("fewer than 4 runs a side (A has 1)") for w in payload["warnings"])


def test_two_points_of_one_sweep(store: Path, capsys: pytest.CaptureFixture[str]) -> None:
    payload = compare_json(capsys, f"{GRID}@c=10", f"{GRID}@2")
    assert (payload["a"]["point"], payload["b"]["point"]) == ("c=10", "c=20")
    assert "set-up differs: connections: 10 (A) vs 20 (B)" in payload["warnings"]
    assert by_name(payload)["rps"]["verdict"] == "no difference"


@pytest.mark.parametrize(
    ("refs", "message"),
    [
        ((BASE, GRID), "is a sweep of 2 points: add @POINT, one of c=10, c=20"),
        ((BASE, f"{GRID}@c=30"), "has no point 'c=30': its points are c=10, c=20"),
        ((f"{SINGLE}@1", BASE), "is a single run: it has no point '1'"),
        ((BASE, "20990101"), "20990101: no such session file or id"),
        ((BASE, "2026"), "2026: matches 4 sessions; give more of the id"),
        ((BASE, "/nowhere/s.json@c=10"), "/nowhere/s.json: no such session file"),
    ],
)
def test_bad_refs_are_one_line_exit_2(
    store: Path, refs: tuple[str, str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["compare", *refs, "--json"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert message in captured.err and len(captured.err.strip().splitlines()) == 1


def test_the_command_line_starts_without_scipy() -> None:
    code = "import sys, tui_bench.cli.cmd_run, tui_bench.cli.cmd_sweep, tui_bench.cli.cmd_compare; "
    code += "print('scipy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_markdown_to_stdout_or_a_new_file_never_over_one(
    store: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["compare", BASE, FASTER, "--format", "md"]) == 0
    printed = capsys.readouterr().out
    assert printed.startswith("# ") and "| req/s (primary) |" in printed
    target = tmp_path / "cmp.md"
    assert main(["compare", BASE, FASTER, "--format", "md", "-o", str(target)]) == 0
    assert target.read_text() == printed
    assert f"comparison written to {target}" in capsys.readouterr().err
    target.write_text("kept")
    assert main(["compare", BASE, FASTER, "--format", "md", "-o", str(target)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "exists" in err and "--force" in err
    assert target.read_text() == "kept"
    assert main(["compare", BASE, FASTER, "--format", "md", "-o", str(target), "--force"]) == 0
    assert target.read_text() == printed
    assert main(["compare", BASE, FASTER, "-o", str(target)]) == 2


def test_a_gate_on_single_runs_takes_the_likely_tier_as_a_run_does(
    store: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["compare", SINGLE, f"{GRID}@1", "--json", "--fail-on-regression", "50"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert orjson.loads(out)["verdict_tier"] == "likely"
    assert "baseline: gating on the likely tier: --verdict tested needs 4 runs" in err
    asked = ["compare", SINGLE, f"{GRID}@1", "--json", "--fail-on-regression", "--verdict"]
    assert main([*asked, "tested"]) == 2
    assert "--verdict tested needs 4 runs a side" in capsys.readouterr().err
