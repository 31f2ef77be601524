"""The one big chart: req/s and p99 over the run, drawn by plotext."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import cast

from textual_plotext import PlotextPlot

from tui_bench.engine.live_state import LiveState
from tui_bench.storage.session import shown_window, window_end

# The legend, in the border (plotext's own would cover the first seconds): each line has
# its own marker and says its axis in words, not told apart by colour alone.
LEGEND = "• req/s (left axis)   x p99 ms (right axis)"


def thin(values: Sequence[float], most: int) -> list[float]:
    """Every k-th value so that at most `most` remain: a chart needs ~2 points per cell."""
    step = max(1, -(-len(values) // max(most, 1)))
    # Counted back from the last value, so a chart always reaches the end of the run.
    return list(values[(len(values) - 1) % step :: step])


class RunChart(PlotextPlot):
    DEFAULT_CSS = """
    RunChart { height: 2fr; min-height: 8; border: round $primary-darken-1; }
    """

    def on_mount(self) -> None:
        self.border_subtitle = LEGEND

    def show(self, state: LiveState) -> None:
        rows = [r for r in state.rows if r.get("rps") is not None and shown_window(r)]
        most = 2 * max(self.size.width, 1)
        plt = self.plt
        plt.clear_data()
        plt.title("req/s and p99 over the run (s)")
        if not rows:
            self.refresh()
            return
        seconds = thin([window_end(r) for r in rows], most)
        rps = thin([float(r["rps"]) for r in rows], most)
        plt.plot(seconds, rps, marker="•")
        # From the start of the run, and room above the highest point: a single point (or a
        # flat line) is not drawn on the frame's edge.
        plt.xlim(0, max(seconds[-1], 1.0))
        # plotext's own hints type `yside` as a number; it takes "left" or "right".
        ylim = cast(Callable[..., None], plt.ylim)
        ylim(0, max(rps) * 1.1 or 1.0, yside="left")
        p99 = [r for r in rows if r.get("p99_s") is not None]
        if p99:
            ms = thin([r["p99_s"] * 1e3 for r in p99], most)
            plt.plot(
                thin([window_end(r) for r in p99], most),
                ms,
                marker="x",
                yside="right",
            )
            ylim(0, max(ms) * 1.1 or 1.0, yside="right")
        self.refresh()
