"""What giving back the read part of a request log costs: the time of one punch of STEP
(4 MiB, about 160,000 requests of h2load's log) against the time to read and parse those
4 MiB, in the system temporary directory's file system. Medians of `--rounds`.

    .venv/bin/python bench/punch_cost.py [--rounds 20]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from tui_bench.engine.file_holes import STEP, punch_hole
from tui_bench.engine.log_ingest import LogIngest

LINE = b"1732780800123456\t200\t1234\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=20)
    args = parser.parse_args()
    block = LINE * (STEP // len(LINE))
    punches, parses = [], []
    with tempfile.NamedTemporaryFile() as log:
        for _ in range(args.rounds):
            log.seek(0)
            log.write(block)
            log.flush()
            os.fsync(log.fileno())
            started = time.perf_counter()
            LogIngest(1732780800000000).feed(block)
            parses.append(time.perf_counter() - started)
            started = time.perf_counter()
            assert punch_hole(log.fileno(), 0, len(block))
            punches.append(time.perf_counter() - started)
    punch, parse = statistics.median(punches), statistics.median(parses)
    print(f"one punch of {STEP >> 20} MiB: {punch * 1e6:.0f} µs (median of {args.rounds})")
    print(f"reading those {len(block) // len(LINE):,} requests: {parse * 1e3:.1f} ms")
    print(f"the punch costs {punch / parse:.2%} of the reading")


if __name__ == "__main__":
    main()
