"""kill -9 of a run at three moments: no second it printed is lost; the recovered session
says when it stopped and what it measured (marked interrupted); the run's temporary
directory is removed by the next run."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import need
from tests.fakes import wait_for_run
from tests.faults.conftest import TUIBENCH
from tui_bench.demo.nginx_target import DemoTarget
from tui_bench.engine.workdir import PREFIX, remove_dead_workdirs, run_workdir
from tui_bench.storage import store

SECOND = re.compile(r"^\[\s*(\d+)s\]")


def run_and_kill(
    sessions: Path, tmp: Path, url: str, when: Callable[[list[str]], bool]
) -> list[str]:
    """Start a 3 s run and kill -9 it once `when` holds for the seconds it printed (one
    that holds for none: once its run has started); the seconds it printed."""
    proc = subprocess.Popen(
        [*TUIBENCH, "run", "--headless", "--no-server", "-d", "3", url],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "TMPDIR": str(tmp)},
    )
    printed: list[str] = []
    try:
        assert proc.stderr is not None
        if when(printed):
            wait_for_run(sessions)
        else:
            for line in proc.stderr:
                if SECOND.match(line):
                    printed.append(line)
                if when(printed):
                    break
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
    return printed


@pytest.mark.parametrize(
    "when",
    [
        pytest.param(lambda printed: True, id="as-it-starts"),
        pytest.param(lambda printed: len(printed) == 1, id="mid-run"),
        pytest.param(lambda printed: len(printed) == 3, id="at-its-end"),
    ],
)
def test_kill_9_loses_no_second_printed(
    sessions: Path, tmp_path: Path, nginx: DemoTarget, when: Callable[[list[str]], bool]
) -> None:
    need("h2load")
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    printed = run_and_kill(sessions, tmp, nginx.urls["h2c"], when)
    [workdir] = tmp.glob(f"{PREFIX}*")
    [entry] = store.list_sessions(sessions)
    assert entry.session is not None
    session = entry.session
    assert session.status == "interrupted"
    assert session.doc["ended_at"] is not None
    assert session.doc["validity"]["verdict"] == "invalid"
    assert len(session.series) >= len(printed)
    total = sum(row["requests"] for row in session.series)
    result = session.doc["result"]
    if total:
        assert result["requests"]["total"] == total
        assert result["duration_s"] == pytest.approx(sum(r["window_s"] for r in session.series))
    else:
        assert result is None
    # What a next run does before it starts: the dead run's directory goes, its log with it.
    assert remove_dead_workdirs(tmp) == [workdir]
    assert not workdir.exists()


def test_a_live_runs_directory_is_kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    monkeypatch.setattr("tempfile.tempdir", None)
    with run_workdir() as workdir:
        assert workdir.parent == tmp_path
        assert remove_dead_workdirs(tmp_path) == []
        assert workdir.is_dir()
    assert not workdir.exists()


def test_an_old_directory_without_an_owner_goes(tmp_path: Path) -> None:
    # As tuibench left them before its runs held a lock in theirs.
    old, new = tmp_path / f"{PREFIX}old", tmp_path / f"{PREFIX}new"
    for workdir in (old, new):
        workdir.mkdir()
        (workdir / "h2load.log").write_text("1\t200\t100\n")
    week_ago = time.time() - 7 * 86400
    os.utime(old, (week_ago, week_ago))
    assert remove_dead_workdirs(tmp_path) == [old]
    assert new.is_dir()
