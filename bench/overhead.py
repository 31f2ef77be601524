"""Observer overhead: req/s of tuibench over bare h2load, same arguments.

By default tuibench runs headless (`tuibench run --headless`); with `--live` it runs with its
live screen inside tmux at 120x40 (a private tmux server) and its req/s is read from the
session it saved. Runs alternate (bare, tuibench, tuibench, bare, ...) so drift on a shared
machine hits both sides alike; the figure is the median of the per-pair ratios. A pair with a
run whose figures cannot be compared (invalid, failed requests, nothing reported) is printed
with the reason and left out of the median.

    .venv/bin/python bench/overhead.py [--live] [--pairs 7] [--duration 5] \\
        [--load '-c 16 -m 10 -t 1'] [--width 120 --height 40] [--variant='--basic'] \\
        [--tree before=../old-checkout --tree now=.]

With `--tree`, each source tree named runs in every pair beside the same bare run.
"""

from __future__ import annotations

import argparse
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from functools import partial
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench.common import (
    TUIBENCH_SCRIPT,
    RunLeftOut,
    Tmux,
    add_tree_option,
    finish_live_run,
    median,
    session_rps,
    tree_env,
    trees_of,
    tuibench_json,
)
from tui_bench.demo.background import running_demo_target
from tui_bench.parsers import ParseError
from tui_bench.parsers.h2load import parse


def bare_rps(args: list[str]) -> float:
    h2load = shutil.which("h2load") or "h2load"
    # In a session of its own, as tuibench runs in tmux: where the kernel groups scheduling
    # by session (autogroup), each competes with the server as a group of its own.
    proc = subprocess.run(
        [h2load, *args], capture_output=True, text=True, check=False, start_new_session=True
    )
    try:
        result = parse(proc.stdout)
    except ParseError:
        result = None
    if proc.returncode != 0 or result is None or result.rps is None:
        said = (proc.stderr or proc.stdout).strip().splitlines()
        raise RunLeftOut(f"h2load exit {proc.returncode}: {said[-1] if said else 'no summary'}")
    if result.requests.failed:
        raise RunLeftOut(f"h2load: {result.requests.failed:,} requests failed")
    return result.rps


def headless_rps(args: list[str], opts: argparse.Namespace, tree: str | None) -> float:
    rps: float = tuibench_json(args, tree)["rps"]
    return rps


def live_rps(args: list[str], opts: argparse.Namespace, tree: str | None) -> float:
    with tempfile.TemporaryDirectory() as sessions:
        env = {"TUIBENCH_SESSIONS": sessions, "COLORTERM": "truecolor", **tree_env(tree)}
        argv = [TUIBENCH_SCRIPT, "run", *args]
        with Tmux(argv, width=opts.width, height=opts.height, env=env) as tmux:
            return session_rps(finish_live_run(tmux, Path(sessions)))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--pairs", type=int, default=7)
    parser.add_argument("--duration", type=float, default=5)
    parser.add_argument("--load", default="-c 16 -m 10 -t 1", help="h2load's shape options")
    parser.add_argument("--live", action="store_true", help="tuibench with its live screen")
    parser.add_argument("--width", type=int, default=120, help="the live screen's columns")
    parser.add_argument("--height", type=int, default=40, help="the live screen's rows")
    parser.add_argument("--variant", default="", help="extra tuibench options, e.g. '--basic'")
    add_tree_option(parser)
    opts = parser.parse_args()
    trees = trees_of(parser, opts.tree)
    observed, label = (live_rps, "live TUI") if opts.live else (headless_rps, "tuibench")
    labels = {name: label if len(trees) == 1 else f"{label} [{name}]" for name in trees}
    with running_demo_target() as target, tempfile.TemporaryDirectory() as store:
        os.environ["TUIBENCH_SESSIONS"] = store
        url = target.urls["h2c"]
        load = shlex.split(opts.load)
        # h2load takes whole units: 2.5 s is 2500ms.
        bare_args = [*load, "-D", f"{round(opts.duration * 1000)}ms", url]
        tui_args = [*load, *shlex.split(opts.variant), "-d", f"{opts.duration:g}", url]
        ratios: dict[str, list[float]] = {name: [] for name in trees}
        for pair in range(opts.pairs):
            runs: dict[str, Callable[[], float]] = {"bare": lambda: bare_rps(bare_args)}
            for name, tree in trees.items():
                runs[labels[name]] = partial(observed, tui_args, opts, tree)
            order = list(runs) if pair % 2 == 0 else list(reversed(runs))
            rps: dict[str, float] = {}
            for side in order:
                try:
                    rps[side] = runs[side]()
                except RunLeftOut as exc:
                    print(f"pair {pair + 1}: {side} run left out ({exc})", flush=True)
                    break
            else:
                shown = [f"bare {rps['bare']:,.0f} req/s"]
                for name in trees:
                    ratios[name].append(rps[labels[name]] / rps["bare"])
                    shown.append(
                        f"{labels[name]} {rps[labels[name]]:,.0f} req/s "
                        f"ratio {ratios[name][-1]:.3f}"
                    )
                print(f"pair {pair + 1}: " + "  ".join(shown), flush=True)
        for name, got in ratios.items():
            if not got:
                print(f"no pair of {opts.pairs} gave usable runs of {labels[name]}")
                continue
            print(
                f"median ratio {labels[name]}/bare over {len(got)} pairs: {median(got):.3f} "
                f"(per pair {min(got):.3f}–{max(got):.3f})"
            )


if __name__ == "__main__":
    main()
