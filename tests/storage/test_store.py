import os
import stat
import subprocess
import sys
from datetime import datetime
from pathlib import Path

import orjson
import pytest

from tui_bench.errors import SessionError
from tui_bench.redaction import fingerprint
from tui_bench.result import Distribution, Requests, Result
from tui_bench.spec import RunSpec
from tui_bench.storage import store
from tui_bench.storage.journal import JournalWriter, is_abandoned
from tui_bench.storage.session import SCHEMA_VERSION
from tui_bench.storage.session_records import SessionDraft


def draft(session_id: str = "20261121-120000-000-h2load-x") -> SessionDraft:
    return SessionDraft(
        id=session_id,
        spec=RunSpec(urls=("http://127.0.0.1:1/",), duration_s=1),
        argv=["h2load", "-D", "1000ms"],
        tool={"name": "h2load", "path": "/usr/bin/h2load", "version": "1.52.0"},
        host={"cores": 2},
        started_at="2026-11-21T12:00:00+00:00",
        name="x",
        tags=["t1"],
    )


RESULT = Result(
    tool="h2load",
    rps=10.0,
    requests=Requests(total=10, succeeded=10),
    latency=Distribution(min_s=0.001, percentiles={"p99_s": 0.002}),
)


def test_journal_replays_into_a_session(tmp_path: Path) -> None:
    d = draft()
    journal = JournalWriter(store.journal_path(tmp_path, d.id), d.header())
    journal.write("out", {"s": "stdout", "l": "finished in 1s\n"})
    journal.write("second", {"t_s": 0, "rps": 10})
    journal.write("sample", {"t_s": 0.5, "server_cpu_pct": 50.0})
    journal.write("end", {"status": "completed", "exit_code": 0, "result": RESULT.to_dict()})
    journal.close()
    path = store.finalize(journal.path)
    assert not journal.path.exists()
    session = store.load(path)
    assert session.status == "completed"
    assert session.result == RESULT
    assert session.series == [{"t_s": 0, "rps": 10}]
    assert session.doc["raw"]["stdout"] == "finished in 1s\n"
    assert session.doc["version"] == SCHEMA_VERSION
    assert session.spec == d.spec


def test_journal_of_a_killed_run_is_recovered_as_interrupted(tmp_path: Path) -> None:
    # A separate process writes a journal and dies by SIGKILL mid-run: its lock goes away.
    d = draft()
    jpath = store.journal_path(tmp_path, d.id)
    code = (
        "import os, signal\n"
        "from pathlib import Path\n"
        "from tui_bench.storage.journal import JournalWriter\n"
        f"j = JournalWriter(Path({str(jpath)!r}), {d.header()!r})\n"
        "for t in range(3): j.write('second', {'t_s': t, 'rps': 5})\n"
        "j.flush()\n"
        'j._file.write(b\'{"k": "second", "t_\')\n'  # a torn last line
        "j._file.flush()\n"
        "os.kill(os.getpid(), signal.SIGKILL)\n"
    )
    subprocess.run([sys.executable, "-c", code], check=False)
    assert is_abandoned(jpath)
    entries = store.list_sessions(tmp_path)
    assert len(entries) == 1 and entries[0].session is not None
    assert entries[0].session.status == "interrupted"
    assert [r["t_s"] for r in entries[0].session.series] == [0, 1, 2]


def test_live_journal_is_not_recovered(tmp_path: Path) -> None:
    d = draft()
    journal = JournalWriter(store.journal_path(tmp_path, d.id), d.header())
    try:
        assert not is_abandoned(journal.path)
        assert store.recover_abandoned(tmp_path) == []
    finally:
        journal.close()


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"{not json", "corrupt JSON"),
        (b"[]", "not a tuibench session"),
        (orjson.dumps({"schema": "tuibench.session", "version": 99, "id": "x"}), "newer"),
        (
            orjson.dumps(
                {
                    "schema": "tuibench.session",
                    "version": 1,
                    "id": "x",
                    "spec": {},
                    "series": [],
                    "result": {"tool": "h2load", "requests": "bad"},
                }
            ),
            "damaged",
        ),
    ],
)
def test_bad_session_files_give_one_line_errors(
    tmp_path: Path, content: bytes, message: str
) -> None:
    path = tmp_path / "s.json"
    path.write_bytes(content)
    with pytest.raises(SessionError, match=message) as err:
        store.load(path)
    assert "\n" not in str(err.value)


def test_resolve_by_id_prefix(tmp_path: Path) -> None:
    for sid in ("20261121-a", "20261121-b"):
        (tmp_path / f"{sid}.json").write_text("{}")
    assert store.resolve("20261121-a", tmp_path).name == "20261121-a.json"
    with pytest.raises(SessionError, match="matches 2"):
        store.resolve("20261121", tmp_path)
    with pytest.raises(SessionError, match="no such session"):
        store.resolve("nope", tmp_path)


def test_sessions_dir_follows_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("TUIBENCH_SESSIONS", str(tmp_path / "s"))
    assert store.sessions_dir() == tmp_path / "s"
    monkeypatch.delenv("TUIBENCH_SESSIONS")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert store.sessions_dir() == tmp_path / "tuibench" / "sessions"


def test_session_ids_sort_by_time_and_are_safe() -> None:
    sid = store.new_session_id(datetime(2026, 11, 21, 12, 0, 1), "wrk", "a/b c?")
    assert sid == "20261121-120001-000-wrk-a-b-c"
    assert os.sep not in sid


def test_save_imported(tmp_path: Path) -> None:
    path = store.save_imported(RESULT, "raw text", source=Path("old.log"), directory=tmp_path)
    session = store.load(path)
    assert session.status == "imported"
    assert session.result == RESULT
    assert session.doc["raw"]["stdout"] == "raw text"
    assert session.spec.urls == ()
    named = store.save_imported(
        RESULT, "raw text", source=Path("b.log"), url="http://h:1/x", directory=tmp_path
    )
    assert store.load(named).spec.urls == ("http://h:1/x",)


def timed_journal(directory: Path, session_id: str) -> JournalWriter:
    """A run's journal whose output lines carry when they came, as RunController writes."""
    journal = JournalWriter(store.journal_path(directory, session_id), draft(session_id).header())
    journal.write("out", {"s": "stdout", "l": "starting\n", "t": 0.012})
    journal.write("out", {"s": "stderr", "l": "a warning\n", "t": 0.5})
    journal.write("second", {"t_s": 0, "rps": 10})
    journal.write("out", {"s": "stdout", "l": "done\n", "t": 1.25})
    journal.write("out", {"s": "stdout", "l": "no newline", "t": 1.25})
    return journal


def test_line_times_are_kept_beside_the_raw_output(tmp_path: Path) -> None:
    journal = timed_journal(tmp_path, "run-timed")
    journal.write("end", {"status": "completed", "exit_code": 0, "result": RESULT.to_dict()})
    journal.close()
    doc = store.load(store.finalize(journal.path)).doc
    # `raw` keeps its shape: one text per stream.
    assert doc["raw"] == {"stdout": "starting\ndone\nno newline", "stderr": "a warning\n"}
    assert doc["raw_times"] == {"stdout": [0.012, 1.25, 1.25], "stderr": [0.5]}
    assert doc["version"] == SCHEMA_VERSION


def test_a_run_without_output_has_empty_line_times(tmp_path: Path) -> None:
    d = draft()
    journal = JournalWriter(store.journal_path(tmp_path, d.id), d.header())
    journal.write("end", {"status": "failed", "exit_code": 1})
    journal.close()
    doc = store.load(store.finalize(journal.path)).doc
    assert doc["raw"] == {"stdout": "", "stderr": ""}
    assert doc["raw_times"] == {"stdout": [], "stderr": []}


@pytest.mark.parametrize("untimed", [0, 2], ids=["all-untimed", "one-untimed"])
def test_lines_of_an_older_writer_keep_no_times(tmp_path: Path, untimed: int) -> None:
    # A journal left by a version before line times, recovered by this one.
    d = draft()
    journal = JournalWriter(store.journal_path(tmp_path, d.id), d.header())
    lines = ["one\n", "two\n", "three\n"]
    for i, line in enumerate(lines):
        timed = untimed != 0 and i != untimed
        journal.write("out", {"s": "stdout", "l": line, **({"t": float(i)} if timed else {})})
    journal.close()
    doc = store.document_from_journal(journal.path)
    assert doc["raw"]["stdout"] == "one\ntwo\nthree\n"
    assert "raw_times" not in doc


def test_each_run_of_a_sweep_keeps_its_line_times(tmp_path: Path) -> None:
    # Runs come into a sweep three ways: recorded in its journal, a finished file not yet
    # recorded, and the journal of the run going when the sweep's process died.
    header = {
        **draft("sweep-x").header(),
        "kind": "sweep",
        "sweep": {"points": [{}], "order": [[0, 0], [0, 1], [0, 2]]},
    }
    sweep = JournalWriter(store.journal_path(tmp_path, "sweep-x"), header)
    work = store.runs_dir(sweep.path)
    work.mkdir()
    recorded = timed_journal(work, "run-a")
    recorded.write("end", {"status": "completed", "exit_code": 0})
    recorded.close()
    recorded_doc = store.load(store.finalize(recorded.path)).doc
    sweep.write("run", {"slot": 0, "point": 0, "repeat": 0, "session": recorded_doc})
    sweep.close()
    (work / "run-a.json").unlink()
    finished = timed_journal(work, "run-b")
    finished.write("end", {"status": "completed", "exit_code": 0})
    finished.close()
    store.finalize(finished.path)
    timed_journal(work, "run-c").close()
    [entry] = store.list_sessions(tmp_path)
    assert entry.session is not None, entry.error
    runs = entry.session.runs
    assert [r.id for r in runs] == ["run-a", "run-b", "run-c"]
    assert [r.status for r in runs] == ["completed", "completed", "interrupted"]
    for run in runs:
        assert run.doc["raw_times"] == {"stdout": [0.012, 1.25, 1.25], "stderr": [0.5]}


def test_journal_and_session_are_private_and_hold_no_secret(tmp_path: Path) -> None:
    directory = tmp_path / "sessions"
    directory.mkdir(mode=0o755)
    directory.chmod(0o755)  # a store made before: tightened once written to
    d = draft()
    url = "http://bench:pw-1@127.0.0.1:1/"
    d.spec = RunSpec(urls=(url,), headers=("Authorization: Bearer tok-1",), duration_s=1)
    d.argv = ["wrk", "-H", "Authorization: Bearer tok-1", url]
    journal = JournalWriter(store.journal_path(directory, d.id), d.header())
    journal.write("out", {"s": "stdout", "l": f"Running 1s test @ {url}\n"})
    journal.close()
    assert stat.S_IMODE(directory.stat().st_mode) == 0o700
    assert stat.S_IMODE(journal.path.stat().st_mode) == 0o600
    text = journal.path.read_text()
    assert "tok-1" not in text and "pw-1" not in text and text.count("redacted:") == 5
    path = store.finalize(journal.path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert "tok-1" not in path.read_text() and "pw-1" not in path.read_text()
    store.amend(path, {"name": "y"})
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_a_session_saved_with_its_secrets_is_read_without_them(tmp_path: Path) -> None:
    """Files written before secrets were redacted: shown and exported redacted all the same."""
    d = draft()
    d.spec = RunSpec(urls=("http://127.0.0.1:1/",), headers=("Cookie: c-1",), duration_s=1)
    doc = {**d.header(), "series": [], "status": "completed"}
    path = tmp_path / f"{d.id}.json"
    path.write_bytes(orjson.dumps(doc))
    session = store.load(path)
    assert session.spec.headers == (f"Cookie: redacted:{fingerprint('c-1')}",)
