"""What the live screen costs a terminal: bytes written per second, the tuibench process's
CPU, and the time from start to the first frame.

`tuibench run` runs against the demo nginx inside tmux (a private server, WIDTHxHEIGHT,
COLORTERM=truecolor: the longest colour codes) with `pipe-pane` copying everything the program
writes to a file. Over the steady middle of each run (from 3 s after the first frame to 2 s
before the end) it measures the file's growth and the process's CPU time (all its threads:
painting, log ingest, sampling). Start to first frame is the time from spawning tmux until
the written text holds the header (the tool's name, shown while the run is prepared); to the
live screen, until the run's own header (`elapsed`) is up; to the first figure, until a
number of req/s is on the screen. Variants (extra `tuibench run` options)
alternate round by round; medians per variant are printed. `--variant=--headless` measures
the same without the screen (its "first frame" is its first progress line): the difference
in CPU is what painting costs. `--by-row` prints where each variant's bytes went, by screen row
(the byte stream cut at its cursor moves), over the steady window of its last run. A run whose
figures cannot be used (invalid, nothing saved) is printed with the reason and left out.

    .venv/bin/python bench/tui_terminal.py [--rounds 5] [--duration 15] \\
        [--load '-t 2 -c 16 -m 100'] [--variant=] [--variant='--fps 10'] [--keep DIR] [--by-row] \\
        [--tree before=../old-checkout --tree now=.]
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import sys
import tempfile
import time
from dataclasses import dataclass, fields
from pathlib import Path

import psutil

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench.common import (
    TUIBENCH_SCRIPT,
    RunLeftOut,
    Tmux,
    add_tree_option,
    finish_live_run,
    median,
    saved_session,
    session_rps,
    tree_env,
    trees_of,
)
from tui_bench.demo.background import running_demo_target

# Escape sequences (CSI, OSC, two-byte) between the characters of the written text.
ESCAPES = re.compile(rb"\x1b(\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|[@-Z\\-_])")
# A cursor move to a row (and column): where the bytes after it are painted.
MOVE_TO = re.compile(rb"\x1b\[(\d+)(?:;\d+)?H")
WARM_S = 3.0
TAIL_S = 2.0
FAST_POLL_S = 0.005
# The header's first word: painted by the first frame, which says what runs while the run
# is prepared.
HEADER_MARK = b"h2load"
# In the live screen's header, once the run is prepared and its screen is up.
LIVE_MARK = b"elapsed"
# In a headless run's first progress line.
PROGRESS_MARK = b"req/s"
# A figure of requests per second on the screen: the run's first (`so far`, or `now`).
FIGURE_MARK = re.compile(rb"\d req/s")


@dataclass(frozen=True)
class Figures:
    first_byte_s: float
    first_frame_s: float
    live_screen_s: float
    first_figure_s: float
    bytes_per_s: float
    cpu_pct: float
    rps: float


@dataclass(frozen=True)
class Run:
    figures: Figures
    # Bytes per second by screen row (1-based) over the steady window; 0: before any move.
    by_row: dict[int, float]


def bytes_by_row(stream: bytes) -> dict[int, int]:
    """The bytes of `stream` by the screen row the cursor was last moved to."""
    rows: dict[int, int] = {}
    row, start = 0, 0
    for move in MOVE_TO.finditer(stream):
        rows[row] = rows.get(row, 0) + move.start() - start
        row, start = int(move.group(1)), move.start()
    rows[row] = rows.get(row, 0) + len(stream) - start
    return rows


def visible(stream: bytes) -> bytes:
    return ESCAPES.sub(b"", stream)


def wait_first_frame(
    pipe: Path, spawned: float, mark: bytes | re.Pattern[bytes], timeout_s: float = 30
) -> tuple[float, float]:
    """Seconds from spawn to the first byte written, and to the first text holding `mark`."""
    deadline = spawned + timeout_s
    to_first_byte: float | None = None
    found = mark.search if isinstance(mark, re.Pattern) else lambda text: mark in text
    while time.monotonic() < deadline:
        written = pipe.read_bytes() if pipe.exists() else b""
        now = time.monotonic() - spawned
        if written and to_first_byte is None:
            to_first_byte = now
        if found(visible(written)):
            return to_first_byte or now, now
        time.sleep(FAST_POLL_S)
    raise RuntimeError(f"no {mark!r} on the screen after {timeout_s:g} s")


def one_run(
    url: str,
    load: list[str],
    variant: list[str],
    opts: argparse.Namespace,
    work: Path,
    tree: str | None = None,
) -> Run:
    """`tree`: a source tree of tuibench to run instead of the installed one."""
    sessions = work / "sessions"
    pipe = work / "terminal.out"
    argv = [TUIBENCH_SCRIPT, "run", "-d", str(opts.duration), *load, *variant, url]
    env = {"TUIBENCH_SESSIONS": str(sessions), "COLORTERM": "truecolor", **tree_env(tree)}
    headless = "--headless" in variant
    spawned = time.monotonic()
    with Tmux(argv, width=opts.width, height=opts.height, env=env, pipe_to=pipe) as tmux:
        mark = PROGRESS_MARK if headless else HEADER_MARK
        to_first_byte, to_frame = wait_first_frame(pipe, spawned, mark)
        _, to_live = wait_first_frame(pipe, spawned, mark if headless else LIVE_MARK)
        _, to_figure = wait_first_frame(pipe, spawned, FIGURE_MARK)
        process = psutil.Process(tmux.pid)
        window_start = spawned + to_frame + WARM_S
        window_end = spawned + to_frame + opts.duration - TAIL_S
        time.sleep(max(0.0, window_start - time.monotonic()))
        size0, cpu0, t0 = pipe.stat().st_size, process.cpu_times(), time.monotonic()
        time.sleep(max(0.0, window_end - time.monotonic()))
        size1, cpu1, t1 = pipe.stat().st_size, process.cpu_times(), time.monotonic()
        if headless:
            tmux.wait_exit(60)
            session = saved_session(sessions)
        else:
            session = finish_live_run(tmux, sessions)
    busy = (cpu1.user - cpu0.user) + (cpu1.system - cpu0.system)
    figures = Figures(
        first_byte_s=to_first_byte,
        first_frame_s=to_frame,
        live_screen_s=to_live,
        first_figure_s=to_figure,
        bytes_per_s=(size1 - size0) / (t1 - t0),
        cpu_pct=100 * busy / (t1 - t0),
        rps=session_rps(session),
    )
    steady = pipe.read_bytes()[size0:size1]
    return Run(figures, {row: n / (t1 - t0) for row, n in bytes_by_row(steady).items()})


def describe(figures: Figures) -> str:
    return (
        f"first byte {figures.first_byte_s * 1000:5.0f} ms  "
        f"first frame {figures.first_frame_s * 1000:5.0f} ms  "
        f"live screen {figures.live_screen_s * 1000:5.0f} ms  "
        f"first req/s {figures.first_figure_s * 1000:5.0f} ms  "
        f"{figures.bytes_per_s / 1000:6.1f} KB/s  cpu {figures.cpu_pct:5.1f} %  "
        f"{figures.rps:9,.0f} req/s"
    )


def label(key: tuple[str, str], trees: int) -> str:
    tree, variant = key
    shown = variant or "default"
    return f"{tree} {shown}" if trees > 1 else shown


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--duration", type=int, default=15)
    parser.add_argument("--width", type=int, default=120)
    parser.add_argument("--height", type=int, default=40)
    # The h2load shape that reached the highest req/s on the development machine.
    parser.add_argument("--load", default="-t 2 -c 16 -m 100")
    parser.add_argument(
        "--variant",
        action="append",
        help="extra tuibench options, e.g. '--fps 10' (repeat; default: none)",
    )
    parser.add_argument("--keep", type=Path, help="keep each run's terminal output here")
    parser.add_argument("--by-row", action="store_true", help="where the bytes went, by row")
    add_tree_option(parser)
    opts = parser.parse_args()
    if opts.duration <= WARM_S + TAIL_S + 1:
        parser.error(f"--duration must exceed {WARM_S + TAIL_S + 1:g} s")
    plain = trees_of(parser, opts.tree)
    variants = [(tree, variant) for tree in plain for variant in (opts.variant or [""])]
    load = shlex.split(opts.load)

    results: dict[tuple[str, str], list[Figures]] = {v: [] for v in variants}
    last: dict[tuple[str, str], Run] = {}
    with running_demo_target() as target:
        url = target.urls["h2c"]
        for round_no in range(opts.rounds):
            # Alternating order: neither tree always runs on the machine the other warmed.
            for key in variants if round_no % 2 == 0 else variants[::-1]:
                tree, variant = key
                name = label(key, len(plain))
                with tempfile.TemporaryDirectory() as work:
                    try:
                        run = one_run(
                            url, load, shlex.split(variant), opts, Path(work), plain[tree]
                        )
                    except RunLeftOut as exc:
                        print(f"round {round_no + 1} [{name}] left out: {exc}", flush=True)
                        continue
                    finally:
                        if opts.keep and (Path(work) / "terminal.out").exists():
                            opts.keep.mkdir(parents=True, exist_ok=True)
                            kept = f"{round_no + 1}-{name.strip('-').replace(' ', '_')}.out"
                            (Path(work) / "terminal.out").rename(opts.keep / kept)
                results[key].append(run.figures)
                last[key] = run
                print(f"round {round_no + 1} [{name}] {describe(run.figures)}", flush=True)
    print(f"\nmedians over {opts.rounds} rounds, {opts.width}x{opts.height}, load {opts.load}:")
    for key, runs in results.items():
        if not runs:
            print(f"  [{label(key, len(plain))}] no usable run")
            continue
        med = Figures(
            *(median([getattr(f, field.name) for f in runs]) for field in fields(Figures))
        )
        print(f"  [{label(key, len(plain))}] {describe(med)} ({len(runs)} runs)")
    if opts.by_row:
        for key, run in last.items():
            print(f"\nbytes by screen row, [{label(key, len(plain))}], its last run (KB/s):")
            for row, rate in sorted(run.by_row.items()):
                print(f"  row {row:3d}: {rate / 1000:6.2f}")


if __name__ == "__main__":
    main()
