from __future__ import annotations

import io
from collections import Counter
from itertools import pairwise
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tui_bench.engine import log_feed
from tui_bench.engine.file_holes import STEP, allocated_bytes
from tui_bench.engine.log_feed import LogTail
from tui_bench.engine.log_ingest import CLOCK_GRACE_US, GRACE_US, LogIngest, SecondStats
from tui_bench.histogram import RELATIVE_ERROR, LatencyHistogram
from tui_bench.status_codes import MAX_CODES

GOLDEN = Path(__file__).parents[1] / "fixtures" / "h2load-1.52-logfile.tsv"
T0 = 1_795_000_000_000_000
S = 1_000_000


def line(end_us: int, status: int = 200, duration_us: int = 1_000) -> bytes:
    """A log line for a request that completes `end_us` after T0."""
    return f"{T0 + end_us - duration_us}\t{status}\t{duration_us}\n".encode()


def ingest_all(t0: int, pieces: list[bytes]) -> tuple[LogIngest, list[SecondStats]]:
    ingest = LogIngest(t0)
    out: list[SecondStats] = []
    for piece in pieces:
        out += ingest.feed(piece)
    out += ingest.close()
    return ingest, out


def golden_rows() -> list[tuple[int, int, int]]:
    return [
        (int(a), int(b), int(c))
        for a, b, c in (ln.split("\t") for ln in GOLDEN.read_text().splitlines())
    ]


def golden_t0() -> int:
    # The capture lasts ~50 ms: put a second boundary at its median completion, so the
    # golden log covers two seconds.
    ends = sorted(s + d for s, _, d in golden_rows())
    return ends[len(ends) // 2] - S


def synthetic_log() -> bytes:
    """Eight seconds at ~2k req/s with failures, 4xx/5xx, interleaved writers (lines up to
    0.2 s out of completion order, less than the grace) and an empty second 4."""
    rng = np.random.default_rng(11)
    ends = np.sort(rng.uniform(0, 8 * S, 16_000).astype(np.int64))
    ends = ends[(ends < 4 * S) | (ends >= 5 * S)]
    order = np.argsort(ends + rng.integers(0, 200_000, ends.size), kind="stable")
    status = rng.choice([200, 200, 200, 304, 404, 503, -1], ends.size)
    duration = rng.lognormal(8, 1, ends.size).astype(np.int64)
    return b"".join(line(int(ends[i]), int(status[i]), int(duration[i])) for i in order.tolist())


def test_golden_totals_equal_line_counts() -> None:
    rows = golden_rows()
    ingest, series = ingest_all(golden_t0(), [GOLDEN.read_bytes()])
    classes = Counter(f"{status // 100}xx" for _, status, _ in rows if status > 0)
    totals = ingest.totals
    assert totals.requests == len(rows) == 2000
    assert totals.errors == sum(1 for _, status, _ in rows if status == -1)
    assert totals.status == {c: classes[c] for c in ("2xx", "3xx", "4xx", "5xx")}
    assert totals.status["4xx"] > 0
    assert totals.bad_lines == 0
    assert [s.t_s for s in series] == [0, 1]
    assert sum(s.requests for s in series) == 2000
    assert sum(s.n for s in series) == ingest.overall.count == 2000 - totals.errors
    durations = [d for _, status, d in rows if status >= 0]
    overall = ingest.overall
    assert (overall.min_us, overall.max_us) == (min(durations), max(durations))
    assert overall.mean_s == pytest.approx(sum(durations) / len(durations) / S)


def test_golden_per_second_percentiles_are_within_the_bucket_error() -> None:
    t0 = golden_t0()
    _, series = ingest_all(t0, [GOLDEN.read_bytes()])
    for second in series:
        durations = sorted(d for s, status, d in golden_rows() if (s + d - t0) // S == second.t_s)
        assert second.n == len(durations)
        assert second.max_s == durations[-1] / S
        assert second.p50_s is not None
        want = durations[(len(durations) + 1) // 2 - 1]
        assert abs(second.p50_s * S - want) <= want * RELATIVE_ERROR


@pytest.mark.parametrize(
    ("t0", "log"),
    [(golden_t0(), GOLDEN.read_bytes()), (T0, synthetic_log())],
    ids=["golden", "synthetic"],
)
@settings(max_examples=40, deadline=None)
@given(cuts=st.lists(st.floats(0, 1), max_size=12))
def test_chunk_boundaries_do_not_change_the_result(t0: int, log: bytes, cuts: list[float]) -> None:
    whole, want = ingest_all(t0, [log])
    points = sorted({int(c * len(log)) for c in cuts})
    pieces = [log[a:b] for a, b in pairwise([0, *points, len(log)])]
    ingest, got = ingest_all(t0, pieces)
    assert got == want
    assert ingest.totals == whole.totals
    assert ingest.overall == whole.overall


def test_synthetic_series_is_complete_and_shows_the_empty_second() -> None:
    ingest, series = ingest_all(T0, [synthetic_log()])
    assert [s.t_s for s in series] == list(range(8))
    assert series[4].requests == 0
    assert sum(s.requests for s in series) == ingest.totals.requests
    assert sum(s.errors for s in series) == ingest.totals.errors > 0


def test_a_second_closes_once_a_completion_past_its_end_plus_grace_is_seen() -> None:
    assert GRACE_US == 250_000, "a quarter second: a line per second is not a second late"
    ingest = LogIngest(T0)
    assert ingest.feed(line(500_000)) == []
    assert ingest.feed(line(S + GRACE_US - 1)) == []
    closed = ingest.feed(line(S + GRACE_US))
    assert [s.t_s for s in closed] == [0]
    assert closed[0].requests == 1
    newest = ingest.current()
    assert newest is not None
    assert (newest.t_s, newest.requests) == (1, 2)
    assert [s.t_s for s in ingest.close()] == [1]


def test_seconds_without_requests_are_emitted_as_zeros() -> None:
    ingest = LogIngest(T0)
    closed = ingest.feed(line(100_000) + line(4_500_000) + line(7 * S))
    assert [s.t_s for s in closed] == [0, 1, 2, 3, 4, 5]
    assert [s.requests for s in closed] == [1, 0, 0, 0, 1, 0]
    empty = closed[2]
    assert (empty.errors, empty.n, empty.histogram.count) == (0, 0, 0)
    assert (empty.p50_s, empty.p90_s, empty.p99_s, empty.max_s) == (None,) * 4
    assert empty.status == {"2xx": 0, "3xx": 0, "4xx": 0, "5xx": 0}


def test_a_second_nothing_completed_in_closes_by_the_clock_as_zeros() -> None:
    """A stalled server writes no line to close a second: the clock does, a second late."""
    ingest = LogIngest(T0)
    assert [s.t_s for s in ingest.feed(line(1_500_000))] == [0]  # then nothing
    assert ingest.close_by_clock(T0 + 2 * S + CLOCK_GRACE_US - 1) == [], "not yet a second"
    closed = ingest.close_by_clock(T0 + 3 * S + CLOCK_GRACE_US)
    assert [(s.t_s, s.requests) for s in closed] == [(1, 1), (2, 0)]
    # A line later than that counts in the oldest open second: nothing is lost.
    ingest.feed(line(2_500_000))
    assert [(s.t_s, s.requests) for s in ingest.close()] == [(3, 1)]


def test_close_can_extend_the_series_to_the_end_of_the_run() -> None:
    ingest = LogIngest(T0)
    ingest.feed(line(100_000))
    series = ingest.close(end_us=T0 + 3 * S + 1)
    assert [(s.t_s, s.requests) for s in series] == [(0, 1), (1, 0), (2, 0), (3, 0)]
    with pytest.raises(RuntimeError):
        ingest.feed(line(200_000))
    assert ingest.close() == []


def test_failures_are_errors_and_stay_out_of_the_latency() -> None:
    log = (
        line(100_000, 200, 1_000)
        + line(200_000, 302, 2_000)
        + line(300_000, 404, 3_000)
        + line(400_000, 503, 4_000)
        + line(500_000, 101, 5_000)
        + line(600_000, -1, 90_000)
        + line(700_000, -1, 80_000)
    )
    ingest, (second,) = ingest_all(T0, [log])
    assert (second.requests, second.errors, second.n) == (7, 2, 5)
    assert second.status == {"2xx": 1, "3xx": 1, "4xx": 1, "5xx": 1}
    assert second.max_s == 0.005
    totals = ingest.totals
    assert (totals.requests, totals.errors) == (7, 2)
    assert totals.status == second.status


@pytest.mark.parametrize(
    "garbage",
    [
        b"garbage\n",
        b"\n",
        b"   \t \n",
        b"1795259026486250\t200\n",
        b"1795259026486250\t200\t12\t13\n",
        b"1795259026486250\t200\t1.5\n",
        b"1795259026486250\t200\t-3\n",
        b"1795259026486250\t1000\t3\n",
        b"179525902648\t200\t3\n",
        b"17952590264862501795259026486250\t200\t3\n",
        b"\x00\xff\xfe\n",
    ],
)
def test_a_garbage_line_is_skipped_and_counted(garbage: bytes) -> None:
    lines = GOLDEN.read_bytes().splitlines(keepends=True)
    log = b"".join(lines[:1000]) + garbage + b"".join(lines[1000:])
    ingest, series = ingest_all(golden_t0(), [log])
    assert ingest.totals.bad_lines == 1
    assert ingest.totals.requests == sum(s.requests for s in series) == 2000


def test_an_endless_unterminated_line_is_dropped_not_kept() -> None:
    ingest = LogIngest(T0)
    assert ingest.feed(b"x" * 5000) == []
    ingest.feed(b"y" * 5000)
    ingest.feed(b"z\n" + line(100_000))
    ingest.close()
    assert (ingest.totals.bad_lines, ingest.totals.requests) == (1, 1)


def test_a_late_line_counts_in_the_oldest_open_second() -> None:
    ingest = LogIngest(T0)
    closed = ingest.feed(line(100_000) + line(3_100_000))
    assert [s.t_s for s in closed] == [0, 1]
    ingest.feed(line(200_000))
    series = ingest.close()
    assert [(s.t_s, s.requests) for s in series] == [(2, 1), (3, 1)]


def test_completions_before_t0_count_in_the_first_second() -> None:
    _, series = ingest_all(T0, [line(-300_000) + line(100_000)])
    assert [(s.t_s, s.requests) for s in series] == [(0, 2)]


def test_a_partial_line_waits_for_its_end() -> None:
    full = line(100_000, 200, 4_321)
    ingest = LogIngest(T0)
    ingest.feed(full[:7])
    ingest.feed(full[7:20])
    assert ingest.totals.requests == 0
    ingest.feed(full[20:])
    assert ingest.totals.requests == 1
    (second,) = ingest.close()
    assert second.max_s == 0.004321


def test_close_reads_an_unterminated_last_line() -> None:
    ingest = LogIngest(T0)
    ingest.feed(line(100_000) + line(200_000).rstrip(b"\n"))
    (second,) = ingest.close()
    assert second.requests == 2


def test_current_is_a_snapshot_and_overall_includes_open_seconds() -> None:
    ingest = LogIngest(T0)
    assert ingest.current() is None
    ingest.feed(line(100_000, 200, 1_000) + line(1_100_000, 200, 3_000))
    now = ingest.current()
    assert now is not None
    assert (now.t_s, now.requests, now.max_s) == (1, 1, 0.003)
    now.histogram.add(np.array([999_999], dtype=np.int64))
    again = ingest.current()
    assert again is not None
    assert again.max_s == 0.003
    overall = ingest.overall
    assert (overall.count, overall.min_us, overall.max_us) == (2, 1_000, 3_000)
    overall.merge(overall.copy())
    assert ingest.overall.count == 2


def test_overall_is_the_merge_of_the_seconds() -> None:
    ingest, series = ingest_all(T0, [synthetic_log()])
    merged = LatencyHistogram()
    for second in series:
        merged.merge(second.histogram)
    assert merged == ingest.overall


def test_each_second_carries_the_percentiles_of_the_run_so_far() -> None:
    _, series = ingest_all(T0, [synthetic_log()])
    merged = LatencyHistogram()
    for second in series:
        merged.merge(second.histogram)
        assert second.overall == tuple(merged.percentiles_s((50, 90, 99)))
    # The slow tail builds up: the run's p99 is not any one second's.
    assert series[-1].overall[2] != series[-1].p99_s
    assert series[4].requests == 0 and series[4].overall == series[3].overall


def test_log_tail_follows_a_growing_file(tmp_path: Path) -> None:
    path = tmp_path / "h2load.log"
    log = GOLDEN.read_bytes()
    with LogTail(path) as tail:
        assert tail.read_new() == b""
        path.touch()
        assert tail.read_new() == b""
        ingest = LogIngest(golden_t0())
        cuts = [0, 1, 17, 5_000, 5_001, 30_000, len(log)]
        for a, b in pairwise(cuts):
            with path.open("ab") as writer:
                writer.write(log[a:b])
            assert tail.read_new() == log[a:b]
            ingest.feed(log[a:b])
        assert tail.read_new() == b""
        ingest.close()
    assert ingest.totals.requests == 2000
    with pytest.raises(ValueError):
        tail.read_new()


def test_log_tail_drains_a_backlog_in_bounded_reads(tmp_path: Path) -> None:
    path = tmp_path / "h2load.log"
    path.write_bytes(GOLDEN.read_bytes())
    tail = LogTail(path, max_bytes=10_000)
    pieces = []
    while piece := tail.read_new():
        assert len(piece) <= 10_000
        pieces.append(piece)
    tail.close()
    assert b"".join(pieces) == GOLDEN.read_bytes()


def test_totals_count_each_exact_code_bounded() -> None:
    rows = golden_rows()
    ingest, _ = ingest_all(golden_t0(), [GOLDEN.read_bytes()])
    exact = Counter(str(status) for _, status, _ in rows if status > 0)
    assert ingest.totals.codes == dict(sorted(exact.items()))
    # As many codes as a server can answer: the count stays bounded, nothing is lost.
    many = b"".join(line(S // 2 + i, 400 + i % 100) for i in range(1000))
    bounded, _ = ingest_all(T0, [many, line(S // 2, -1), line(S // 2, 302)])
    # 100 codes ten times each and a 302 once: the 20 lowest of the tied 4xx are kept, the
    # others (and the 302) counted by class; the failure has no code.
    kept = {str(400 + i): 10 for i in range(MAX_CODES)}
    assert bounded.totals.codes == {"3xx": 1, **kept, "4xx": 1000 - 10 * MAX_CODES}
    assert bounded.totals.status == {"2xx": 0, "3xx": 1, "4xx": 1000, "5xx": 0}


def test_log_tail_gives_back_the_disk_of_what_it_read(tmp_path: Path) -> None:
    # A request log of 12 MiB appended while it is read: what was read is punched out, so
    # the file holds at most a step of it, and every byte still reads back as written.
    path = tmp_path / "h2load.log"
    piece = (GOLDEN.read_bytes() * 40)[: 1 << 20]
    read = bytearray()
    with LogTail(path) as tail, path.open("ab") as writer:
        for _ in range(12):
            writer.write(piece)
            writer.flush()
            while chunk := tail.read_new():
                read += chunk
        assert allocated_bytes(path) <= STEP
        assert path.stat().st_size == 12 << 20
    assert bytes(read) == piece * 12


def test_a_log_it_may_only_read_is_read_and_kept_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # As a tool run by another user leaves it (root may write anything: the refusal is
    # made here as the kernel would make it).
    path = tmp_path / "h2load.log"
    piece = (GOLDEN.read_bytes() * 40)[: 1 << 20]
    path.write_bytes(piece * 6)
    opened = io.FileIO

    def refusing(name: Any, mode: str = "r", *args: Any) -> io.FileIO:
        if "+" in mode:
            raise PermissionError(13, "Permission denied", str(name))
        return opened(name, mode, *args)

    monkeypatch.setattr(log_feed.io, "FileIO", refusing)
    read = bytearray()
    with LogTail(path) as tail:
        while chunk := tail.read_new():
            read += chunk
    assert bytes(read) == piece * 6
    assert allocated_bytes(path) >= 6 << 20
