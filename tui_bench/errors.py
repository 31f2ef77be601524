"""Errors the command line turns into one-line messages and exit codes."""

# Stopped by the user (Ctrl-C, q, a signal) before or while it ran, as a shell tells SIGINT.
EXIT_INTERRUPTED = 130


class TuibenchError(Exception):
    """A problem the user can fix; shown as one line, exit status 2."""

    exit_code = 2


class UsageError(TuibenchError):
    """Bad flags, a bad URL or a bad value."""


class ToolMissingError(TuibenchError):
    """A load generator (or nginx) is not installed or not executable."""


class SessionError(TuibenchError):
    """A session file that cannot be read: corrupt, truncated or from a newer tuibench."""


class StoreError(TuibenchError):
    """The store cannot be written (a full disk, no permission): what was measured is shown,
    not saved."""
