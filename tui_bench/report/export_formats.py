"""The formats a session is exported in: plain data, so that the command line offers them
without loading the exporters."""

# `minutes`: one CSV row per whole minute of a run, its percentiles from that minute's
# histogram (a run whose tool keeps a request log: h2load).
FORMATS = ("json", "csv", "md", "minutes")


def extension(fmt: str) -> str:
    """A file's extension for `fmt`: the format's name, but minutes are a CSV."""
    return "minutes.csv" if fmt == "minutes" else fmt


# What `tuibench export` writes to a file or a pipe when no format is named: scripts read it.
DEFAULT_FORMAT = "json"
