"""The journal keeps the samples a session keeps: all of the first minutes, then one every
few seconds, and the run's closing reading."""

from __future__ import annotations

from pathlib import Path

from tui_bench.storage.columns import rows_of
from tui_bench.storage.journal import (
    SAMPLE_EVERY_S,
    SAMPLES_WHOLE_S,
    JournalWriter,
    kept_sample,
    read_records,
)
from tui_bench.storage.session import SCHEMA_VERSION
from tui_bench.storage.store import document_from_journal


def test_samples_are_kept_whole_at_first_then_one_every_few_seconds() -> None:
    times = [i * 0.5 for i in range(int(2 * SAMPLES_WHOLE_S + 200))]
    kept: list[float] = []
    for t in times:
        if kept_sample({"t_s": t}, kept[-1] if kept else None):
            kept.append(t)
    early = [t for t in kept if t < SAMPLES_WHOLE_S]
    late = [t for t in kept if t >= SAMPLES_WHOLE_S]
    assert early == [t for t in times if t < SAMPLES_WHOLE_S]
    assert late == [SAMPLES_WHOLE_S + i * SAMPLE_EVERY_S for i in range(len(late))]
    assert len(late) == 10  # 100 s after the whole part


def test_the_journal_takes_only_the_samples_the_session_keeps_and_the_last(
    tmp_path: Path,
) -> None:
    journal = JournalWriter(tmp_path / "run.journal", {"id": "r"})
    for i in range(int(2 * (SAMPLES_WHOLE_S + 60))):
        journal.write("sample", {"t_s": i / 2})
    journal.flush()
    times = [r["t_s"] for r in read_records(journal.path) if r["k"] == "sample"]
    assert len(times) == 2 * SAMPLES_WHOLE_S + 60 / SAMPLE_EVERY_S
    assert times[-1] == SAMPLES_WHOLE_S + 60 - SAMPLE_EVERY_S
    # The run's closing reading, passed over, is written as the run ends.
    journal.write("end", {"status": "completed"})
    journal.close()
    kinds = [(r["k"], r.get("t_s")) for r in read_records(journal.path)][-2:]
    assert kinds == [("sample", SAMPLES_WHOLE_S + 60 - 0.5), ("end", None)]


def test_a_session_keeps_the_samples_its_journal_kept(tmp_path: Path) -> None:
    # Taken a hair before each whole second: rounding them must not merge two slots.
    journal = JournalWriter(tmp_path / "run.journal", {"id": "r", "spec": {"urls": []}})
    times = [SAMPLES_WHOLE_S - 0.00004 + i for i in range(31)]
    for t in times:
        journal.write("sample", {"t_s": t})
    journal.write("end", {"status": "completed"})
    journal.close()
    written = [r["t_s"] for r in read_records(journal.path) if r["k"] == "sample"]
    assert written == [times[0], times[1], times[11], times[21], times[30]]
    doc = document_from_journal(journal.path)
    kept = rows_of(doc["samples"]) or []
    assert [row["t_s"] for row in kept] == [round(t, 3) for t in written]
    # Columns, whichever release began the journal: the version says so.
    assert doc["version"] == SCHEMA_VERSION
