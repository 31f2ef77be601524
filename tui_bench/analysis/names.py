"""The analysis' names and defaults that the command line offers (choices, defaults, help):
plain data importing nothing, so that reading the flags loads no statistics, no session and
no engine. The modules that compute with them take them from here."""

from __future__ import annotations

from typing import Literal

# What a verdict rests on: "tested" (a rank test over MIN_RUNS runs a side or more), or
# "likely" (fewer runs: every run of one side beyond every run of the other, by a margin
# that run-to-run noise rarely reaches; that noise itself is not measured).
Tier = Literal["tested", "likely"]
TIERS: tuple[Tier, ...] = ("tested", "likely")
DEFAULT_TOLERANCE_PCT = 5.0

# The catalogue of metrics a comparison reads (analysis/compare.py), in its order.
COMPARED = (
    "rps",
    "good_rps",
    "p50_s",
    "p90_s",
    "p99_s",
    "max_s",
    "mean_s",
    "error_rate",
    "bytes_per_s",
    "server_cpu_pct",
    "server_rss_max_bytes",
    "client_cpu_pct",
)
# The metrics tested: what a tuning decision rests on. The other catalogue metrics are
# shown with their plain delta but not tested, so they do not dilute the correction.
TESTED = ("rps", "p50_s", "p90_s", "p99_s", "error_rate", "server_cpu_pct")
DEFAULT_PRIMARY = "rps"

# What `tuibench plot --metric` draws (analysis/sweep_charts.py), and by default.
CHARTED = ("rps", "p50", "p90", "p99", "p99.9", "max", "cpu", "client_cpu", "errors")
SWEEP_METRICS = ("rps", "p50", "p99", "max", "cpu")
RUN_METRICS = ("rps", "p99")
# The latency-throughput chart as --metric names it.
CURVE = "latency-rps"

# The capacity search (analysis/capacity.py): the lowest rate tried, as a share of the
# closed-loop peak, and how close to the capacity it stops.
LOWEST_SHARE = 0.1
DEFAULT_RESOLUTION = 0.05
