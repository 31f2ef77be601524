"""Pure functions from a load generator's text output to a normalized `Result`."""


class ParseError(ValueError):
    """The text is not output of the tool the parser expects (or is truncated beyond use)."""
