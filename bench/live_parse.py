"""What reading the tools' live output costs: every line of h2load's and wrk's output goes
through `parse_live_line`, most of them matching nothing. Prints the median time per call
over a mix of lines that match and lines that do not; the goal is well under 10 µs a call
(a line each millisecond at most, from the busiest tool).

    .venv/bin/python bench/live_parse.py
    .venv/bin/python bench/live_parse.py --rounds 9
"""

from __future__ import annotations

import argparse
import time
from statistics import median

from tui_bench.parsers.live import parse_live_line

LINES = [
    "progress: 30% done",
    "tuibench-live 0 12345",
    "Completed 1000 requests",
    "some other line of output that matches nothing at all",
] * 25_000
GOAL_S = 10e-6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    rounds = parser.parse_args().rounds
    per_call: list[float] = []
    for _ in range(rounds):
        start = time.perf_counter()
        for line in LINES:
            parse_live_line("h2load", line)
            parse_live_line("wrk", line)
        per_call.append((time.perf_counter() - start) / (2 * len(LINES)))
    took = median(per_call)
    verdict = "within" if took < GOAL_S else "OVER"
    print(
        f"parse_live_line: {took * 1e6:.2f} µs a call, median of {rounds} rounds "
        f"({verdict} the goal of {GOAL_S * 1e6:g} µs)"
    )


if __name__ == "__main__":
    main()
