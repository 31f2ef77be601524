"""A run's segments: one for a run never steered, saved, read back, in `--json`."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from tests.engine.test_replay import RESULT, session_doc
from tests.faults.conftest import died_journal
from tui_bench.errors import SessionError
from tui_bench.records.segment import Segment
from tui_bench.spec import RunSpec
from tui_bench.storage import store
from tui_bench.storage.segment_codec import begun_record, segment_of, segment_record
from tui_bench.storage.session import Session

KEYS = [
    "start_s",
    "end_s",
    "target_rps",
    "connections",
    "cause",
    "achieved_rps",
    "validity",
    "p50_s",
    "p99_s",
]


def test_a_run_never_steered_is_one_segment_its_whole() -> None:
    session = Session(session_doc(6))
    (segment,) = session.segments
    assert segment == Segment(
        start_s=0.0,
        end_s=6.0,
        target_rps=None,
        connections=session.spec.connections,
        cause="start",
        achieved_rps=RESULT.rps,
        validity=session.validity.verdict if session.validity else None,
    )


def test_a_fixed_rate_segment_says_the_rate_asked_for() -> None:
    doc = session_doc(3)
    doc["spec"] = RunSpec(urls=("http://127.0.0.1:1/",), rate=500, connections=5).to_dict()
    (segment,) = Session(doc).segments
    assert segment.target_rps == 500 and segment.connections == 5


def test_segments_read_back_as_written_and_a_damaged_one_is_one_line() -> None:
    kept = Segment(0.0, 4.5, 2000.0, 8, "key", 1987.5, "valid")
    record = orjson.loads(orjson.dumps(segment_record(kept)))
    assert list(record) == KEYS
    assert segment_of(record) == kept
    doc = session_doc(3)
    doc["segments"] = [record, {**record, "cause": "whim"}]
    with pytest.raises(SessionError, match=r"damaged \(bad 'segments'\)"):
        _ = Session(doc).segments


def test_the_saved_session_keeps_its_segment(tmp_path: Path) -> None:
    # A run recovered after 5 closed seconds, as every session is written.
    path = store.finalize(died_journal(tmp_path, "20260101-000000-000-h2load-api", 5))
    saved = orjson.loads(path.read_bytes())["segments"]
    assert [list(s) for s in saved] == [KEYS]
    (segment,) = saved
    assert segment["start_s"] == 0.0 and segment["end_s"] == 5.0
    assert segment["cause"] == "start" and segment["achieved_rps"] == 100.0
    assert segment["validity"] == store.load(path).validity.verdict  # type: ignore[union-attr]


def test_a_sweep_has_no_segments_of_its_own() -> None:
    doc = session_doc(3)
    doc["kind"] = "sweep"
    assert Session(doc).segments == ()


def test_a_steered_run_that_died_keeps_the_segments_it_began(tmp_path: Path) -> None:
    path = died_journal(tmp_path, "20260101-000000-000-h2load-api", 6)
    with path.open("ab") as journal:
        for begun in (
            begun_record(0.0, 1000.0, 10, "start"),
            begun_record(2.5, 1250.0, 10, "key"),
            begun_record(4.0, 0.0, 0, "pause"),
        ):
            journal.write(orjson.dumps({"k": "segment", **begun}) + b"\n")
    saved = store.load(store.finalize(path)).segments
    assert [(s.start_s, s.end_s, s.target_rps, s.cause) for s in saved] == [
        (0.0, 2.5, 1000.0, "start"),
        (2.5, 4.0, 1250.0, "key"),
        (4.0, 6.0, 0.0, "pause"),
    ]
    # What each achieved and its verdict were to be found at the end it never had.
    assert {s.achieved_rps for s in saved} == {None}
    assert {s.validity for s in saved} == {None}
