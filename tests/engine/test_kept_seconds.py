"""What a run keeps of its seconds for its end, and how it trims its heap."""

from __future__ import annotations

from tui_bench.engine.heap_trim import EVERY_S, HeapTrim
from tui_bench.engine.kept_seconds import KeptSeconds
from tui_bench.engine.series import rate_figures
from tui_bench.spec import RunSpec


def test_the_kept_seconds_read_back_as_the_rows_said_them() -> None:
    rows = [
        {"t_s": 0, "window_s": 1.0, "requests": 900, "rps": 900, "backlog": 0, "p99_s": 0.1},
        {"t_s": 1, "window_s": 1.0, "requests": None, "rps": None},
        {"t_s": 2, "window_s": 0.25, "requests": 50, "rps": 200.0, "backlog": 7},
    ]
    kept = KeptSeconds()
    for row in rows:
        kept.add(row)
    assert len(kept) == 3
    assert kept.rows() == [
        {"t_s": 0, "window_s": 1.0, "requests": 900, "rps": 900.0, "backlog": 0},
        {"t_s": 1, "window_s": 1.0, "requests": None, "rps": None, "backlog": None},
        {"t_s": 2, "window_s": 0.25, "requests": 50, "rps": 200.0, "backlog": 7},
    ]
    assert all(type(r["t_s"]) is int for r in kept.rows())
    # What the end reads of them is what it read of the rows.
    spec = RunSpec(urls=("http://127.0.0.1:1/",), duration_s=3.0, rate=1000.0, connections=1)
    assert rate_figures(spec, kept.rows()) == rate_figures(spec, rows)


def test_the_heap_is_trimmed_once_a_while() -> None:
    now = [0.0]
    trim = HeapTrim(clock=lambda: now[0])
    assert not trim.due()
    now[0] = EVERY_S
    assert trim.due() and not trim.due()
    now[0] += EVERY_S / 2
    assert not trim.due()
    now[0] += EVERY_S / 2
    assert trim.due()


def test_the_seconds_before_a_lost_log_are_those_judged() -> None:
    kept = KeptSeconds()
    for t in range(5):
        kept.add({"t_s": t, "window_s": 1.0, "requests": 10 if t < 2 else 0, "rps": 10.0})
    assert [r["t_s"] for r in kept.rows(before=2)] == [0, 1]
    assert len(kept.rows()) == 5
