"""The formats a session is exported in: plain data, so that the command line offers them
without loading the exporters."""

FORMATS = ("json", "csv", "md")
