"""How soon `tuibench` (no command: the home screen) shows its first frame and its newest
sessions.

The example sessions (sessions/) are copied into a temporary store ($TUIBENCH_SESSIONS, its
index in a temporary $XDG_CACHE_HOME) and `tuibench` is started in tmux (a private server,
WIDTHxHEIGHT) with `pipe-pane` copying what it writes to a file. Frame: from spawning tmux
until the written text holds the box title of the recent sessions; rows: until it holds the
newest session's name. Each one's first start (a tree's builds the index) is left out;
medians over --rounds are printed.

With --bare, a bare Textual app (bench/bare_app.py: one Static saying "Recent sessions" and a
Footer) is started the same way in the same alternating rounds: the toolkit's own floor (the
interpreter, Textual's import and first frame), printed beside tuibench's figures, and each
tree's frame as so much over it. The fastest start of each is printed too.

    .venv/bin/python bench/home_frame.py [--rounds 5] [--width 100] [--height 30] [--bare] \\
        [--tree before=../old-checkout --tree now=.]
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench.common import TUIBENCH_SCRIPT, Tmux, add_tree_option, median, tree_env, trees_of
from bench.tui_terminal import wait_first_frame
from tui_bench.storage.index import indexed_rows

EXAMPLES = Path(__file__).parents[1] / "sessions"
FRAME_MARK = b"Recent sessions"
BARE = "bare"
BARE_APP = [sys.executable, str(Path(__file__).with_name("bare_app.py"))]


def one_start(
    argv: list[str], env: dict[str, str], rows_mark: bytes, opts: argparse.Namespace, pipe: Path
) -> tuple[float, float]:
    spawned = time.monotonic()
    with Tmux(argv, width=opts.width, height=opts.height, env=env, pipe_to=pipe):
        _, to_frame = wait_first_frame(pipe, spawned, FRAME_MARK)
        _, to_rows = wait_first_frame(pipe, spawned, rows_mark)
    return to_frame, to_rows


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--width", type=int, default=100)
    parser.add_argument("--height", type=int, default=30)
    parser.add_argument(
        "--bare", action="store_true", help="also time a bare Textual app: the toolkit's floor"
    )
    add_tree_option(parser)
    opts = parser.parse_args()
    trees = trees_of(parser, opts.tree)
    if BARE in trees:
        parser.error(f"--tree {BARE}=... : that name is --bare's")
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        sessions = work / "sessions"
        sessions.mkdir()
        for path in EXAMPLES.glob("*.json"):
            shutil.copy(path, sessions)
        env = {
            "TUIBENCH_SESSIONS": str(sessions),
            "XDG_CACHE_HOME": str(work / "cache"),
            "XDG_CONFIG_HOME": str(work / "config"),
        }
        newest = indexed_rows(sessions, 1)[0].name.encode()

        def start(name: str, out: Path) -> tuple[float, float]:
            if name == BARE:
                # Its frame is all it has: its "rows" are the same text.
                return one_start(BARE_APP, env, FRAME_MARK, opts, out)
            return one_start([TUIBENCH_SCRIPT], env | tree_env(trees[name]), newest, opts, out)

        names = [*trees, *([BARE] if opts.bare else [])]
        # Left out: a tree's first start builds the index; every start has its files cached.
        for name in names:
            start(name, work / f"{name}-index.out")
        frames: dict[str, list[float]] = {name: [] for name in names}
        rows: dict[str, list[float]] = {name: [] for name in names}
        for round_no in range(opts.rounds):
            # Alternating order: neither tree always starts on the machine the other warmed.
            order = names if round_no % 2 == 0 else names[::-1]
            for name in order:
                to_frame, to_rows = start(name, work / f"{name}-{round_no}.out")
                frames[name].append(to_frame)
                rows[name].append(to_rows)
                print(
                    f"round {round_no + 1} [{name}]: frame {to_frame:.3f} s, rows {to_rows:.3f} s",
                    flush=True,
                )
    print(f"medians over {opts.rounds} starts, {opts.width}x{opts.height}:")
    # The fastest start too: on a shared machine, the nearest to what the program itself costs.
    floor = median(frames[BARE]) if opts.bare else None
    for name in trees:
        frame = median(frames[name])
        over = "" if floor is None else f", {frame - floor:+.3f} s over the floor"
        print(
            f"  [{name}] frame {frame:.3f} s (fastest {min(frames[name]):.3f} s{over}), "
            f"rows {median(rows[name]):.3f} s"
        )
    if floor is not None:
        print(
            f"  [{BARE}] frame {floor:.3f} s (fastest {min(frames[BARE]):.3f} s): "
            "a bare Textual app, the floor"
        )


if __name__ == "__main__":
    main()
