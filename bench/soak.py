"""What a long run costs as it goes: tuibench's RSS and the run's temporary files, sampled
every `--every` seconds of a real headless run against the demo nginx, closed loop and at a
fixed rate; then the session's size. The temporary directory is a fresh one (TMPDIR), so
what it holds is the run's alone; its size is what the files hold on disk (holes punched
out of the request log excluded), which is what fills a tmpfs.

    .venv/bin/python bench/soak.py [--duration 600] [--every 30] [--rate 20000]
"""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psutil

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench.common import TUIBENCH
from tui_bench.demo.background import running_demo_target

MIB = 1 << 20


def on_disk(root: Path) -> int:
    """What the files under `root` hold on their file system."""
    total = 0
    for folder, _, names in os.walk(root):
        for name in names:
            # A file the run removed between the listing and now.
            with contextlib.suppress(FileNotFoundError):
                total += os.stat(os.path.join(folder, name)).st_blocks * 512
    return total


def soak(label: str, args: list[str], duration: float, every: float) -> None:
    with tempfile.TemporaryDirectory() as temp, tempfile.TemporaryDirectory() as store:
        env = {**os.environ, "TMPDIR": temp, "TUIBENCH_SESSIONS": store}
        proc = subprocess.Popen(
            [*TUIBENCH, "run", "--headless", "-d", f"{duration:g}", *args],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env=env,
        )
        watched = psutil.Process(proc.pid)
        started = time.monotonic()
        readings: list[tuple[float, float, float]] = []
        peak_temp = 0
        next_at = every
        while proc.poll() is None:
            elapsed = time.monotonic() - started
            try:
                rss = watched.memory_info().rss
            except psutil.NoSuchProcess:
                break
            temp_bytes = on_disk(Path(temp))
            peak_temp = max(peak_temp, temp_bytes)
            if elapsed >= next_at:
                readings.append((elapsed, rss / MIB, temp_bytes / MIB))
                next_at += every
            time.sleep(0.5)
        sessions = list(Path(store).glob("*.json"))
        size = sessions[0].stat().st_size if sessions else 0
    print(f"\n{label}: {' '.join(args)}")
    print("     t s   RSS MiB   temp MiB")
    for t, rss, temp_mib in readings:
        print(f"{t:8.0f} {rss:9.1f} {temp_mib:10.2f}")
    # The slope of a least-squares line: RSS moves by a MiB or two either way as the C heap
    # is trimmed, so the ends alone say little.
    for since in (60, 600):
        after = [r for r in readings if r[0] >= since]
        if len(after) >= 3:
            slope = statistics.linear_regression([r[0] for r in after], [r[1] for r in after])
            print(f"RSS growth from {since // 60} min on: {slope.slope * 3600:+.1f} MiB/h")
    print(f"peak temporary files: {peak_temp / MIB:.2f} MiB; session: {size / 1024:.0f} KiB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--duration", type=float, default=600)
    parser.add_argument("--every", type=float, default=30)
    parser.add_argument("--rate", type=int, default=20000)
    parser.add_argument("--connections", type=int, default=10)
    parser.add_argument("--loops", default="closed,rate", help="closed, rate or both")
    args = parser.parse_args()
    loops = args.loops.split(",")
    with running_demo_target("nginx") as target:
        url = target.urls["h2c"]
        load = ["-c", str(args.connections), "-m", "10", url]
        if "closed" in loops:
            soak("closed loop", load, args.duration, args.every)
        if "rate" in loops:
            soak("fixed rate", ["--rate", str(args.rate), *load], args.duration, args.every)


if __name__ == "__main__":
    main()
