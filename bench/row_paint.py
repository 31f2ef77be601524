"""What painting a row of the live screen costs: a row of the big chart (braille in three
colours) and a sparkline's row, made by Textual's general path for text and made straight
from their segments (`text_rows`), side by side in one process (headless app,
`App.run_test`), rounds alternating; medians printed.

    .venv/bin/python bench/row_paint.py [--rounds 5] [--repeat 500] [--width 110]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
import time
from collections.abc import Callable

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from rich.text import Text
from textual.app import App, ComposeResult
from textual.visual import Visual, visualize
from textual.widget import Widget
from textual.widgets import Static

from bench.common import median
from tui_bench.ui.widgets.text_rows import text_row
from tui_bench.ui.widgets.zero_sparkline import ZeroSparkline

BRAILLE = "⠁⠂⠄⡀⢀⠠⠐⠈"
COLOURS = ("#4ea1ff", "#f0a030", "#808080")


def chart_row(width: int) -> Text:
    """A row of a chart as plotext draws it: runs of braille cells in a few colours."""
    row = Text()
    for _ in range(width // 2):
        row.append(random.choice(BRAILLE) * 2, random.choice(COLOURS))
    return row


class Bench(App[None]):
    def compose(self) -> ComposeResult:
        yield Static()
        yield ZeroSparkline([random.uniform(0, 1000) for _ in range(120)])


def timed(repeat: int, paint: Callable[[], object]) -> float:
    start = time.perf_counter()
    for _ in range(repeat):
        paint()
    return (time.perf_counter() - start) / repeat * 1e6


async def measure(opts: argparse.Namespace) -> dict[str, list[float]]:
    figures: dict[str, list[float]] = {}
    app = Bench()
    async with app.run_test(size=(opts.width, 12)) as pilot:
        static, spark = app.query_one(Static), app.query_one(ZeroSparkline)
        row = chart_row(opts.width)
        await pilot.pause()

        def textual_row() -> None:
            Visual.to_strips(static, visualize(static, row), opts.width, 1, static.visual_style)

        def textual_spark() -> None:
            spark.refresh()
            Widget.render_line(spark, 0)

        cases = {
            "chart row, Textual's path": textual_row,
            "chart row, straight": lambda: text_row(static, row),
            "sparkline row, Textual's path": textual_spark,
            "sparkline row, straight": lambda: spark.render_line(0),
        }
        for _ in range(opts.rounds):
            for name, paint in cases.items():
                figures.setdefault(name, []).append(timed(opts.repeat, paint))
    return figures


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=500)
    parser.add_argument("--width", type=int, default=110)
    opts = parser.parse_args()
    random.seed(1)
    figures = asyncio.run(measure(opts))
    print(f"medians over {opts.rounds} rounds of {opts.repeat}, {opts.width} columns:")
    for name, values in figures.items():
        print(f"  {name:36} {median(values):8.1f} µs")


if __name__ == "__main__":
    main()
