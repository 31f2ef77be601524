"""Exports of recorded sweeps against golden files.

The fixtures are real sweeps on the demo nginx: `sweep-c-repeat2` varied c over 4 and 32,
two runs each, with an SLO and a threshold; `sweep-grid-interrupted` varied c and m and was
stopped by Ctrl-C in its third run. After a deliberate change to the tables, write the
golden files again with `tuibench export tests/fixtures/NAME.json -f md > .../NAME.md` (and
`-f csv`), and read the difference before keeping it.
"""

from __future__ import annotations

import copy
import csv
import io
from pathlib import Path
from typing import Any

import orjson
import pytest

from tests.factories import rate_sweep_doc
from tui_bench.cli.main import main
from tui_bench.formats import fmt_metric, metric_label
from tui_bench.parameter_text import shown
from tui_bench.report.export import export
from tui_bench.report.sweep_export import sweep_rows
from tui_bench.storage import store
from tui_bench.storage.session import Session

FIXTURES = Path(__file__).parents[1] / "fixtures"
SWEEPS = ("sweep-c-repeat2", "sweep-grid-interrupted")


def sweep(name: str) -> Session:
    return store.load(FIXTURES / f"{name}.json")


@pytest.mark.parametrize("name", SWEEPS)
@pytest.mark.parametrize("fmt", ["md", "csv"])
def test_export_matches_the_golden_file(name: str, fmt: str) -> None:
    assert export(sweep(name), fmt) == (FIXTURES / f"{name}.{fmt}").read_text()


def test_the_command_writes_the_same_markdown(capsys: pytest.CaptureFixture[str]) -> None:
    path = FIXTURES / "sweep-c-repeat2.json"
    assert main(["export", str(path), "--format", "md"]) == 0
    assert capsys.readouterr().out == (FIXTURES / "sweep-c-repeat2.md").read_text()


def test_json_is_the_document_as_stored_like_a_single_run() -> None:
    session = sweep("sweep-c-repeat2")
    doc = orjson.loads(export(session, "json"))
    assert doc == session.doc
    assert doc["kind"] == "sweep" and len(doc["runs"]) == 4


def test_a_run_row_per_run_then_the_points_figures() -> None:
    rows = sweep_rows(sweep("sweep-c-repeat2"))
    assert [(r["row_type"], r["c"], r["run"]) for r in rows] == [
        ("run", 4, 1),
        ("run", 4, 2),
        ("point", 4, None),
        ("run", 32, 1),
        ("run", 32, 2),
        ("point", 32, None),
    ]
    first, second, point = rows[:3]
    # The median of two runs lies halfway; the counts are the runs' sums, as in --json.
    assert point["rps"] == pytest.approx((first["rps"] + second["rps"]) / 2)
    assert point["requests"] == first["requests"] + second["requests"] == 45324
    assert point["errors"] == first["errors"] + second["errors"] == 0
    assert (point["completed"], point["runs"]) == (2, 2)
    assert point["p99_s"] == pytest.approx((first["p99_s"] + second["p99_s"]) / 2)
    assert point["rps_ci_low"] < point["rps_mean"] < point["rps_ci_high"]
    assert [r["knee"] for r in rows if r["row_type"] == "point"] == [1, 0]


def test_runs_that_did_not_complete_are_listed_but_not_averaged() -> None:
    rows = sweep_rows(sweep("sweep-grid-interrupted"))
    stopped = [r for r in rows if (r["c"], r["m"]) == (16, 1)]
    assert [r["row_type"] for r in stopped] == ["run", "point"]
    run, point = stopped
    assert run["status"] == "interrupted" and run["rps"] is not None
    assert (point["completed"], point["runs"], point["rps"], point["p99_s"]) == (0, 1, None, None)
    never = [r for r in rows if (r["c"], r["m"]) == (16, 8)]
    assert [(r["row_type"], r["runs"]) for r in never] == [("point", 0)]
    md = export(sweep("sweep-grid-interrupted"), "md")
    assert "left out of the point rows and the points" in md
    assert "| c=16 m=8 | 0/0 |" in md, "a point never run is in the points table"


def test_the_csv_is_one_rectangular_table() -> None:
    text = export(sweep("sweep-grid-interrupted"), "csv")
    table = list(csv.reader(io.StringIO(text)))
    header = table[0]
    assert header[:5] == ["row_type", "point", "name", "c", "m"]
    assert {len(row) for row in table} == {len(header)}
    assert [row[0] for row in table[1:]].count("point") == 4


def test_the_csv_has_plain_decimals_and_no_impossible_figure() -> None:
    """No binary noise of a median (`0.00030849999999999996`), no req/s bound below 0 (two
    runs of 24,783 and 33,232 req/s: mean - t·sd/√2 = -24,670), and a point's requests a
    count: the sum of its runs', the `requests` of the sweep's JSON."""
    session = sweep("sweep-c-repeat2")
    table = list(csv.DictReader(io.StringIO(export(session, "csv"))))
    points = [row for row in table if row["row_type"] == "point"]
    assert [p["p50_s"] for p in points] == ["0.0003085", "0.0040435"]
    assert [p["p99_s"] for p in points] == ["0.0054875", "0.0111675"]
    assert points[1]["rps_ci_low"] == "0.0" and float(points[1]["rps_ci_high"]) > 82684
    assert [int(p["requests"]) for p in points] == [p["requests"] for p in session.doc["points"]]
    assert [p["requests"] for p in points] == ["45324", "58015"]


def without_histograms(session: Session) -> Session:
    """The sweep as a tool without per-request times (wrk, ab) would have left it."""
    doc: dict[str, Any] = copy.deepcopy(dict(session.doc))
    for entry in doc["runs"]:
        entry["session"].pop("histogram")
    return Session(doc)


def test_without_histograms_a_point_has_the_median_of_its_runs_results() -> None:
    session = without_histograms(sweep("sweep-c-repeat2"))
    rows = sweep_rows(session)
    runs, point = rows[:2], rows[2]
    assert point["p99_s"] == pytest.approx((runs[0]["p99_s"] + runs[1]["p99_s"]) / 2)
    assert export(session, "md").count("| **point** |") == 2


def test_one_run_a_point_has_no_mean_row_repeating_it() -> None:
    md = export(sweep("sweep-grid-interrupted"), "md")
    runs_table = md.split("## Points")[0]
    assert "**point**" not in runs_table and "| 2 | 1 | 1 | 17,221 |" in runs_table


def test_a_labelled_sweep_has_a_label_column() -> None:
    doc = {"sweep": {"vary": [{"name": "d", "values": [1.5]}], "labels": ["old", "new"]}}
    assert Session(doc).plan.parameters() == ["label", "d"]
    assert shown("d", 1.5) == "1.5s" and shown("label", "old") == "old"
    assert shown("c", None) == "–"


def test_metric_names_and_values_as_people_write_them() -> None:
    assert metric_label("p99_999_s") == "p99.999" and metric_label("error_rate") == "errors"
    assert fmt_metric("rps", 22662.4) == "22,662 req/s"
    assert fmt_metric("error_rate", 0.0125) == "1.25%"
    assert fmt_metric("p99_s", 0.0055) == "5.50 ms"


def test_a_sweep_of_two_parameters_has_a_pivot_table() -> None:
    md = export(sweep("sweep-grid-interrupted"), "md")
    pivot = md.split("## req/s side by side (Δ % against the first column)\n\n")[1].split("\n\n")[0]
    assert pivot.splitlines() == [
        "| c \\ m | 1 | 8 |",
        "| --- | ---: | ---: |",
        "| 2 | 17,221 | 13,666 (-20.6 %) |",
        "| 16 | – | – |",
    ]
    assert "side by side" not in export(sweep("sweep-c-repeat2"), "md"), "one parameter"


def test_a_rate_sweep_has_its_latency_throughput_chart_as_a_table() -> None:
    doc = rate_sweep_doc(store.load(FIXTURES / "sweep-c-repeat2.json").doc)
    md = export(Session(doc), "md")
    section = md.split("## Latency against the req/s achieved\n\n")[1].split("\n\n")[0]
    # A row per rate point by rate, without the closed-loop peak, as plot's latency-rps.
    assert section.splitlines()[2:] == [
        "| 2000 | 2,000 | 1.00 ms | 2.00 ms | 3.00 ms | valid |",
        "| 10000 | 10,000 | 1.50 ms | 4.00 ms | 6.00 ms | valid |",
        "| 18000 | 17,800 | 10.00 ms | 150.00 ms | 400.00 ms | **INVALID** |",
    ]
    assert "p99.9 from when due" in section.splitlines()[0]
    assert "## Latency against" not in export(store.load(FIXTURES / "sweep-c-repeat2.json"), "md")
