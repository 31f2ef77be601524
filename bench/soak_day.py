"""A day of run without waiting a day: the real path a run's figures take (request log ->
ingest -> per-second rows, samples and minute histograms -> journal), fed a synthetic h2load
request log of 86,400 real seconds at a scaled-down count (`--per-second` requests each),
with two resource samples a second as the sampler takes them. Prints this process's RSS
every simulated hour; then the journal is recovered as a run that died at its last second
(the crash at hour 24: in a child, printing its peak RSS and time), and the session it makes
is timed as each view opens it: load, replay (its timeline, and seeking to the end and back
to hour 1), the CSV export, compare and history (those as commands, start-up included).

    .venv/bin/python bench/soak_day.py [--hours 24] [--per-second 20] [--rate]
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import psutil

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench.common import TUIBENCH
from tui_bench.engine.log_ingest import LogIngest
from tui_bench.engine.minute_histograms import MinuteHistograms
from tui_bench.engine.schedule import Schedule
from tui_bench.engine.series import SeriesBuilder, traffic_from_log
from tui_bench.sampling.samples import ResourceSample
from tui_bench.spec import RunSpec
from tui_bench.storage.journal import JournalWriter
from tui_bench.storage.session_records import SessionDraft

MIB = 1 << 20
T0_US = 1_790_000_000_000_000
HOUR_S = 3600


def sample(t_s: float, rng: np.random.Generator) -> ResourceSample:
    return ResourceSample(
        t_s=t_s,
        server_cpu_pct=float(rng.uniform(80, 120)),
        server_rss_bytes=20_000_000 + int(rng.integers(0, 4096)),
        server_uss_bytes=5_000_000,
        server_pss_bytes=9_000_000,
        server_procs=3,
        server_threads=3,
        server_fds=50,
        system_cpu_pct=(float(rng.uniform(0, 100)), float(rng.uniform(0, 100))),
        system_mem_used_bytes=450_000_000 + int(rng.integers(0, 1 << 20)),
        system_mem_total_bytes=25_276_502_016,
        client_cpu_pct=float(rng.uniform(50, 90)),
        client_thread_max_pct=float(rng.uniform(50, 95)),
        sampler_cpu_pct=float(rng.uniform(0, 2)),
    )


def log_block(
    start_s: int, seconds: int, per_second: int, rng: np.random.Generator, *, rate: bool
) -> bytes:
    """h2load's request log for `seconds` from `start_s`: start µs, status, duration µs;
    sent when due at a fixed rate, else at random."""
    n = seconds * per_second
    if rate:
        offsets = np.arange(n, dtype=np.int64) * 1_000_000 // per_second
    else:
        offsets = np.sort(rng.integers(0, seconds * 1_000_000, n))
    starts = T0_US + start_s * 1_000_000 + offsets
    durations = rng.lognormal(7.3, 0.5, n).astype(np.int64)
    status = np.where(rng.random(n) < 0.001, 503, 200)
    lines = np.column_stack((starts, status, durations))
    return "".join(f"{a} {b} {c}\n" for a, b, c in lines.tolist()).encode()


def write_day(store: Path, hours: float, per_second: int, rate: bool) -> Path:
    seconds = int(hours * HOUR_S)
    spec = RunSpec(
        urls=("http://127.0.0.1:8080/",),
        duration_s=float(seconds),
        rate=per_second if rate else None,
    )
    draft = SessionDraft(
        id="20261128-000000-000-h2load-day",
        spec=spec,
        argv=["h2load"],
        tool={"name": "h2load", "path": "/usr/bin/h2load", "version": "1.64.0"},
        host={},
        started_at=datetime(2026, 11, 28, tzinfo=UTC).isoformat(),
        name="day",
    )
    path = store / f"{draft.id}.journal"
    journal = JournalWriter(path, draft.header())
    ingest = LogIngest(T0_US, Schedule.of(spec, T0_US))
    series = SeriesBuilder()
    minutes = MinuteHistograms()
    rng = np.random.default_rng(1)
    me = psutil.Process()
    started = time.monotonic()
    print("  hour   RSS MiB   journal MiB")
    block = 60
    for start_s in range(0, seconds, block):
        for i in range(2 * block):
            taken = sample(start_s + i / 2, rng)
            series.add_sample(taken)
            journal.write("sample", asdict(taken))
        closed = ingest.feed(log_block(start_s, block, per_second, rng, rate=rate))
        # As the run's clock would: the block's seconds close once it is over.
        closed += ingest.close_by_clock(T0_US + (start_s + block + 1) * 1_000_000)
        for stats in closed:
            row = series.row(traffic_from_log(stats))
            journal.write("second", row)
            minutes.add(journal, stats.t_s, stats.histogram, stats.service)
        if (start_s + block) % HOUR_S == 0:
            hour = (start_s + block) // HOUR_S
            rss = me.memory_info().rss / MIB
            print(f"{hour:6d} {rss:9.1f} {path.stat().st_size / MIB:12.1f}")
    for stats in ingest.close(T0_US + seconds * 1_000_000):
        journal.write("second", series.row(traffic_from_log(stats)))
        minutes.add(journal, stats.t_s, stats.histogram, stats.service)
    minutes.close(journal)
    journal.flush()
    # No end record: the run died at its last second and is recovered as such.
    os.close(journal._fd)
    print(f"written in {time.monotonic() - started:.0f} s")
    return path


RECOVER = """
import resource, sys, time
from pathlib import Path
from tui_bench.storage import store
started = time.monotonic()
store.finalize(Path(sys.argv[1]))
took = time.monotonic() - started
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(f"{took:.2f} {peak:.1f}")
"""

OPEN = """
import sys, time
from tui_bench.storage import store
from tui_bench.engine.replay import Player, timeline
started = time.monotonic()
session = store.load(sys.argv[1])
loaded = time.monotonic()
player = Player(timeline(session))
opened = time.monotonic()
player.seek(player.timeline.length_s)
to_end = time.monotonic()
player.seek(3600.0)
back = time.monotonic()
print(f"{loaded - started:.2f} {opened - started:.2f} {to_end - opened:.2f} {back - to_end:.2f}")
"""


def timed(argv: list[str], env: dict[str, str]) -> float:
    started = time.monotonic()
    subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, check=True)
    return time.monotonic() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hours", type=float, default=24)
    parser.add_argument("--per-second", type=int, default=20)
    parser.add_argument("--rate", action="store_true", help="a fixed-rate run's log")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as temp:
        store = Path(temp)
        journal = write_day(store, args.hours, args.per_second, args.rate)
        print(f"journal: {journal.stat().st_size / MIB:.1f} MiB")
        env = {**os.environ, "TUIBENCH_SESSIONS": str(store)}
        out = subprocess.run(
            [sys.executable, "-c", RECOVER, str(journal)], env=env, capture_output=True, text=True
        )
        took, peak = out.stdout.split()
        print(f"recovered in {took} s, peak RSS {peak} MiB")
        (session,) = store.glob("*.json")
        print(f"session: {session.stat().st_size / MIB:.1f} MiB")
        twin = store / session.name.replace("day", "night")
        shutil.copy(session, twin)
        out = subprocess.run(
            [sys.executable, "-c", OPEN, str(session)], env=env, capture_output=True, text=True
        )
        load_s, replay_s, end_s, back_s = out.stdout.split()
        print(f"load {load_s} s; replay open {replay_s} s, to the end {end_s} s, back {back_s} s")
        for label, argv in (
            ("export csv", [*TUIBENCH, "export", session.stem, "--format", "csv"]),
            ("compare", [*TUIBENCH, "compare", session.stem, twin.stem, "--format", "md"]),
            ("history", [*TUIBENCH, "history", "day", "--format", "md"]),
            ("sessions", [*TUIBENCH, "sessions"]),
        ):
            print(f"{label}: {timed(argv, env):.2f} s")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"this process's peak RSS: {peak:.0f} MiB")


if __name__ == "__main__":
    main()
