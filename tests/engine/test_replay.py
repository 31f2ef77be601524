"""A session turned back into its run's events, and the state at any position."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.factories import h2load_result
from tui_bench.engine.events import (
    OutputLine,
    ResourcesSampled,
    RunFinished,
    RunStarted,
    SecondClosed,
)
from tui_bench.engine.live_state import LiveState
from tui_bench.engine.replay import Player, Timeline, timeline
from tui_bench.errors import SessionError
from tui_bench.records.warning import Warning
from tui_bench.spec import RunSpec
from tui_bench.storage import store
from tui_bench.storage.session import SCHEMA, SCHEMA_VERSION, Session

# The example runs: a sweep has no series of its own and opens in the sweep view instead.
EXAMPLES = sorted(
    p for p in (Path(__file__).parents[2] / "sessions").glob("*.json") if "-sweep-" not in p.name
)
SPEC = RunSpec(urls=("http://127.0.0.1:8080/",), connections=16, duration_s=6.0, streams=10)
RESULT = h2load_result(duration_s=6.0, rps=40100.0, total=240600, failed=3)
SAME_MACHINE = {"code": "same-machine", "message": "load generator and target share this machine"}
ERRORS = {"code": "errors", "message": "3 of 240,600 requests failed"}
# Sampled twice a second; every sample's server CPU tells which one it is.
SAMPLE_EVERY_S = 0.5


def server_cpu(t: float) -> float:
    return 100.0 + 20 * t


def sample_doc(t: float) -> dict[str, Any]:
    return {
        "t_s": t,
        "server_cpu_pct": server_cpu(t),
        "server_rss_bytes": int((40 + t) * 2**20),
        "server_uss_bytes": None,
        "server_pss_bytes": None,
        "server_procs": 5,
        "server_threads": 5,
        "server_fds": 64,
        "system_cpu_pct": [95.0, 60.0, 30.0, 5.0],
        "system_mem_used_bytes": 3 * 2**30,
        "system_mem_total_bytes": 16 * 2**30,
        "client_cpu_pct": 60.0 + 5 * t,
        "client_thread_max_pct": 50.0 + 5 * t,
        "sampler_cpu_pct": 0.5,
    }


def row_doc(t: int) -> dict[str, Any]:
    rps = 38000 + 800 * t
    errors = 3 if t == 2 else 0
    return {
        "t_s": t,
        "rps": rps,
        "good_rps": rps - errors,
        "errors": errors,
        "2xx": rps - errors,
        "3xx": 0,
        "4xx": 0,
        "5xx": errors,
        "n": rps,
        "p50_s": 0.0030 + 0.0001 * t,
        "p90_s": 0.0060 + 0.0002 * t,
        "p99_s": 0.0100 + 0.0005 * t,
        "max_s": 0.0250,
        "server_cpu_pct": server_cpu(t + 0.5),
        "server_rss_bytes": int((40.5 + t) * 2**20),
        "server_procs": 5,
        "system_cpu_pct": 47.5,
        "client_cpu_pct": 62.5 + 5 * t,
        "client_thread_max_pct": 52.5 + 5 * t,
    }


def session_doc(seconds: int = 6) -> dict[str, Any]:
    """A run of `seconds` seconds (plus 0.2 s for the tool to start and stop)."""
    samples = [sample_doc(SAMPLE_EVERY_S * (i + 1)) for i in range(2 * seconds)]
    return {
        "schema": SCHEMA,
        "version": SCHEMA_VERSION,
        "id": "20260101-120000-000-h2load-demo",
        "name": "demo",
        "tags": [],
        "notes": "",
        "spec": SPEC.to_dict(),
        "argv": ["h2load", "-c", "16", "-m", "10", "-D", "6", "http://127.0.0.1:8080/"],
        "tool": {"name": "h2load", "path": "/usr/bin/h2load", "version": "1.52.0"},
        "host": {},
        "server": {"pid": 4242, "name": "nginx"},
        "started_at": "2026-01-01T12:00:00+00:00",
        "ended_at": f"2026-01-01T12:00:{seconds:02d}.200000+00:00",
        "series": [row_doc(t) for t in range(seconds)],
        "samples": samples,
        "warnings": [SAME_MACHINE, ERRORS],
        "raw": {"stdout": "starting benchmark...\nfinished in 6.00s\n", "stderr": "a warning\n"},
        "status": "completed",
        "exit_code": 0,
        "result": RESULT.to_dict(),
        "resources": {},
    }


def make_session(seconds: int = 6) -> Session:
    return Session(session_doc(seconds))


def imported_doc() -> dict[str, Any]:
    doc = session_doc()
    doc.update(
        spec=RunSpec(urls=(), tool="h2load").to_dict(),
        argv=[],
        status="imported",
        series=[],
        samples=[],
        warnings=[],
    )
    for key in ("ended_at", "exit_code", "resources"):
        del doc[key]
    return doc


def picture(state: LiveState) -> dict[str, Any]:
    """Everything a painter reads from a state (its version counters aside)."""
    return {
        "rows": list(state.rows),
        "sample": state.sample,
        "warnings": list(state.warnings),
        "status": state.status,
        "totals": dict(state.status_totals),
        "errors": state.error_total,
        "rps_overall": state.rps_overall,
        "elapsed": state.elapsed_s,
        "fraction": state.fraction,
        "output": list(state.output),
        "lines_seen": state.lines_seen,
        "finished": state.finished,
        "session_id": state.session_id,
    }


def test_timeline_is_in_time_order_from_start_to_finish() -> None:
    tl = timeline(make_session(), Path("/data/demo.json"))
    assert list(tl.times) == sorted(tl.times)
    assert isinstance(tl.events[0], RunStarted) and tl.events[0].session_id.endswith("demo")
    assert isinstance(tl.events[-1], RunFinished)
    assert tl.events[-1].session_path == Path("/data/demo.json")
    assert tl.length_s == pytest.approx(6.2)
    pairs = list(zip(tl.times, tl.events, strict=True))
    lines = [(t, e) for t, e in pairs if isinstance(e, OutputLine)]
    assert [(t, e.stream, e.text) for t, e in lines] == [
        (0.0, "stdout", "starting benchmark...\n"),
        (0.0, "stdout", "finished in 6.00s\n"),
        (0.0, "stderr", "a warning\n"),
    ]
    # A second closes at its end.
    assert [t for t, e in pairs if isinstance(e, SecondClosed)] == [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]
    samples = [(t, e.sample) for t, e in pairs if isinstance(e, ResourcesSampled)]
    assert (
        [t for t, _ in samples]
        == [s.t_s for _, s in samples]
        == [SAMPLE_EVERY_S * (i + 1) for i in range(12)]
    )
    assert samples[0][1].system_cpu_pct == (95.0, 60.0, 30.0, 5.0)
    # Known before the run: at the start; the verdicts on the whole run: at the end.
    warnings = {e.code: t for t, e in pairs if isinstance(e, Warning)}
    assert warnings == {"same-machine": 0.0, "errors": pytest.approx(6.2)}


def test_a_partial_last_second_closes_when_the_run_ended() -> None:
    doc = session_doc(3)
    doc["ended_at"] = "2026-01-01T12:00:02.500000+00:00"
    doc["samples"] = [s for s in doc["samples"] if s["t_s"] <= 2.5]
    tl = timeline(Session(doc))
    rows = [t for t, e in zip(tl.times, tl.events, strict=True) if isinstance(e, SecondClosed)]
    assert rows == [1.0, 2.0, 2.5]
    assert tl.length_s == 2.5


def test_without_an_end_the_length_comes_from_what_was_recorded() -> None:
    doc = session_doc(4)
    del doc["ended_at"]
    doc["samples"] = doc["samples"][:3]
    doc["status"] = "interrupted"
    tl = timeline(Session(doc))
    assert tl.length_s == 4.0
    assert tl.state_at(tl.length_s).status == "interrupted"


def test_state_at_the_start() -> None:
    state = timeline(make_session()).state_at(0.0)
    assert state.status == "running" and state.running
    assert not state.rows and state.sample is None
    assert [w.code for w in state.warnings] == ["same-machine"]
    assert state.lines_seen == 3
    assert state.elapsed_s == 0.0 and state.fraction == 0.0


def test_state_in_the_middle_has_what_happened_until_then() -> None:
    tl = timeline(make_session())
    state = tl.state_at(2.7)
    assert [r["t_s"] for r in state.rows] == [0, 1]
    assert state.sample is not None and state.sample.t_s == 2.5
    assert state.status_totals["5xx"] == 0 and state.error_total == 0
    assert state.elapsed_s == 2.7
    assert state.fraction == pytest.approx(2.7 / 6.2)
    assert state.finished is None
    later = tl.state_at(3.0)
    assert later.error_total == 3 and later.status_totals["5xx"] == 3


def test_state_at_the_end_is_the_finished_run() -> None:
    tl = timeline(make_session(), Path("/data/demo.json"))
    state = tl.state_at(tl.length_s)
    assert state.status == "completed"
    assert state.result == RESULT
    assert state.session_path == Path("/data/demo.json")
    assert len(state.rows) == 6 and state.fraction == 1.0
    assert [w.code for w in state.warnings] == ["same-machine", "errors"]
    assert picture(tl.state_at(99.0)) == picture(state)  # past the end is the end


def test_without_a_path_the_summary_names_the_file() -> None:
    finished = timeline(make_session()).state_at(99.0).finished
    assert finished is not None
    assert finished.session_path == Path("20260101-120000-000-h2load-demo.json")


def positions(tl: Timeline) -> Iterator[float]:
    yield from (0.4, 1.0, 2.7, 3.0, 5.99, tl.length_s)


def test_seeking_back_equals_a_fresh_fold() -> None:
    tl = timeline(make_session())
    player = Player(tl)
    player.seek(tl.length_s)
    for t in (4.2, 1.0, 0.3, 0.0):
        player.seek(t)
        assert player.position == t
        assert picture(player.state) == picture(tl.state_at(t))


def test_seeking_forward_folds_only_what_is_new_and_equals_a_fresh_fold() -> None:
    tl = timeline(make_session())
    player = Player(tl)
    state = player.state
    for t in positions(tl):
        player.seek(t)
        assert player.state is state  # no rebuild going forward
        assert picture(player.state) == picture(tl.state_at(t))
    assert player.at_end


def test_seek_stays_inside_the_session() -> None:
    tl = timeline(make_session())
    player = Player(tl)
    player.seek(-5.0)
    assert player.position == 0.0
    player.seek(1e9)
    assert player.position == tl.length_s and player.at_end


def test_an_imported_session_has_nothing_to_play_but_its_result() -> None:
    tl = timeline(Session(imported_doc()))
    assert not tl.playable and tl.length_s == 0.0
    state = Player(tl).state
    assert state.status == "imported"
    assert state.result == RESULT
    assert not state.rows and state.lines_seen == 3


def test_an_empty_series_with_samples_still_plays() -> None:
    doc = session_doc(2)
    doc["series"] = []
    tl = timeline(Session(doc))
    assert tl.playable
    assert tl.state_at(1.2).sample is not None
    assert not tl.state_at(tl.length_s).rows


@pytest.mark.parametrize(
    ("key", "damage"),
    [
        ("samples", [{**sample_doc(1.0), "t_s": "soon"}]),
        ("samples", "not a list"),
        ("samples", {"t_s": [1.0, 2.0], "server_cpu_pct": [5.0]}),
        ("series", [{"rps": 5}]),
        ("series", {"t_s": [0, 1], "rps": [5]}),
        ("warnings", [{"code": "x"}]),
        ("spec", {"urls": 5}),
    ],
)
def test_a_damaged_part_is_one_line_naming_it(key: str, damage: Any) -> None:
    doc = session_doc(2)
    doc[key] = damage
    with pytest.raises(SessionError, match=f"damaged \\(bad '{key}'\\)"):
        timeline(Session(doc))


def test_newer_sample_fields_are_ignored() -> None:
    doc = session_doc(2)
    doc["samples"] = [{**s, "gpu_pct": 3.0} for s in doc["samples"]]
    assert timeline(Session(doc)).state_at(1.0).sample is not None


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_example_sessions_play_to_their_recorded_end(path: Path) -> None:
    session = store.load(path)
    tl = timeline(session, path)
    assert tl.playable
    assert list(tl.times) == sorted(tl.times)
    end = tl.state_at(tl.length_s)
    assert list(end.rows) == session.series
    assert end.status == session.status
    assert end.result == session.result
    assert len(end.warnings) == len(session.doc["warnings"])
    middle = tl.length_s / 2
    before = [s["t_s"] for s in session.samples or [] if s["t_s"] <= middle]
    sample = tl.state_at(middle).sample
    assert (sample.t_s if sample else None) == (max(before) if before else None)


def long_session(hours: float = 1.0, per_second: int = 10) -> Session:
    """`hours` of a run sampled `per_second` times a second, one series row a second."""
    doc = session_doc(1)
    seconds = int(hours * 3600)
    template = doc["samples"][0]
    doc["samples"] = [
        {**template, "t_s": i / per_second, "server_cpu_pct": float(i)}
        for i in range(seconds * per_second)
    ]
    doc["series"] = [{**row_doc(0), "t_s": t} for t in range(seconds)]
    doc["ended_at"] = None
    return Session(doc)


def test_an_hour_sampled_ten_times_a_second_seeks_fast() -> None:
    tl = timeline(long_session())
    assert tl.length_s == pytest.approx(3600.0, abs=1)
    player = Player(tl)
    # This thread's CPU time: what the seeks cost, however long a busy machine makes them
    # wait for a core.
    began = time.thread_time()
    # Back and forth across the hour: every backward jump rebuilds from the start.
    for t in (3000.0, 100.0, 3599.0, 1800.0, 1799.0, 0.0, 3600.0, 2400.5, 10.0, 3500.0):
        player.seek(t)
        sample = player.state.sample
        assert sample is not None and sample.server_cpu_pct == min(round(t * 10), 35999)
    spent = time.thread_time() - began
    # The ten seeks take 0.24 s here; the bound is twenty times that.
    assert spent < 5.0, spent


def timed_doc() -> dict[str, Any]:
    """The demo run with when each output line came, as RunController records it."""
    doc = session_doc()
    doc["raw"] = {
        "stdout": "starting benchmark...\nprogress: 50% done\nfinished in 6.00s\n",
        "stderr": "a warning\n",
    }
    doc["raw_times"] = {"stdout": [0.05, 3.012, 6.1], "stderr": [2.5]}
    return doc


def line_times(tl: Timeline) -> list[tuple[float, str]]:
    return [
        (t, e.text) for t, e in zip(tl.times, tl.events, strict=True) if isinstance(e, OutputLine)
    ]


def test_timed_lines_come_when_the_run_printed_them() -> None:
    tl = timeline(Session(timed_doc()))
    assert tl.lines_timed
    assert line_times(tl) == [
        (0.05, "starting benchmark...\n"),
        (2.5, "a warning\n"),
        (3.012, "progress: 50% done\n"),
        (6.1, "finished in 6.00s\n"),
    ]
    assert [e.text for e in tl.state_at(0.0).output] == []
    assert [e.text for e in tl.state_at(3.0).output] == ["starting benchmark...\n", "a warning\n"]
    assert tl.state_at(tl.length_s).lines_seen == 4


def test_seeking_among_timed_lines_equals_a_fresh_fold() -> None:
    tl = timeline(Session(timed_doc()))
    player = Player(tl)
    for t in (6.2, 3.1, 0.0, 2.5, 3.012, 1.0):
        player.seek(t)
        assert picture(player.state) == picture(tl.state_at(t))


def test_a_line_after_the_last_record_lengthens_the_run() -> None:
    # A run that died: no end time, the output went on after the last sample.
    doc = timed_doc()
    del doc["ended_at"]
    doc["series"] = doc["series"][:2]
    doc["samples"] = doc["samples"][:4]
    tl = timeline(Session(doc))
    assert tl.length_s == 6.1
    assert line_times(tl)[-1] == (6.1, "finished in 6.00s\n")


def test_lines_are_cut_at_newlines_only_as_the_run_read_them() -> None:
    doc = session_doc()
    doc["raw"] = {"stdout": "progress\r10%\r20%\n\nlast", "stderr": ""}
    doc["raw_times"] = {"stdout": [1.0, 2.0, 3.0], "stderr": []}
    tl = timeline(Session(doc))
    assert tl.lines_timed
    assert line_times(tl) == [(1.0, "progress\r10%\r20%\n"), (2.0, "\n"), (3.0, "last")]


@pytest.mark.parametrize(
    "times",
    [
        None,
        "soon",
        {"stdout": [0.05, 3.0], "stderr": [2.5]},  # a line short
        {"stdout": [0.05, 3.0, 6.1, 7.0], "stderr": [2.5]},  # a line too many
        {"stdout": [0.05, 3.0, 6.1]},  # a stream missing
        {"stdout": [0.05, "3", 6.1], "stderr": [2.5]},
        {"stdout": [3.0, 0.05, 6.1], "stderr": [2.5]},  # out of order
    ],
    ids=["absent", "not-a-mapping", "short", "long", "no-stderr", "not-a-number", "unordered"],
)
def test_line_times_that_do_not_fit_the_lines_leave_them_all_at_the_start(times: Any) -> None:
    doc = timed_doc()
    if times is None:
        del doc["raw_times"]
    else:
        doc["raw_times"] = times
    tl = timeline(Session(doc))
    assert not tl.lines_timed
    assert line_times(tl) == [
        (0.0, "starting benchmark...\n"),
        (0.0, "progress: 50% done\n"),
        (0.0, "finished in 6.00s\n"),
        (0.0, "a warning\n"),
    ]
    assert tl.length_s == pytest.approx(6.2)


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_example_sessions_have_untimed_output_all_at_the_start(path: Path) -> None:
    # Saved before line times: every line at 0, in the order of each stream as stored.
    session = store.load(path)
    assert "raw_times" not in session.doc
    tl = timeline(session, path)
    assert not tl.lines_timed
    raw = session.doc["raw"]
    expected = [(0.0, line) for s in ("stdout", "stderr") for line in raw[s].splitlines(True)]
    assert line_times(tl) == expected
    assert tl.state_at(0.0).lines_seen == len(expected)
