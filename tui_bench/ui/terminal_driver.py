"""The terminal driver: Textual's, made to survive losing its terminal.

When an SSH session drops, writes to the terminal fail with EIO. Textual's writer thread dies
on the first one, its bounded queue fills, and the app's own shutdown then blocks forever on a
write: the run's session is saved, but tuibench never exits (and never stops what it
started, such as the demo target). Writes to a terminal that is gone are dropped instead.
"""

from __future__ import annotations

import contextlib
from typing import IO, Any

from textual.drivers.linux_driver import LinuxDriver


class _LostTerminalTolerant:
    """A text stream whose write and flush ignore a terminal that went away."""

    def __init__(self, stream: IO[str]) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)
        except OSError:
            return len(text)

    def flush(self) -> None:
        with contextlib.suppress(OSError):
            self._stream.flush()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


class TerminalDriver(LinuxDriver):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._file = _LostTerminalTolerant(self._file)  # type: ignore[arg-type,assignment]
