"""A terminal that went away (a dropped SSH session) must not stop tuibench from exiting."""

from __future__ import annotations

import errno
import io

from tui_bench.ui.terminal_driver import _LostTerminalTolerant


class GoneTerminal(io.StringIO):
    def write(self, text: str) -> int:
        raise OSError(errno.EIO, "Input/output error")

    def flush(self) -> None:
        raise OSError(errno.EIO, "Input/output error")


def test_writes_to_a_lost_terminal_are_dropped_not_raised() -> None:
    stream = _LostTerminalTolerant(GoneTerminal())
    assert stream.write("\x1b[?1049l") == len("\x1b[?1049l")
    stream.flush()
    assert stream.isatty() is False  # everything else is the stream's own


def test_writes_reach_a_live_terminal() -> None:
    live = io.StringIO()
    stream = _LostTerminalTolerant(live)
    stream.write("frame")
    stream.flush()
    assert live.getvalue() == "frame"
