"""The flags of `tuibench capacity`: the run's options, the SLO, and how the search goes."""

from __future__ import annotations

import argparse

from tui_bench.analysis.names import DEFAULT_PRIMARY, DEFAULT_RESOLUTION, LOWEST_SHARE
from tui_bench.cli.arg_types import duration, percent, positive_int
from tui_bench.request.run import DEFAULT_STEP_S
from tui_bench.request.sweep_settings import DEFAULT_COOL_DOWN_S

CAPACITY_DESCRIPTION = f"""\
Finds the highest rate the server holds within the SLO (h2load, open loop), as Nighthawk's
adaptive load controller does: a closed-loop run at the run's connections measures the peak
first, then rates below it are tried, one step at a time: {LOWEST_SHARE:.0%} of the peak
first, then halving the interval between the highest rate held and the lowest not held
until it is within --resolution of its top. A step holds when it is valid (a rate not held
makes it invalid) and meets every clause of --slo, its latency counted from when each
request was due. Every step is kept as a point of ONE sweep session (compare, plot and
export read it), a step stopped or crashed included. On a terminal the search is shown live
(the step going, the bracket narrowing, the latency-throughput curve with the SLO; s stops
and keeps what ran); with --headless (or off a terminal) its progress goes to stderr. The
capacity, with the spread of its repeats, goes to stdout.

Exit status: 0 a capacity was found, 1 not even the lowest rate held (or the peak could
not be measured), 2 bad input (before any load), 130 stopped.
"""


def add_capacity_options(capacity: argparse.ArgumentParser) -> None:
    """Beside the run's options. A step is judged by the SLO alone: no thresholds, no
    baseline."""
    capacity.set_defaults(
        threshold=[],
        baseline=None,
        fail_on_regression=None,
        verdict=None,
        gate_metric=DEFAULT_PRIMARY,
        allow_setup_change=False,
    )
    capacity.add_argument("urls", nargs="+", metavar="URL")
    capacity.add_argument(
        "--slo", required=True, metavar="CLAUSES", help="what a step must meet: 'p99<20ms'"
    )
    capacity.add_argument(
        "--step-duration",
        type=duration,
        metavar="S",
        help=f"each step's run (default -d, else {DEFAULT_STEP_S:g} s; longer for a slow "
        "step, to give its p99 enough requests)",
    )
    capacity.add_argument(
        "--repeat", type=positive_int, default=1, metavar="N", help="runs of every step"
    )
    capacity.add_argument(
        "--resolution",
        type=percent,
        default=DEFAULT_RESOLUTION,
        metavar="PCT",
        help=f"stop within this of the capacity (default {DEFAULT_RESOLUTION * 100:g}%%)",
    )
    capacity.add_argument(
        "--cool-down",
        type=duration,
        default=DEFAULT_COOL_DOWN_S,
        metavar="S",
        help=f"pause between runs (default {DEFAULT_COOL_DOWN_S:g} s; 0 for none)",
    )
