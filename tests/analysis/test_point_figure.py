"""A sweep point has one req/s and one latency per percentile: every view that shows the
point (its aggregate, the md/csv export, a compare side, the history, the plot, the knee)
shows the same number, the median of its completed runs'."""

from __future__ import annotations

from pathlib import Path
from statistics import median
from typing import Any

import pytest

from tests.analysis.test_significance import run, sweep
from tui_bench.analysis import sweep_charts
from tui_bench.analysis.compare import METRICS
from tui_bench.analysis.significance import compare_sides, median_of, side_of
from tui_bench.analysis.sweep_points import aggregate
from tui_bench.analysis.thresholds import parse_slo
from tui_bench.report.sweep_export import sweep_rows
from tui_bench.storage import store
from tui_bench.storage.history_facts import history_facts
from tui_bench.storage.session import Session
from tui_bench.storage.sweep_codec import point_of, summary_record

FIXTURES = Path(__file__).parents[1] / "fixtures"
SLO = "p99<1s"
BY_NAME = {m.name: m for m in METRICS}


def synthetic() -> Session:
    """Three runs of one point, the third far off (a disturbed run): its median and mean
    differ, so a view that averaged would show another number."""
    runs = [run(0, 10_000), run(1, 10_400, p99=0.011), run(2, 4_000, p99=0.090)]
    return Session(sweep({"c=10": runs, "c=20": [run(3, 12_000), run(4, 12_500)]}))


def recorded() -> Session:
    """A real h2load sweep on the demo nginx, its runs with their latency histograms."""
    return store.load(FIXTURES / "sweep-c-repeat2.json")


def figures_of(point: Any) -> dict[str, float | None]:
    return point_of(point).figures()


def aggregated(session: Session) -> Session:
    """The sweep with its points aggregated as the sweep engine does when it ends."""
    doc: dict[str, Any] = dict(session.doc)
    runs = [(entry.point, entry.session) for entry in session.entries]
    summary = aggregate(session.plan.points, runs, parse_slo(SLO), SLO)
    return Session({**doc, **summary_record(summary)})


@pytest.mark.parametrize("make", [synthetic, recorded], ids=["synthetic", "recorded"])
@pytest.mark.parametrize("key", ["rps", "p99_s"])
def test_every_view_shows_the_same_point_figure(make: Any, key: str) -> None:
    session = aggregated(make())
    doc = session.doc
    exported = [r for r in sweep_rows(session) if r["row_type"] == "point"]
    history = history_facts(session)["points"]
    chart_metric = sweep_charts.METRICS["rps" if key == "rps" else "p99"]
    (chart,) = sweep_charts.charts(session, [chart_metric])
    (line,) = chart.lines
    for index, point in enumerate(doc["points"]):
        figure = figures_of(point)[key]
        assert figure is not None
        side = side_of(session, point["name"])
        runs = [BY_NAME[key].read(r) for r in side.runs]
        assert figure == pytest.approx(median(v for v in runs if v is not None), rel=1e-9)
        assert exported[index][key] == pytest.approx(figure, rel=1e-9)
        assert median_of(BY_NAME[key], side) == pytest.approx(figure, rel=1e-9)
        assert history[index][key] == pytest.approx(figure, rel=1e-9)
        assert line.y[index] == pytest.approx(figure * chart_metric.scale, rel=1e-9)
    # Compare tests the same centres.
    first, second = (side_of(session, p["name"]) for p in doc["points"])
    verdict = compare_sides(first, second).verdict_of(key)
    assert verdict is not None
    assert verdict.comparison.median_a == pytest.approx(figures_of(doc["points"][0])[key])
    assert verdict.comparison.median_b == pytest.approx(figures_of(doc["points"][1])[key])
    knee = doc["knee"]
    assert knee["point"] is not None
    assert knee["rps"] == figures_of(doc["points"][knee["point"]])["rps"]


def test_one_disturbed_run_does_not_move_the_point() -> None:
    point = aggregated(synthetic()).doc["points"][0]
    figures = figures_of(point)
    rps, p99 = figures["rps"], figures["p99_s"]
    assert rps is not None and p99 is not None
    assert point["rps"]["mean"] < 9_000 < rps < 10_500
    # The runs' p99 are about 10, 11 and 90 ms: the point's is the middle one.
    assert 0.0105 < p99 < 0.0115
