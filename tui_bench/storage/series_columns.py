"""The per-second series' columns, as every view and export names them, and when a row's
window ends."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

# Percentiles of the whole run up to the end of each second, in the series' rows; only runs
# with a request log (h2load) have them.
OVERALL_PERCENTILES = (50, 90, 99)
OVERALL_LATENCY_KEYS = tuple(f"p{q}_s" for q in OVERALL_PERCENTILES)

# Columns of the per-interval series, in export order; the CSV header is this list.
SERIES_COLUMNS = (
    "t_s",
    # How long the row's window is (the last one is usually cut short) and how many
    # requests completed in it; rps and good_rps are per real second of it.
    "window_s",
    "requests",
    "rps",
    "good_rps",
    "errors",
    "2xx",
    "3xx",
    "4xx",
    "5xx",
    "n",
    "p50_s",
    "p90_s",
    "p99_s",
    "max_s",
    # A fixed-rate run's (`spec.rate`): p50_s ... max_s are then from when each request
    # was due; these are the requests sent per second, those due but not yet sent at the
    # window's end, and the percentiles from the send.
    "achieved_rps",
    "backlog",
    "service_p50_s",
    "service_p99_s",
    "server_cpu_pct",
    "server_rss_bytes",
    "server_procs",
    "system_cpu_pct",
    "client_cpu_pct",
    "client_thread_max_pct",
    *(f"overall_{key}" for key in OVERALL_LATENCY_KEYS),
)
# A window shorter than this is not drawn or printed on its own: a rate over a few
# milliseconds is noise. Its requests count all the same.
MIN_SHOWN_WINDOW_S = 0.25


def window_end(row: Mapping[str, Any]) -> float:
    """When a row's window ends, in seconds into the run: 1 for the first second, 3.5 for a
    last half second (a row saved before windows were kept is a whole second)."""
    return float(row["t_s"]) + float(row.get("window_s") or 1.0)


def shown_window(row: Mapping[str, Any]) -> bool:
    return float(row.get("window_s") or 1.0) >= MIN_SHOWN_WINDOW_S


# The row column of each whole-run percentile, by its key.
OVERALL_LATENCY_COLUMNS = {key: f"overall_{key}" for key in OVERALL_LATENCY_KEYS}
