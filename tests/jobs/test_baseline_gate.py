"""`--baseline` and its gate, prepared before any load: what it refuses in one line, the
tier it takes at the run counts there are, and which run `NAME@latest` names."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.analysis.test_compare import URL
from tests.analysis.test_significance import run, runs, sweep
from tests.storage.test_refs import INVALID, named_run, save
from tui_bench.errors import UsageError
from tui_bench.jobs import baseline_gate
from tui_bench.jobs.baseline_gate import Planned, prepare_gate
from tui_bench.request.judging import Judging
from tui_bench.runners.tools import Tool
from tui_bench.spec import RunSpec
from tui_bench.storage import store

H2LOAD = Tool("h2load", "/usr/bin/h2load", "1.52.0")
# The set-up of tests.analysis.test_compare's runs: h2load -c 10 -t 1 -D 10000ms -m 4.
SPEC = RunSpec(urls=(URL,), connections=10, threads=1, duration_s=10.0, streams=4)


@pytest.fixture(autouse=True)
def same_host(monkeypatch: pytest.MonkeyPatch) -> None:
    """This machine is the one the saved runs were made on."""
    saved = run(0, 1000)["host"]
    monkeypatch.setattr(baseline_gate, "host_facts", lambda: dict(saved))


def gate(sessions: Path, ref: str, planned: list[Planned] | None = None, **asked: Any) -> Any:
    judging = Judging(baseline=ref, **asked)
    return prepare_gate(judging, planned or [Planned(None, SPEC, H2LOAD)])


def test_a_single_run_gate_takes_the_likely_tier_and_says_why(sessions: Path) -> None:
    save(sessions, named_run(1, "api", 1000, 9))
    found = gate(sessions, "api@latest", fail_on_regression=5.0)
    assert found.tier == "likely"
    assert "`tuibench sweep --repeat N` with N of 4 or more" in found.notes[0]


def test_the_tested_tier_asked_at_one_run_is_refused_before_the_load(sessions: Path) -> None:
    save(sessions, named_run(1, "api", 1000, 9))
    with pytest.raises(UsageError, match=r"--verdict tested needs 4 runs a side.*has 1"):
        gate(sessions, "api@latest", fail_on_regression=5.0, tier="tested")


def test_enough_runs_a_side_take_the_tested_tier(sessions: Path) -> None:
    save(sessions, sweep({"": runs(4, 1000)}, name="grid"))
    found = gate(sessions, "grid@latest", [Planned("1", SPEC, H2LOAD, 4)], fail_on_regression=5)
    assert found.tier == "tested" and found.notes == ()


def test_an_invalid_baseline_is_refused_only_by_a_gate(sessions: Path) -> None:
    path = save(sessions, named_run(1, "api", 1000, 9, validity=INVALID))
    with pytest.raises(UsageError, match=r"is invalid: stopped"):
        gate(sessions, str(path), fail_on_regression=5.0)
    assert gate(sessions, str(path)).tolerance_pct is None


def test_another_set_up_is_refused_unless_allowed(sessions: Path) -> None:
    path = save(sessions, named_run(1, "api", 1000, 9))
    newer = Planned(None, SPEC, Tool("h2load", "/usr/bin/h2load", "1.70.0"))
    with pytest.raises(UsageError, match=r"version 1.52.0 \(baseline\) vs 1.70.0 \(this run\)"):
        gate(sessions, str(path), [newer], fail_on_regression=5.0)
    assert gate(sessions, str(path), [newer], fail_on_regression=5.0, allow_setup_change=True)
    other = Planned(None, RunSpec(urls=(URL,), connections=20, duration_s=10.0, streams=4), H2LOAD)
    with pytest.raises(UsageError, match="flags"):
        gate(sessions, str(path), [other], fail_on_regression=5.0)
    # The same set-up as the saved run's passes.
    assert gate(sessions, str(path), fail_on_regression=5.0).tier == "likely"


def test_a_run_against_a_sweep_of_points_is_refused_before_the_load(sessions: Path) -> None:
    save(sessions, sweep({"c=10": runs(2, 1000), "c=20": runs(2, 1500)}, name="grid"))
    with pytest.raises(UsageError, match="name its point, REF@POINT"):
        gate(sessions, "grid@latest")
    with pytest.raises(UsageError, match="point c=40 of this sweep is not in the baseline"):
        gate(sessions, "grid@latest", [Planned("c=40", SPEC, H2LOAD, 2)])


def test_latest_skips_an_invalid_run_and_one_that_failed_its_gate(sessions: Path) -> None:
    good = save(sessions, named_run(1, "api", 1000, 9))
    save(sessions, named_run(2, "api", 3000, 10, validity=INVALID))
    failed = {"ref": "api@-1", "failed": True, "refused": []}
    last = save(sessions, named_run(3, "api", 500, 11, baseline=failed))
    assert store.resolve("api@latest", sessions) == good
    assert store.resolve("api@-1", sessions) == last


def test_a_baseline_that_never_measured_the_gated_metric_is_refused_before(
    sessions: Path,
) -> None:
    path = save(sessions, named_run(1, "api", 1000, 9, resources={}, series=[]))
    with pytest.raises(UsageError, match="the baseline has no server CPU: nothing to gate on"):
        gate(sessions, str(path), fail_on_regression=5.0, gate_metric="server_cpu_pct")


def test_an_unknown_set_up_field_is_refused_before_as_after(sessions: Path) -> None:
    imported = named_run(1, "api", 1000, 9)
    imported["tool"] = {"name": "h2load", "path": "", "version": None}
    imported["result"] = {**imported["result"], "tool_version": None}
    path = save(sessions, imported)
    with pytest.raises(UsageError, match=r"version unknown \(baseline\) vs 1.52.0"):
        gate(sessions, str(path), fail_on_regression=5.0)
