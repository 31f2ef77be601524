"""A store on a disk that is full before a run, or fills up during it: one line naming the
store and its free space, the run's figures on the terminal in full, nothing half-written."""

from __future__ import annotations

import os
from pathlib import Path

import orjson
import pytest

from tests.conftest import FIXTURES, need
from tests.faults.conftest import died_journal, fill, in_process, tuibench
from tui_bench.demo.nginx_target import DemoTarget
from tui_bench.storage import store


@pytest.fixture
def full_store(small_disk: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    directory = small_disk / "sessions"
    monkeypatch.setenv("TUIBENCH_SESSIONS", str(directory))
    return directory


def test_a_full_store_refuses_the_run_before_it_starts(full_store: Path, nginx: DemoTarget) -> None:
    need("h2load")
    fill(full_store.parent, 0)
    proc = tuibench("run", "--headless", "--no-server", "-n", "100", nginx.urls["h2c"])
    assert proc.returncode == 2
    assert proc.stderr == (
        f"tuibench: error: cannot start the run's journal: {full_store}: "
        "No space left on device (0 B free)\n"
    )
    assert proc.stdout == ""
    assert list(full_store.iterdir()) == []


def summary(stdout: str) -> dict[str, str]:
    """The run's summary lines by label (the first of each)."""
    out: dict[str, str] = {}
    for line in stdout.splitlines():
        label, _, value = line.partition(" ")
        out.setdefault(label, value.strip())
    return out


def test_a_store_filling_up_mid_run_shows_every_figure(full_store: Path, nginx: DemoTarget) -> None:
    need("h2load")
    # tmpfs gives a file room by the 4 KiB page: the journal gets its first page and no more.
    # Its header (the long header twice: in the spec and the argv) fills most of it, so the
    # run's first seconds and output overflow it.
    fill(full_store.parent, 4096)
    pad = f"X-Pad: {'a' * 1000}"
    proc = tuibench("run", "--headless", "--no-server", "-H", pad, "-d", "1.5", nginx.urls["h2c"])
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr
    last = proc.stderr.splitlines()[-1]
    assert last.startswith(f"tuibench: error: the run is not saved: {full_store}: No space left")
    assert last.endswith(" free)")
    out = summary(proc.stdout)
    assert out["status"] == "completed"
    assert out["session"].startswith(f"not saved: {full_store}: No space left"), out
    assert int(out["requests"].split()[0].replace(",", "")) > 0
    assert out["latency"].startswith("min ") and "p99 " in out["latency"]
    # Nothing half-written left: no journal to be recovered as a run that never ended.
    assert list(full_store.iterdir()) == []
    listing = tuibench("sessions", "--json")
    assert listing.returncode == 0 and orjson.loads(listing.stdout) == []


def test_a_whole_journal_is_kept_until_there_is_room(full_store: Path, nginx: DemoTarget) -> None:
    need("h2load")
    # A short run's journal (~5 kB: two pages) fits; its session (~8 kB, the histograms
    # written out) does not fit in the one page left.
    fill(full_store.parent, 12288)
    proc = tuibench("run", "--headless", "--json", "--no-server", "-n", "100", nginx.urls["h2c"])
    assert proc.returncode == 2
    payload = orjson.loads(proc.stdout)
    assert payload["session_path"] is None
    assert payload["run_status"] == "completed" and payload["requests"]["total"] == 100
    [journal] = full_store.iterdir()
    last = proc.stderr.splitlines()[-1]
    assert last.startswith(
        f"tuibench: error: the run is not saved yet: {full_store}: No space left on device ("
    )
    assert last.endswith(
        f" free); its journal {journal.name} is kept, to be saved once there is room"
    )
    os.remove(full_store.parent / "filler")
    [entry] = store.list_sessions(full_store)
    assert entry.session is not None
    assert entry.session.status == "completed"
    assert entry.session.doc["result"]["requests"]["total"] == 100
    assert not journal.exists()


def test_a_journal_that_cannot_be_recovered_on_a_full_disk_waits(
    full_store: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    journal = died_journal(full_store, "20260101-000000-000-h2load-api", 3)
    fill(full_store.parent, 0)
    for args in (("sessions",), ("sessions", "--json"), ("history", "api")):
        proc = in_process(capsys, *args)
        assert "Traceback" not in proc.stderr
        assert f"cannot recover the run: {full_store}: No space left on device" in (
            proc.stdout + proc.stderr
        )
    assert journal.exists()
    os.remove(full_store.parent / "filler")
    [entry] = store.list_sessions(full_store)
    assert entry.session is not None and entry.session.status == "interrupted"
    assert not journal.exists()


def test_an_import_into_a_full_store_is_one_line(
    full_store: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    full_store.mkdir()
    fill(full_store.parent, 0)
    proc = in_process(capsys, "import", str(FIXTURES / "ab-2.3-k.txt"))
    assert proc.returncode == 2
    assert proc.stderr == (
        f"tuibench: error: the import is not saved: {full_store}: "
        "No space left on device (0 B free)\n"
    )
    assert list(full_store.iterdir()) == []
