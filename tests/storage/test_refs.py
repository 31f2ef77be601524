"""References to sessions: the grammar, a name's runs in time order, best among valid ones
only, pins, and a one-line error for what leads nowhere."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
import pytest

from tests.analysis.test_significance import run, runs, sweep
from tui_bench.errors import SessionError, UsageError
from tui_bench.storage import refs, store
from tui_bench.storage.refs import Located, Named, Pin, did_you_mean
from tui_bench.storage.session import Session

INVALID = {"verdict": "invalid", "reasons": [{"code": "interrupted", "message": "stopped"}]}
SUSPECT = {"verdict": "suspect", "reasons": [{"code": "few-samples", "message": "few"}]}


def save(directory: Path, doc: dict[str, Any]) -> Path:
    directory.mkdir(exist_ok=True)
    path = directory / f"{doc['id']}.json"
    path.write_bytes(Session(doc).to_json())
    return path


def named_run(i: int, name: str, rps: float, hour: int, **changes: Any) -> dict[str, Any]:
    """Run `i` named `name`, started at `hour`:00; its id sorts apart from its start time."""
    doc = run(i, rps)
    return doc | {
        "id": f"20260101-{99 - i:02d}0000-000-h2load-{name}",
        "name": name,
        "started_at": f"2026-01-01T{hour:02d}:00:00+00:00",
        **changes,
    }


@pytest.fixture
def api(tmp_path: Path) -> Path:
    """Runs named api at 9:00 (1000 req/s), 10:00 (3000, invalid), 11:00 (2000), 12:00
    (2500, suspect), and one named web."""
    directory = tmp_path / "sessions"
    save(directory, named_run(1, "api", 1000, 9))
    save(directory, named_run(2, "api", 3000, 10, validity=INVALID))
    save(directory, named_run(3, "api", 2000, 11))
    save(directory, named_run(4, "api", 2500, 12, validity=SUSPECT))
    save(directory, named_run(5, "web", 9000, 13))
    return directory


def rps_of(ref: str, directory: Path) -> float:
    result = store.load(ref, directory).result
    assert result is not None and result.rps is not None
    return round(result.rps, -2)


@pytest.mark.parametrize(
    ("ref", "expected"),
    [
        ("api@latest", Named("api", "latest")),
        ("api@best", Named("api", "best")),
        ("api@baseline", Named("api", "baseline")),
        ("api@-2", Named("api", "-2")),
        ("api@latest@c=200", Named("api", "latest", "c=200")),
        ("api@-1@url=http://u@host/", Named("api", "-1", "url=http://u@host/")),
        ("my@name@best", Named("my@name", "best")),
        ("20260101-120000@2", None),
        ("20260101-120000@c=200", None),
        ("api@-0", None),
        ("@latest", None),
        ("api", None),
    ],
)
def test_the_grammar(ref: str, expected: Named | None) -> None:
    assert refs.named(ref) == expected


def test_latest_and_back_follow_the_start_time_not_the_id(api: Path) -> None:
    assert rps_of("api@latest", api) == 2500
    assert rps_of("api@-1", api) == 2500
    assert rps_of("api@-2", api) == 2000
    assert rps_of("api@-4", api) == 1000


def test_best_is_the_most_req_s_among_valid_sessions_only(api: Path) -> None:
    # 3000 is invalid and 2500 suspect: neither is ever the best.
    assert rps_of("api@best", api) == 2000


def test_best_is_never_a_run_whose_gate_refused_or_failed_it(tmp_path: Path) -> None:
    directory = tmp_path / "sessions"
    save(directory, named_run(1, "gated", 1000, 9))
    save(directory, named_run(2, "gated", 5000, 10, baseline={"failed": True}))
    save(directory, named_run(3, "gated", 4000, 11, baseline={"refused": "too few runs"}))
    assert rps_of("gated@best", directory) == 1000
    save(directory / "alone", named_run(4, "regressed", 5000, 10, baseline={"failed": True}))
    with pytest.raises(SessionError, match=r"\(1 valid with its gate failed\); regressed@-1"):
        store.locate("regressed@best", directory / "alone")


def test_best_with_no_valid_session_says_what_there_is(tmp_path: Path) -> None:
    directory = tmp_path / "sessions"
    save(directory, named_run(1, "bad", 1000, 9, validity=INVALID))
    save(directory, named_run(2, "bad", 1000, 10, validity=SUSPECT))
    with pytest.raises(SessionError, match=r"none of the 2 sessions .* \(1 invalid, 1 suspect\)"):
        store.locate("bad@best", directory)


def test_unknown_name_and_out_of_range_are_one_line(api: Path) -> None:
    with pytest.raises(SessionError, match="no saved session is named 'apj'; did you mean api"):
        store.locate("apj@latest", api)
    with pytest.raises(SessionError, match=r"api@-5: 'api' has 4 sessions; -1 to -4 name them"):
        store.locate("api@-5", api)
    with pytest.raises(SessionError, match="no baseline is pinned for 'api'"):
        store.locate("api@baseline", api)


def test_a_point_follows_the_selector_and_a_whole_session_refuses_it(tmp_path: Path) -> None:
    directory = tmp_path / "sessions"
    doc = sweep({"c=10": runs(2, 1000), "c=20": runs(2, 1500, start=2)}, name="grid")
    path = save(directory, doc)
    assert store.locate("grid@latest@c=20", directory) == Located(path, "c=20")
    assert store.locate(f"{doc['id']}@2", directory) == Located(path, "2")
    assert store.resolve("grid@latest", directory) == path
    with pytest.raises(SessionError, match="names point 'c=20' of a sweep"):
        store.resolve("grid@latest@c=20", directory)


def test_select_loads_a_whole_session_or_one_point(tmp_path: Path) -> None:
    directory = tmp_path / "sessions"
    doc = sweep({"c=10": runs(2, 1000), "c=20": runs(3, 1500, start=2)}, name="grid")
    save(directory, doc)
    whole = store.select("grid@latest", directory)
    assert whole.point is None and whole.document() is whole.session
    assert whole.run() == (whole.session, 1)
    for ref in ("grid@latest@c=20", f"{doc['id']}@2", f"{doc['id']}@c=20"):
        point = store.select(ref, directory)
        assert point.point == 1 and point.ref == f"{doc['id']}@c=20"
        only = point.document()
        assert only.id == doc["id"] and only.doc["selected"]["point"] == 1
        assert [r["session"]["id"] for r in only.doc["runs"]] == [
            f"20260101-120000-{i:03d}-h2load-run" for i in (2, 3, 4)
        ]
        assert [p["name"] for p in only.doc["sweep"]["points"]] == ["c=20"]
        first, count = point.run()
        # The point's first run (repeat 0), of its three.
        assert count == 3 and first.id == "20260101-120000-002-h2load-run"


def test_a_point_of_a_single_run_or_not_in_the_sweep_is_one_line(tmp_path: Path) -> None:
    directory = tmp_path / "sessions"
    single = run(7, 1000)
    save(directory, single)
    doc = sweep({"c=10": runs(1, 1000), "c=20": runs(1, 1500, start=2)})
    save(directory, doc)
    with pytest.raises(UsageError, match="is a single run: it has no point 'c=10'"):
        store.select(f"{single['id']}@c=10", directory)
    with pytest.raises(UsageError, match=r"has no point 'c=30': its points are c=10, c=20"):
        store.select(f"{doc['id']}@c=30", directory)
    # A point the sweep never reached (it was stopped) has nothing to replay.
    unrun = doc | {"runs": doc["runs"][:1]}
    with pytest.raises(UsageError, match=r"@c=20: the point has no run"):
        refs.Selection.of(Session(unrun), "c=20").run()


def test_a_sweeps_best_is_its_best_valid_point(tmp_path: Path) -> None:
    directory = tmp_path / "sessions"
    slow = sweep({"c=10": runs(2, 1000)}, "20260102-120000-000-sweep-a", name="grid")
    fast = sweep({"c=10": runs(2, 4000)}, "20260102-130000-000-sweep-b", name="grid")
    for doc, rps in ((slow, 1000.0), (fast, 4000.0)):
        valid = {"verdict": "valid"}
        point = {"index": 0, "name": "c=10", "rps": {"median": rps}, "validity": valid}
        save(directory, doc | {"points": [point]})
    assert store.resolve("grid@best", directory).stem == fast["id"]


def test_a_pin_keeps_naming_its_run_after_newer_ones(api: Path) -> None:
    best = store.locate("api@best", api)
    refs.write_pin(api, Pin("api", "x", refs.pin_file(api, best.path), None, "api@best", "now"))
    assert store.locate("api@baseline", api) == Located(best.path)
    save(api, named_run(6, "api", 9999, 14))
    assert store.locate("api@baseline", api) == Located(best.path)
    # Beside the sessions, never listed as one.
    assert not any(e.error for e in store.list_sessions(api))
    doc = orjson.loads((api / refs.PINS).read_bytes())
    assert doc["pins"]["api"]["file"] == best.path.name


def test_a_pin_whose_session_is_gone_says_so(api: Path) -> None:
    latest = store.locate("api@latest", api).path
    refs.write_pin(api, Pin("api", "x", latest.name, None, "api@latest", "now"))
    latest.unlink()
    with pytest.raises(SessionError, match="the pinned session x is gone"):
        store.locate("api@baseline", api)


def test_a_damaged_pins_file_is_one_line(api: Path) -> None:
    (api / refs.PINS).parent.mkdir()
    (api / refs.PINS).write_text("{")
    with pytest.raises(SessionError, match="not a baselines file"):
        store.locate("api@baseline", api)


def test_did_you_mean_puts_names_begun_first_then_names_spelt_alike() -> None:
    known = ["history-demo", "api", "apx", "", "hist"]
    assert did_you_mean("his", known) == "; did you mean hist, history-demo?"
    assert did_you_mean("apj", known) == "; did you mean apx, api?"  # closest first
    assert did_you_mean("zzz", known) == ""
