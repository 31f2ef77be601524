"""The formats a session is exported in: plain data, so that the command line offers them
without loading the exporters."""

# `minutes`: one CSV row per whole minute of a run, its percentiles from that minute's
# histogram (a run whose tool keeps a request log: h2load).
# `segments`: one CSV row per segment of a run (a steered run's loads, one for the others).
# `openmetrics`: every second's figures as Prometheus' text format, for
# `promtool tsdb create-blocks-from openmetrics` (a sweep: each run's).
# `hlog`: the run's latency as an HdrHistogram interval log, one interval a minute.
FORMATS = ("json", "csv", "md", "minutes", "segments", "openmetrics", "hlog")
# A run's own tables, written as CSV: none of a sweep.
RUN_TABLES = ("minutes", "segments")
# What only a run has: a sweep is refused them.
RUN_ONLY = (*RUN_TABLES, "hlog")


def extension(fmt: str) -> str:
    """A file's extension for `fmt`: the format's name, but a run's tables are CSVs."""
    return f"{fmt}.csv" if fmt in RUN_TABLES else fmt


# What `tuibench export` writes to a file or a pipe when no format is named: scripts read it.
DEFAULT_FORMAT = "json"
