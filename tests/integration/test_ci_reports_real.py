"""CI reports from real runs: `--junit FILE` read back with junitparser (a case per
validity check, threshold and gate, failing where the exit status does), and the markdown
summary appended to GitHub's job summary (`GITHUB_STEP_SUMMARY`) by run, sweep and compare."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest
from junitparser import JUnitXml

from tests.conftest import need
from tests.integration.test_cli_real_tools import tuibench
from tui_bench.demo.nginx_target import DemoTarget
from tui_bench.report.junit import CHECKS

pytestmark = pytest.mark.real


def _cases(path: Path) -> dict[str, dict[str, bool]]:
    """Each suite's cases: passed or not."""
    return {
        str(suite.name): {str(case.name): bool(case.is_passed) for case in suite}
        for suite in JUnitXml.fromfile(str(path))
    }


def test_a_run_a_sweep_and_a_compare_report_to_junit_and_the_job_summary(
    nginx: DemoTarget, sessions: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    need("h2load")
    summary = tmp_path / "summary.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    url = nginx.urls["h2c"]
    runs = []
    for name in ("a", "b"):
        junit = tmp_path / f"{name}.xml"
        proc = tuibench(
            "run", "--headless", "--json", "-n", "500", "-c", "2", "--name", name,
            "--threshold", "max<1us", "--threshold", "rps>1", "--junit", str(junit), url,
        )  # fmt: skip
        assert proc.returncode == 99, proc.stderr
        runs.append(orjson.loads(proc.stdout))
        [(suite, cases)] = _cases(junit).items()
        assert suite == name
        assert len(cases) == len(CHECKS) + 2
        assert {c for c, passed in cases.items() if not passed} == {"threshold max<1us"}
        failure = JUnitXml.fromfile(str(junit))
        [case] = [c for s in failure for c in s if c.name == "threshold max<1us"]
        assert case.result[0].message.startswith("threshold max<1us: FAIL (max ")
    text = summary.read_text()
    # Appended, one after the other, as every step of a job does.
    assert text.index("# a\n") < text.index("# b\n")
    assert "| metric | value |" in text

    sweep_junit = tmp_path / "sweep.xml"
    proc = tuibench(
        "sweep", "--headless", "--cool-down", "0", "-n", "300", "--vary", "c=1,2",
        "--threshold", "p50<1us", "--name", "grid", "--junit", str(sweep_junit), url,
    )  # fmt: skip
    assert proc.returncode == 99, proc.stderr
    points = _cases(sweep_junit)
    assert sorted(points) == ["c=1", "c=2"]
    for point, cases in points.items():
        assert {c for c, passed in cases.items() if not passed} == {f"threshold p50<1us at {point}"}
    assert "# grid" in summary.read_text()

    compare_junit = tmp_path / "compare.xml"
    a, b = (run["session_path"] for run in runs)
    proc = tuibench("compare", a, b, "--fail-on-regression", "50", "--junit", str(compare_junit))
    assert proc.returncode in (0, 99), proc.stderr
    [(_, cases)] = _cases(compare_junit).items()
    assert cases == {"gate: baseline": proc.returncode == 0}
    assert summary.read_text().count("| metric |") >= 2


def test_a_junit_file_that_cannot_be_written_is_refused_before_any_load(
    sessions: Path, tmp_path: Path
) -> None:
    proc = tuibench(
        "run", "--headless", "-n", "10", "--junit", str(tmp_path / "no" / "r.xml"),
        "http://127.0.0.1:9/",
    )  # fmt: skip
    assert proc.returncode == 2
    assert (
        proc.stderr.strip()
        == f"tuibench: error: --junit {tmp_path / 'no' / 'r.xml'}: no such directory"
    )
    directory = tuibench(
        "run", "--headless", "-n", "10", "--junit", str(tmp_path), "http://127.0.0.1:9/"
    )
    assert directory.returncode == 2
    assert directory.stderr.strip() == (
        f"tuibench: error: --junit {tmp_path}: is a directory: name the report's file"
    )
    assert not sessions.exists() or not any(sessions.iterdir())
