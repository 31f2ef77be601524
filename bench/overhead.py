"""Observer overhead: req/s of `tuibench run --headless` over bare h2load, same arguments.

Runs alternate (bare, tuibench, tuibench, bare, ...) so drift on a shared machine hits
both sides alike; the figure is the median of the per-pair ratios.

    .venv/bin/python bench/overhead.py [--pairs 7] [--duration 5]
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench.common import median, tuibench_json
from tui_bench.demo.background import running_demo_target
from tui_bench.parsers.h2load import parse


def bare_rps(args: list[str]) -> float:
    h2load = shutil.which("h2load") or "h2load"
    out = subprocess.run([h2load, *args], capture_output=True, text=True, check=True).stdout
    rps = parse(out).rps
    assert rps is not None
    return rps


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--pairs", type=int, default=7)
    parser.add_argument("--duration", type=int, default=5)
    opts = parser.parse_args()
    with running_demo_target() as target, tempfile.TemporaryDirectory() as store:
        os.environ["TUIBENCH_SESSIONS"] = store
        url = target.urls["h2c"]
        common = ["-c", "16", "-m", "10", "-t", "1"]
        bare_args = [*common, "-D", str(opts.duration), url]
        tui_args = [*common, "-d", str(opts.duration), url]
        ratios = []
        for pair in range(opts.pairs):
            if pair % 2 == 0:
                bare = bare_rps(bare_args)
                tui = tuibench_json(tui_args)["rps"]
            else:
                tui = tuibench_json(tui_args)["rps"]
                bare = bare_rps(bare_args)
            ratios.append(tui / bare)
            print(
                f"pair {pair + 1}: bare {bare:,.0f} req/s  tuibench {tui:,.0f} req/s  "
                f"ratio {tui / bare:.3f}"
            )
        print(f"median ratio tuibench/bare over {opts.pairs} pairs: {median(ratios):.3f}")


if __name__ == "__main__":
    main()
