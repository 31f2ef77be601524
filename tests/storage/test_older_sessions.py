"""Sessions as each earlier release wrote them open in every view.

tests/fixtures/older/DATE/ holds what the release of that day saved from the same commands
against the demo nginx (tests/fixtures/CAPTURES.md says how): an h2load run, a wrk run, a
sweep of two points with two rounds each and, from the releases that had them, a fixed-rate
run and a run of two generators. Each is read as this release reads a session (its typed
records), then shown by every view: the sessions browser, the history, replay, the printed
summary and `--json`, the exports, the charts, compare and the sweep view."""

from __future__ import annotations

import shutil
from pathlib import Path

import orjson
import pytest

from tui_bench.analysis.history import history_of
from tui_bench.analysis.significance import compare_sides, point_refs, side_of
from tui_bench.analysis.sweep_charts import charts, metrics_of
from tui_bench.analysis.verdicts import Verdicts
from tui_bench.cli.progress import summary_text
from tui_bench.engine.events import RunFinished
from tui_bench.engine.generators import saved_views
from tui_bench.engine.replay import timeline
from tui_bench.engine.sweep import SweepFinished
from tui_bench.engine.sweep_state import SweepState, SweepTitle
from tui_bench.report.export import export
from tui_bench.report.run_report import run_payload
from tui_bench.report.sweep_report import sweep_payload, sweep_summary_lines
from tui_bench.storage import store
from tui_bench.storage.catalog import session_row
from tui_bench.storage.index import indexed
from tui_bench.storage.refs import headline
from tui_bench.storage.session import Session

OLDER = Path(__file__).parents[1] / "fixtures" / "older"
RELEASES = sorted(p.name for p in OLDER.iterdir())
FILES = sorted(OLDER.glob("*/*.json"))


def test_every_release_is_there() -> None:
    assert RELEASES == ["2026-11-21", "2026-11-24", "2026-11-25", "2026-11-26", "2026-11-28"]
    assert {p.name for p in FILES} >= {
        "h2load-h2load-run.json",
        "wrk-wrk-run.json",
        "sweep-c-sweep.json",
        "h2load-rate-run.json",
        "h2load-fleet-run.json",
    }


def _shared(session: Session) -> None:
    row = session_row(session)
    assert row["id"] == session.id and row["status"] == "completed"
    rps, verdict = headline(session)
    assert rps is not None and rps > 0
    assert verdict in (None, "valid", "suspect", "invalid")
    for fmt in ("json", "csv", "md"):
        assert export(session, fmt)
    assert orjson.loads(export(session, "json"))["id"] == session.id
    drawn = charts(session, metrics_of(None, sweep=session.is_sweep))
    assert any(not chart.empty for chart in drawn)


@pytest.mark.parametrize("path", [p for p in FILES if "sweep" not in p.name], ids=str)
def test_an_older_run_opens_in_every_view(path: Path) -> None:
    session = store.load(path)
    assert not session.is_sweep and session.result is not None
    _shared(session)
    played = timeline(session, path)
    [finished] = [e for e in played.events if isinstance(e, RunFinished)]
    assert finished.status == "completed" and finished.result == session.result
    assert finished.validity is not None
    assert "status" in summary_text(finished, session.spec)
    payload = run_payload(finished, session.spec.tool)
    assert payload["rps"] == session.result.rps
    if "fleet" in path.name:
        assert len(session.generators) == 2
        assert all(g.requests for g in session.generators)
        views = saved_views(session)
        assert views is not None and len(views.generators) == 2
        assert len(payload["generators"]) == 2
    report = compare_sides(side_of(session), side_of(session))
    assert report.verdict_of("rps") is not None


@pytest.mark.parametrize("path", sorted(OLDER.glob("*/sweep-*.json")), ids=str)
def test_an_older_sweep_opens_in_every_view(path: Path) -> None:
    session = store.load(path)
    assert session.is_sweep and len(session.plan.points) == 2 and len(session.entries) == 4
    assert [p.name for p in session.points] == ["c=1", "c=2"]
    assert all(p.n == 2 and p.rps_figure for p in session.points)
    _shared(session)
    state = SweepState.of_session(session, path)
    rows = state.rows()
    assert [r.done for r in rows] == [2, 2]
    assert [r.rps for r in rows] == [p.rps_figure for p in session.points]
    assert SweepTitle.of_session(session).name == "c-sweep"
    finished = SweepFinished(
        session.status, session.message, path, session, Verdicts.of_session(session)
    )
    assert len(sweep_payload(finished)["points"]) == 2
    assert any(line.startswith("status") for line in sweep_summary_lines(finished))
    first, second = (side_of(session, ref) for ref in point_refs(session))
    assert compare_sides(first, second).verdict_of("rps") is not None


def test_the_history_of_every_release_reads_as_one(tmp_path: Path) -> None:
    for day in RELEASES:
        shutil.copy(OLDER / day / "h2load-h2load-run.json", tmp_path / f"{day}-h2load-run.json")
    history = history_of("h2load-run", indexed(tmp_path, named="h2load-run"))
    assert len(history.runs) == len(RELEASES)
    assert all(run.points and run.points[0].value("rps") for run in history.runs)
