"""What typing in the run form costs: a URL typed into it key by key, as a user types it.

The app runs headless (Textual's test driver, no terminal) with the run form as its screen, at
each size asked for. Per keystroke it reports the CPU time the process spent (the key's
handling, the fields' checks, layout and painting: everything up to the next idle moment) and
how many layout passes of the whole screen it caused. Rounds alternate; medians are printed.

    .venv/bin/python bench/form_keys.py [--rounds 5] [--size 80x24] [--size 120x40]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from textual.screen import Screen

from tui_bench.ui.app import TuibenchApp
from tui_bench.ui.screens.run_form_screen import RunFormScreen

# Typed over the form's default URL: a scheme, a port, a path, then a query.
TYPED = "http://127.0.0.1:8080/api/items?page=2"


@dataclass(frozen=True)
class Figures:
    cpu_ms_per_key: float
    layouts_per_key: float


class LayoutCounter:
    """Counts Screen._refresh_layout calls, the layout pass of the whole screen."""

    def __init__(self) -> None:
        self.count = 0
        self._original: Callable[..., None] = Screen._refresh_layout

    def __enter__(self) -> LayoutCounter:
        original = self._original

        def counted(screen: Screen[Any], *args: Any, **kwargs: Any) -> None:
            self.count += 1
            original(screen, *args, **kwargs)

        Screen._refresh_layout = counted  # type: ignore[method-assign]
        return self

    def __exit__(self, *exc: object) -> None:
        Screen._refresh_layout = self._original  # type: ignore[method-assign]


async def one_round(size: tuple[int, int]) -> Figures:
    app = TuibenchApp(lambda app: RunFormScreen())
    async with app.run_test(size=size) as pilot:
        # Let the form settle: its first checks and the recent configs read in a thread.
        await app.workers.wait_for_complete()
        await pilot.pause(0.2)
        url = app.screen.query_one("#urls")
        url.focus()
        await pilot.press("ctrl+a", "backspace")
        await pilot.pause(0.2)
        with LayoutCounter() as layouts:
            cpu0 = time.process_time()
            for key in TYPED:
                await pilot.press(key)
            # The last key's checks and frame.
            await pilot.pause(0.1)
            cpu = time.process_time() - cpu0
        assert app.screen.query_one("#urls").value == TYPED  # type: ignore[attr-defined]
    return Figures(cpu * 1000 / len(TYPED), layouts.count / len(TYPED))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--size", action="append", help="WIDTHxHEIGHT (repeat; default 80x24)")
    opts = parser.parse_args()
    sizes = [tuple(int(n) for n in s.split("x")) for s in opts.size or ["80x24"]]
    results: dict[tuple[int, ...], list[Figures]] = {s: [] for s in sizes}
    with tempfile.TemporaryDirectory() as home:
        # Recent configs go to a fresh directory, never the user's.
        os.environ["XDG_CONFIG_HOME"] = home
        for round_no in range(opts.rounds):
            for size in sizes:
                width, height = size
                figures = asyncio.run(one_round((width, height)))
                results[size].append(figures)
                print(
                    f"round {round_no + 1} {width}x{height}: "
                    f"{figures.cpu_ms_per_key:6.1f} ms CPU a key, "
                    f"{figures.layouts_per_key:4.2f} layout passes a key",
                    flush=True,
                )
    print(f"\nmedians over {opts.rounds} rounds, {len(TYPED)} keys typed:")
    for (width, height), runs in results.items():
        cpu = statistics.median(f.cpu_ms_per_key for f in runs)
        layouts = statistics.median(f.layouts_per_key for f in runs)
        print(f"  {width}x{height}: {cpu:6.1f} ms CPU a key, {layouts:4.2f} layout passes a key")


if __name__ == "__main__":
    main()
