"""tuibench's peak RSS over long h2load runs: it must stay flat in run length.

Polls the RSS of the tuibench process (not h2load's, which grows with the request count)
every 0.2 s during runs of 1 million and 10 million requests.

    .venv/bin/python bench/peak_rss.py [--requests 1000000 10000000]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time

import psutil

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench.common import TUIBENCH
from tui_bench.demo.background import running_demo_target


def peak_rss(args: list[str]) -> tuple[int, float]:
    started = time.monotonic()
    proc = subprocess.Popen(
        [*TUIBENCH, "run", "--headless", *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    watched = psutil.Process(proc.pid)
    peak = 0
    while proc.poll() is None:
        try:
            peak = max(peak, watched.memory_info().rss)
        except psutil.NoSuchProcess:
            break
        time.sleep(0.2)
    if proc.returncode != 0:
        raise SystemExit(f"tuibench exited with {proc.returncode}")
    return peak, time.monotonic() - started


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, nargs="+", default=[1_000_000, 10_000_000])
    opts = parser.parse_args()
    with running_demo_target() as target, tempfile.TemporaryDirectory() as store:
        os.environ["TUIBENCH_SESSIONS"] = store
        for count in opts.requests:
            peak, took = peak_rss(["-n", str(count), "-c", "16", "-m", "10", target.urls["h2c"]])
            print(
                f"{count:>11,} requests in {took:6.1f} s: tuibench peak RSS {peak / 2**20:.1f} MiB"
            )


if __name__ == "__main__":
    main()
