"""A benchmark's history from saved sessions: order, set-up changes, invalid runs apart,
change points between the right runs, sweeps by point."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.history_sessions import run_doc, save, sweep_doc
from tui_bench.analysis.history import History, history_of, setup_changes
from tui_bench.errors import UsageError
from tui_bench.storage.index import indexed

LEVELS = [10_000, 10_150, 9_900, 10_050, 9_950, 10_100, 9_000, 9_100, 8_950, 9_050, 8_900, 9_000]


def api_history(directory: Path) -> History:
    for day, rps in enumerate(LEVELS):
        save(directory, run_doc("api", day, rps, 0.010))
    save(directory, run_doc("api", 6.5, 800, 0.9, status="interrupted"))
    save(directory, run_doc("api", 20, 9_000, 0.010, connections=32, version="1.59.0"))
    save(directory, run_doc("other", 3, 1, 1.0))
    return history_of("api", indexed(directory))


def test_runs_of_the_name_oldest_first(tmp_path: Path) -> None:
    history = api_history(tmp_path)
    assert len(history.runs) == 14
    started = [run.started for run in history.runs]
    assert started == sorted(started)  # type: ignore[type-var]
    assert {run.id.split("-h2load-")[1] for run in history.runs} == {"api"}


def test_an_invalid_run_is_apart_and_left_out_of_the_trend(tmp_path: Path) -> None:
    history = api_history(tmp_path)
    invalid = [run for run in history.runs if run.invalid]
    assert [run.status for run in invalid] == ["interrupted"]
    assert invalid[0].verdict == "invalid"
    values = [value for _, value in history.series("", "rps")]
    assert 800 not in values and len(values) == 13


def test_the_step_is_found_between_the_runs_either_side(tmp_path: Path) -> None:
    history = api_history(tmp_path)
    (step,) = [s for s in history.steps if s.metric == "rps"]
    before, after = history.runs[step.before_run], history.runs[step.after_run]
    # The invalid run between them is not one of its sides.
    assert before.id.startswith("20260307") and after.id.startswith("20260308")
    assert step.step_pct == pytest.approx(-10.2, abs=0.5)
    assert (step.runs_before, step.runs_after) == (6, 7)
    assert not [s for s in history.steps if s.metric == "p99_s"], "p99 never moved"


def test_set_up_changes_are_named(tmp_path: Path) -> None:
    history = api_history(tmp_path)
    assert history.runs[0].changes == ()
    assert history.runs[-1].changes == ("version 1.52.0→1.59.0", "c 10→32")
    assert all(run.changes == () for run in history.runs[1:-1])


def test_setup_changes_show_unknown_and_lists() -> None:
    assert setup_changes({"urls": ["a"], "streams": None}, {"urls": ["a", "b"], "streams": 10}) == [
        "url a→a,b",
        "m –→10",
    ]


def test_a_sweep_history_goes_by_point_with_its_spread(tmp_path: Path) -> None:
    for day in range(8):
        save(tmp_path, sweep_doc("grid", day, (20_000, 30_000 if day < 4 else 26_000)))
    history = history_of("grid", indexed(tmp_path))
    assert history.point_names == ["c=4", "c=32"]
    figures = history.runs[0].point("c=32")
    assert figures is not None
    assert (figures.rps, figures.spread("rps")) == (30_000, (29_400, 30_600))
    assert figures.spread("p99_s")[0] is not None
    (step,) = history.steps
    assert (step.point, step.metric) == ("c=32", "rps")
    assert step.after_run == 4 and step.step_pct == pytest.approx(-13.3, abs=0.1)


def test_json_has_every_run_and_change_point(tmp_path: Path) -> None:
    data = api_history(tmp_path).to_dict()
    assert data["name"] == "api" and data["method"]["name"] == "PELT"
    assert len(data["runs"]) == 14
    run = data["runs"][-1]
    assert set(run) == {
        "id",
        "path",
        "started_at",
        "kind",
        "status",
        "validity",
        "setup_changes",
        "points",
    }
    (step,) = data["change_points"]
    assert step["before_id"].startswith("20260307") and step["after_id"].startswith("20260308")


def test_an_unknown_name_is_one_line(tmp_path: Path) -> None:
    save(tmp_path, run_doc("api", 0, 1.0, 1.0))
    with pytest.raises(UsageError, match="no saved session is named 'apx'"):
        history_of("apx", indexed(tmp_path))


def test_a_name_cut_short_gets_a_did_you_mean_as_export_does(tmp_path: Path) -> None:
    """`history his` names the benchmark `history-demo` it begins, as `export his@latest`
    does; the command line asks the store's index for its names only then."""
    save(tmp_path, run_doc("history-demo", 0, 1.0, 1.0))
    asked = []

    def names() -> list[str]:
        asked.append(True)
        return ["history-demo", "other"]

    with pytest.raises(UsageError, match=r"named 'his'; did you mean history-demo\?$"):
        history_of("his", indexed(tmp_path, named="his"), names)
    assert asked == [True]
    with pytest.raises(UsageError, match=r"named 'his'; did you mean history-demo\?$"):
        history_of("his", indexed(tmp_path))
    assert history_of("history-demo", indexed(tmp_path), names).name == "history-demo"
    assert asked == [True]
