"""Lines a load generator prints while it runs, read one at a time.

Called for every output line (up to ~100k lines/s with h2load's -v or a chatty Lua script),
so each tool's check starts with a cheap prefix test before any regex, and nothing here
raises: an unknown line is None.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tui_bench.parsers.h2load import APPLICATION_PROTOCOL, TLS_PROTOCOL


@dataclass(frozen=True)
class LiveLine:
    """What one line tells about progress: requests done so far (per thread for wrk),
    the fraction of a count-mode run, or the phase: "warm-up", "main" or "done"; or what
    the connection negotiated: the application protocol ("h2") or the TLS version.
    `at_s` is when the tool says it wrote the line, on the monotonic clock of its host."""

    done: int | None = None
    fraction: float | None = None
    phase: str | None = None
    thread: int | None = None
    protocol: str | None = None
    tls: str | None = None
    at_s: float | None = None


# h2load -n prints this every 10% (thread 0 only); -D prints "progress: N% of clients
# started" during warm-up instead, which says nothing about the run's progress.
_H2LOAD_PROGRESS = re.compile(r"progress: (\d{1,3})% done\s*")
_H2LOAD_PHASE = re.compile(
    r"(Warm-up started|Warm-up phase is over|Main benchmark duration is started"
    r"|Main benchmark duration is over) for thread #(\d{1,9})\b.*"
)
_H2LOAD_PHASES = {
    "Warm-up started": "warm-up",
    "Warm-up phase is over": "main",
    "Main benchmark duration is started": "main",
    "Main benchmark duration is over": "done",
}
_AB_COUNT = re.compile(r"(Completed|Finished) (\d{1,18}) requests\s*")
# The start of a count line of tuibench's wrk script (runners/wrk_report.lua).
WRK_LIVE_PREFIX = "tuibench-live "
_WRK_LIVE = re.compile(r"tuibench-live (\d{1,9}) (\d{1,18})(?: (\d{1,12}\.\d{1,9}))?\s*")


def parse_live_line(tool: str, line: str) -> LiveLine | None:
    if tool == "h2load":
        return _h2load(line)
    if tool == "wrk":
        return _wrk(line)
    if tool == "ab":
        return _ab(line)
    return None


def _h2load(line: str) -> LiveLine | None:
    if line.startswith("progress: "):
        match = _H2LOAD_PROGRESS.fullmatch(line)
        return LiveLine(fraction=min(int(match[1]), 100) / 100) if match else None
    if line.startswith(("Warm-up", "Main benchmark")):
        match = _H2LOAD_PHASE.fullmatch(line)
        if match:
            return LiveLine(phase=_H2LOAD_PHASES[match[1]], thread=int(match[2]))
    if line.startswith(APPLICATION_PROTOCOL):
        protocol = line[len(APPLICATION_PROTOCOL) :].strip()
        return LiveLine(protocol=protocol) if protocol else None
    if line.startswith(TLS_PROTOCOL):
        tls = line[len(TLS_PROTOCOL) :].strip()
        return LiveLine(tls=tls) if tls else None
    return None


def _wrk(line: str) -> LiveLine | None:
    if not line.startswith(WRK_LIVE_PREFIX):
        return None
    match = _WRK_LIVE.fullmatch(line)
    if match is None:
        return None
    at_s = float(match[3]) if match[3] else None
    return LiveLine(thread=int(match[1]), done=int(match[2]), at_s=at_s)


def _ab(line: str) -> LiveLine | None:
    if not line.startswith(("Completed ", "Finished ")):
        return None
    match = _AB_COUNT.fullmatch(line)
    if match is None:
        return None
    done = int(match[2])
    return LiveLine(done=done, phase="done") if match[1] == "Finished" else LiveLine(done=done)
