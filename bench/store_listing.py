"""How long the sessions browser and `tuibench history` take to open on a big store.

Writes stores of synthetic sessions (as the engine saves them: tests/history_sessions.py)
into a temporary directory: 1,000 and 10,000 runs with a 10 s series, and 1,000 runs with a
one-hour series (flat in session size: a long series must not cost more to list). For each
it prints, as medians of --rounds:

- index build: the first listing, which reads every file and writes the index;
- listing: `indexed_rows`, what the browser and `tuibench sessions` do on every open;
- parse all: the listing before the index (every file read and parsed), once;
- first row: the sessions browser in a headless Textual app (160x48), from its start until
  the table shows its first row (index warm); "empty" is the same app on an empty store,
  until the table has mounted: what opening costs without any session.
- history: `history_of` one benchmark of 200 runs, change points included.

    .venv/bin/python bench/store_listing.py [--rounds 5] [--sizes 1000,10000]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.history_sessions import run_doc
from tui_bench.storage.session import Session
from tui_bench.storage.store import session_path

NAMES = 50
LONG_SERIES_S = 3600


def make_store(directory: Path, count: int, seconds: int) -> None:
    directory.mkdir(parents=True)
    for i in range(count):
        # One benchmark in 50 gets the runs; each run a minute after the one before.
        doc = run_doc(f"bench-{i % NAMES}", 0, 40_000 + i % 97, 0.004, seconds=seconds)
        doc["id"] = f"{doc['id']}-{i:05d}"
        doc["started_at"] = doc["started_at"].replace(
            "09:00:00", f"{9 + i // 3600:02d}:{i // 60 % 60:02d}:{i % 60:02d}"
        )
        # Written plainly: the bench measures reading, and 10,000 fsyncs take minutes.
        session_path(directory, doc["id"]).write_bytes(Session(doc).to_json())


def timed(action: Callable[[], Any]) -> float:
    start = time.perf_counter()
    action()
    return time.perf_counter() - start


def first_row_s(directory: Path) -> tuple[float, float]:
    """From the app's start until the sessions table shows its first row, and until it
    has mounted."""
    from tui_bench.ui.app import TuibenchApp
    from tui_bench.ui.screens.sessions_screen import SessionsScreen
    from tui_bench.ui.widgets.session_table import SessionTable

    async def run() -> tuple[float, float]:
        start = time.perf_counter()
        app = TuibenchApp(lambda app: SessionsScreen(directory))
        async with app.run_test(size=(160, 48)) as pilot:
            while not app.screen.query(SessionTable):
                await pilot.pause(0.002)
            mounted = time.perf_counter() - start
            table = app.screen.query_one(SessionTable)
            while not table.row_count and not table.loaded:
                await pilot.pause(0.002)
            return time.perf_counter() - start, mounted

    return asyncio.run(run())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--sizes", default="1000,10000")
    args = parser.parse_args()
    # The index goes to a cache of the bench's own.
    work = Path(tempfile.mkdtemp(prefix="tuibench-store-bench-"))
    os.environ["XDG_CACHE_HOME"] = str(work / "cache")
    from tui_bench.analysis.history import history_of
    from tui_bench.storage import store
    from tui_bench.storage.catalog import rows_of
    from tui_bench.storage.index import indexed, indexed_rows

    stores = [(f"{n:,} runs, {10} s series", n, 10) for n in map(int, args.sizes.split(","))]
    stores.append((f"1,000 runs, {LONG_SERIES_S} s series", 1000, LONG_SERIES_S))
    empty = work / "empty"
    empty.mkdir()
    opened = statistics.median(first_row_s(empty)[1] for _ in range(args.rounds))
    print(f"empty store: the browser opens in {opened:.3f}s (median of {args.rounds})")
    print(
        f"{'store':<28} {'MB':>6} {'index build':>12} {'listing':>9} {'parse all':>10} "
        f"{'first row':>10} {'history':>8}"
    )
    for label, count, seconds in stores:
        directory = work / f"s{count}-{seconds}"
        make_store(directory, count, seconds)
        size = sum(p.stat().st_size for p in directory.iterdir()) / 1e6
        build = timed(lambda d=directory: indexed_rows(d))
        listing = statistics.median(
            timed(lambda d=directory: indexed_rows(d)) for _ in range(args.rounds)
        )
        parse_all = timed(lambda d=directory: rows_of(store.list_sessions(d)))
        first = statistics.median(first_row_s(directory)[0] for _ in range(args.rounds))
        history = statistics.median(
            timed(lambda d=directory: history_of("bench-7", indexed(d, named="bench-7")))
            for _ in range(args.rounds)
        )
        print(
            f"{label:<28} {size:>6.0f} {build:>11.3f}s {listing:>8.3f}s {parse_all:>9.3f}s "
            f"{first:>9.3f}s {history:>7.3f}s",
            flush=True,
        )


if __name__ == "__main__":
    main()
