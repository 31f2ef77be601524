"""One point of a sweep document: how it is named and what narrowing to it keeps."""

from __future__ import annotations

from typing import Any

import pytest

from tests.analysis.test_significance import runs, sweep
from tui_bench.errors import UsageError
from tui_bench.request.run import RunRequest
from tui_bench.request.sweep_plan import Variant, build_plan, parse_vary
from tui_bench.spec import RunSpec
from tui_bench.storage.session import Session
from tui_bench.storage.sweep_doc import narrowed, point_index, point_refs

URL = "http://127.0.0.1:9/"


def grid() -> dict[str, Any]:
    doc = sweep({"c=10": runs(2, 1000), "c=20": runs(2, 1500, start=2)})
    summary = {"rps": {"median": 1.0}}
    return doc | {
        "points": [{"index": 0, "name": "c=10", **summary}, {"index": 1, "name": "c=20"}],
        "knee": {"point": 0, "name": "c=10"},
        "thresholds": [{"point": 0, "text": "p99<8ms"}, {"point": 1, "text": "p99<8ms"}],
        "baseline": {
            "ref": "api@baseline",
            "failed": True,
            "points": [{"point": "c=10"}, {"point": "c=20"}],
            "regressions": [{"point": "c=20", "metric": "rps"}],
        },
    }


def test_a_point_by_name_or_number_and_its_runs_in_repeat_order() -> None:
    doc = Session(grid())
    assert point_refs(doc) == ["c=10", "c=20"]
    assert point_index(doc, "c=20") == point_index(doc, "2") == 1
    assert [e.repeat for e in doc.point_entries(1)] == [0, 1]
    with pytest.raises(UsageError, match="add @POINT, one of c=10, c=20"):
        point_index(doc, None)
    unnamed = Session(sweep({"": runs(3, 1000)}))
    assert point_refs(unnamed) == ["1"] and point_index(unnamed, None) == 0


def test_narrowing_keeps_the_points_runs_summary_verdicts_and_judgement() -> None:
    doc = grid()
    first, second = narrowed(doc, 0), narrowed(doc, 1)
    # The point is point 0 of a sweep of its own: tuibench reads it as any sweep.
    assert Session(second).is_sweep
    assert [(p["index"], p["name"]) for p in second["sweep"]["points"]] == [(0, "c=20")]
    assert [r["session"]["id"] for r in second["runs"]] == [
        r["session"]["id"] for r in doc["runs"] if r["point"] == 1
    ]
    assert [(r["slot"], r["point"], r["repeat"]) for r in second["runs"]] == [(0, 0, 0), (1, 0, 1)]
    assert second["sweep"]["order"] == [[0, 0], [0, 1]]
    assert second["points"] == [{"index": 0, "name": "c=20"}]
    assert second["thresholds"] == [{"point": 0, "text": "p99<8ms"}]
    assert second["selected"] == {"sweep": doc["id"], "point": 1, "name": "c=20"}
    # The knee is a point's: kept at it, not said of another.
    assert first["knee"] == doc["knee"] and "knee" not in second
    assert second["baseline"]["points"] == [{"point": "c=20"}] and second["baseline"]["failed"]
    assert first["baseline"]["regressions"] == [] and not first["baseline"]["failed"]
    assert first["baseline"]["ref"] == "api@baseline"
    # The document itself is left as it was.
    assert len(doc["runs"]) == 4 and len(doc["points"]) == 2


def test_the_target_is_the_one_url_or_how_many() -> None:
    base = Variant(None, RunRequest(RunSpec(urls=(URL,), requests=10)), {})
    assert build_plan([base], [parse_vary("c=1,2")]).record().target() == URL
    urls = build_plan([base], [parse_vary("url=http://127.0.0.1:1/,http://127.0.0.1:2/")])
    assert urls.record().target() == "2 URLs"
    # As the sweep's session keeps it.
    assert Session({"id": "s", "sweep": urls.to_dict()}).plan.target() == "2 URLs"
