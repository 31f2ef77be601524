"""The formats a session is exported in: plain data, so that the command line offers them
without loading the exporters."""

FORMATS = ("json", "csv", "md")
# What `tuibench export` writes to a file or a pipe when no format is named: scripts read it.
DEFAULT_FORMAT = "json"
