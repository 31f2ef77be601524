"""Observer overhead: req/s of tuibench over bare h2load, same arguments.

By default tuibench runs headless (`tuibench run --headless`); with `--live` it runs with its
live screen inside tmux at 120x40 (a private tmux server) and its req/s is read from the
session it saved. Runs alternate (bare, tuibench, tuibench, bare, ...) so drift on a shared
machine hits both sides alike; the figure is the median of the per-pair ratios.

    .venv/bin/python bench/overhead.py [--live] [--pairs 7] [--duration 5] \\
        [--load '-c 16 -m 10 -t 1']
"""

from __future__ import annotations

import argparse
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench.common import TUIBENCH_SCRIPT, Tmux, finish_live_run, median, tuibench_json
from tui_bench.demo.background import running_demo_target
from tui_bench.parsers.h2load import parse

LIVE_WIDTH, LIVE_HEIGHT = 120, 40


def bare_rps(args: list[str]) -> float:
    h2load = shutil.which("h2load") or "h2load"
    out = subprocess.run([h2load, *args], capture_output=True, text=True, check=True).stdout
    rps = parse(out).rps
    assert rps is not None
    return rps


def headless_rps(args: list[str]) -> float:
    rps: float = tuibench_json(args)["rps"]
    return rps


def live_rps(args: list[str]) -> float:
    with tempfile.TemporaryDirectory() as sessions:
        env = {"TUIBENCH_SESSIONS": sessions, "COLORTERM": "truecolor"}
        argv = [TUIBENCH_SCRIPT, "run", *args]
        with Tmux(argv, width=LIVE_WIDTH, height=LIVE_HEIGHT, env=env) as tmux:
            result = finish_live_run(tmux, Path(sessions)).result
    assert result is not None and result.rps is not None
    return result.rps


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--pairs", type=int, default=7)
    parser.add_argument("--duration", type=int, default=5)
    parser.add_argument("--load", default="-c 16 -m 10 -t 1", help="h2load's shape options")
    parser.add_argument("--live", action="store_true", help="tuibench with its live screen")
    opts = parser.parse_args()
    observed, label = (live_rps, "live TUI") if opts.live else (headless_rps, "tuibench")
    with running_demo_target() as target, tempfile.TemporaryDirectory() as store:
        os.environ["TUIBENCH_SESSIONS"] = store
        url = target.urls["h2c"]
        load = shlex.split(opts.load)
        bare_args = [*load, "-D", str(opts.duration), url]
        tui_args = [*load, "-d", str(opts.duration), url]
        ratios = []
        for pair in range(opts.pairs):
            if pair % 2 == 0:
                bare = bare_rps(bare_args)
                tui = observed(tui_args)
            else:
                tui = observed(tui_args)
                bare = bare_rps(bare_args)
            ratios.append(tui / bare)
            print(
                f"pair {pair + 1}: bare {bare:,.0f} req/s  {label} {tui:,.0f} req/s  "
                f"ratio {tui / bare:.3f}",
                flush=True,
            )
        print(f"median ratio {label}/bare over {opts.pairs} pairs: {median(ratios):.3f}")


if __name__ == "__main__":
    main()
