"""A session's series and samples kept as columns."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
import pytest

from tui_bench.storage.columns import (
    SAMPLE_EVERY_S,
    SAMPLES_WHOLE_S,
    Columns,
    columns_of,
    json_default,
    kept_sample,
    readable,
    rows_of,
)
from tui_bench.storage.journal import JournalWriter, read_records
from tui_bench.storage.session import SCHEMA_VERSION
from tui_bench.storage.store import document_from_journal


def test_rows_come_back_as_they_went_in_rounded_to_what_they_mean() -> None:
    columns = Columns()
    columns.add({"t_s": 0, "rps": 10.123456, "p99_s": 0.00123456789, "server_cpu_pct": 12.3456})
    columns.add({"t_s": 1, "rps": 11.0, "p99_s": None, "server_cpu_pct": 50.0})
    assert rows_of(columns.to_json()) == [
        {"t_s": 0, "rps": 10.12, "p99_s": 0.0012346, "server_cpu_pct": 12.35},
        {"t_s": 1, "rps": 11.0, "p99_s": None, "server_cpu_pct": 50.0},
    ]


def test_a_figure_that_comes_late_is_unknown_before_and_one_never_known_is_left_out() -> None:
    columns = Columns()
    columns.add({"t_s": 0, "backlog": None})
    columns.add({"t_s": 1, "backlog": None, "max_s": 0.5})
    kept = columns_of(columns.to_json())
    assert kept == {"t_s": [0, 1], "max_s": [None, 0.5]}
    assert columns.column("nothing") == [None, None]
    assert columns.last("t_s") == 1


def test_per_core_figures_are_rounded_each() -> None:
    columns = Columns()
    columns.add({"t_s": 0.123456, "system_cpu_pct": (95.8333333, 3.0)})
    assert columns_of(columns.to_json()) == {"t_s": [0.123], "system_cpu_pct": [[95.83, 3.0]]}


def test_whole_numbers_stay_whole_and_a_column_may_turn_into_anything() -> None:
    columns = Columns()
    for row in (
        {"rps": 5, "rss_bytes": 20_643_840, "cores": None},
        {"rps": 2.5, "rss_bytes": None, "cores": (1.0, 2.0)},
        {"rps": 1 << 60, "rss_bytes": 7, "cores": None},
    ):
        columns.add(row)
    kept = columns_of(orjson.loads(orjson.dumps(columns.to_json(), default=json_default)))
    assert kept == {
        "rps": [5, 2.5, 1 << 60],
        "rss_bytes": [20_643_840, None, 7],
        "cores": [None, [1.0, 2.0], None],
    }
    assert [type(v) for v in kept["rps"]] == [int, float, int]
    assert columns.last("rss_bytes") == 7 and columns.last("cores") is None


@pytest.mark.parametrize(
    ("kept", "fine"),
    [
        ([{"t_s": 0}], True),
        ({"t_s": [0, 1], "rps": [1, 2]}, True),
        ({}, True),
        ({"t_s": [0, 1], "rps": [1]}, False),
        ({"t_s": 5}, False),
        ("rows", False),
    ],
)
def test_what_is_neither_rows_nor_even_columns_is_not_read(kept: Any, fine: bool) -> None:
    assert readable(kept) is fine
    assert (rows_of(kept) is not None) is fine


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
