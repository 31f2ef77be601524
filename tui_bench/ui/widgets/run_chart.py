"""The one big chart: req/s and p99 over the run, drawn by plotext."""

from __future__ import annotations

from collections.abc import Sequence

from textual_plotext import PlotextPlot

from tui_bench.engine.live_state import LiveState


def thin(values: Sequence[float], most: int) -> list[float]:
    """Every k-th value so that at most `most` remain: a chart needs ~2 points per cell."""
    step = max(1, -(-len(values) // max(most, 1)))
    # Counted back from the last value, so a chart always reaches the end of the run.
    return list(values[(len(values) - 1) % step :: step])


class RunChart(PlotextPlot):
    DEFAULT_CSS = """
    RunChart { height: 2fr; min-height: 8; border: round $primary-darken-1; }
    """

    def show(self, state: LiveState) -> None:
        rows = [r for r in state.rows if r.get("rps") is not None]
        most = 2 * max(self.size.width, 1)
        seconds = thin([float(r["t_s"]) for r in rows], most)
        plt = self.plt
        plt.clear_data()
        plt.title("req/s and p99 (ms)")
        if seconds:
            plt.plot(seconds, thin([float(r["rps"]) for r in rows], most), label="req/s")
            p99 = [r for r in rows if r.get("p99_s") is not None]
            if p99:
                plt.plot(
                    thin([float(r["t_s"]) for r in p99], most),
                    thin([r["p99_s"] * 1e3 for r in p99], most),
                    label="p99 ms",
                    yside="right",
                )
        self.refresh()
