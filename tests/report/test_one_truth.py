"""A sweep point's req/s and p99 are defined once (records.sweep_point `rps_figure` and
`latency_figure`: the medians of its runs' own) and every view that lists a point shows that
one.

`tuibench compare` tests runs against runs with the same centre: its `a` and `b` are those
medians too (README, compare)."""

from __future__ import annotations

from pathlib import Path

import orjson

from tui_bench.analysis.significance import side_of
from tui_bench.analysis.sweep_charts import charts, metrics_of
from tui_bench.engine.sweep_state import SweepState
from tui_bench.report.export import export
from tui_bench.report.sweep_export import sweep_rows
from tui_bench.storage import store
from tui_bench.storage.catalog import session_row
from tui_bench.storage.sweep_codec import point_of
from tui_bench.ui.widgets.point_picker import PointChoice

SWEEP = Path(__file__).parents[1] / "fixtures" / "sweep-c-repeat2.json"


def test_a_point_shows_the_same_figures_in_every_view() -> None:
    session = store.load(SWEEP)
    # c=4 is the knee: the sessions browser lists the sweep by it.
    truth = session.points[0].figures()
    rps, p99 = truth["rps"], truth["p99_s"]
    assert rps is not None and p99 is not None
    views: dict[str, tuple[float | None, float | None]] = {}
    row = session_row(session)
    views["browser"] = (row["rps"], row["p99_s"])
    choice = PointChoice.of(side_of(session, "c=4"), "c=4")
    views["point picker"] = (choice.rps, choice.p99_s)
    table = SweepState.of_session(session, SWEEP).rows()[0]
    views["sweep table"] = (table.rps, table.p99_s)
    exported = orjson.loads(export(session, "json"))["points"][0]
    views["json export"] = (
        point_of(exported).rps_figure,
        point_of(exported).latency_figure("p99_s"),
    )
    csv = next(r for r in sweep_rows(session) if r["row_type"] == "point" and r["point"] == 0)
    views["csv export"] = (csv["rps"], csv["p99_s"])
    rps_chart, latency = charts(session, metrics_of("rps,p99", sweep=True))
    # The latency chart is in ms.
    views["plot"] = (rps_chart.lines[0].y[0], latency.lines[0].y[0] / 1e3)
    assert views == dict.fromkeys(views, (rps, p99)), views
    md = export(session, "md")
    assert f"| c=4 | 2/2 | {round(rps):,} |" in md
