"""Stalls in closed-loop runs: spans in which the server answered nothing, found from what the
tool reported. Pure.

A closed-loop connection sends its next request only when the last one came back, so while
the server stalls each connection waits on one request: the stall is recorded once per
connection instead of once per request users would have sent, and the percentiles hide it
(a 1 s pause in a 6 s run at c10 leaves h2load's p99 at ~200 µs). What does show:

- h2load's request log: the requests held through the stall, each with a duration of about
  the stall, far beyond what the run's requests take;
- wrk's and ab's summaries: their longest request (and no more: they log no request);
- wrk's per-second counts: whole seconds with nothing issued between busy ones (a stall past
  wrk's request timeout leaves no latency at all).

The run's median is the yardstick, not its p99: a stall lifts the p99 itself when it holds
a few percent of the requests (many connections, a slow run), and wrk fills in the requests
a stall kept it from sending, which moves everything above its 75th percentile.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from tui_bench.formats import fmt_count, fmt_seconds
from tui_bench.records.warning import Warning
from tui_bench.spec import RunSpec

# A wait shorter than this is not called a stall whatever the median: on a busy machine the
# scheduler alone keeps a process from running for tens of milliseconds (a healthy 6 s run
# at c10 on 2 shared cores: longest request 25 ms, longest span without a completion 12 ms).
STALL_MIN_S = 0.2
# A request this many times the run's median waited on something other than the load.
MEDIAN_FACTOR = 50
# wrk writes each thread's count once a wall-clock second, so one whole run-second may see
# none by alignment alone; two in a row cannot happen while requests go out.
SILENT_SECONDS = 2
# A second with at most this share of the run's median second is where the stall was.
DIP_SHARE = 0.75
# While a run goes on: no request completed for this long, after the first one.
LIVE_SILENCE_S: Mapping[str, float] = {
    # The request log is written as each request completes and read every 0.2 s.
    "h2load": 0.5,
    # Counts come once a second per thread, and only while requests go out.
    "wrk": 2.0,
    # ab reports every tenth of its requests: seconds apart on a healthy run.
}

_US_PER_S = 1_000_000
Int64Array = npt.NDArray[np.int64]


@dataclass(frozen=True)
class Stall:
    """A span in which connections (all, or those it held) waited on the server and nothing
    of theirs completed. `start_s`: since the run's start; `held`: the requests that waited
    through it; each None when the tool does not tell."""

    start_s: float | None
    length_s: float
    held: int | None = None


def threshold_s(median_s: float | None) -> float:
    """How long a request must take to have been held by a stall."""
    return max(STALL_MIN_S, MEDIAN_FACTOR * (median_s or 0.0))


def from_requests(
    starts_us: Int64Array, ends_us: Int64Array, median_s: float | None
) -> list[Stall]:
    """Stalls from the requests of a request log (start and completion, µs since the run's
    start) that took at least STALL_MIN_S: those over the threshold held by the same
    stretch (their spans overlap) make one stall, from the first one's start to the last
    one's completion."""
    long_enough = (ends_us - starts_us) >= round(threshold_s(median_s) * _US_PER_S)
    starts, ends = starts_us[long_enough], ends_us[long_enough]
    order = np.argsort(starts, kind="stable")
    stalls: list[Stall] = []
    lo = hi = 0
    held = 0
    for start, end in zip(starts[order].tolist(), ends[order].tolist(), strict=True):
        if held and start > hi:
            stalls.append(_stall(lo, hi, held))
            held = 0
        if not held:
            lo, hi = start, end
        hi = max(hi, end)
        held += 1
    if held:
        stalls.append(_stall(lo, hi, held))
    return stalls


def _stall(lo_us: int, hi_us: int, held: int) -> Stall:
    return Stall(max(0, lo_us) / _US_PER_S, (hi_us - lo_us) / _US_PER_S, held)


def from_summary(
    max_s: float | None, median_s: float | None, series: Sequence[Mapping[str, Any]]
) -> list[Stall]:
    """A stall from a tool's longest request, when it is far beyond the run's median; when
    it happened is the second with the fewest requests among the run's inner seconds, if
    that one fell to DIP_SHARE of their median."""
    if max_s is None or max_s < threshold_s(median_s):
        return []
    return [Stall(_dip(series), max_s)]


def _dip(series: Sequence[Mapping[str, Any]]) -> float | None:
    inner = _whole_seconds(series)[1:-1]
    counts = [row["requests"] for row in inner]
    if len(counts) < 2:
        return None
    lowest = min(range(len(counts)), key=counts.__getitem__)
    # A stall of a second or more takes at least half of one of the seconds it falls in;
    # a quarter leaves room for that second's own noise.
    if counts[lowest] > DIP_SHARE * np.median(counts):
        return None
    return float(inner[lowest]["t_s"])


def from_silence(series: Sequence[Mapping[str, Any]]) -> list[Stall]:
    """Stalls as SILENT_SECONDS or more whole seconds without a request between seconds
    with requests (wrk's counts); the run's first and last seconds bound nothing."""
    rows = _whole_seconds(series)
    stalls: list[Stall] = []
    silent: list[Mapping[str, Any]] = []
    busy_before = False
    for row in rows:
        if row["requests"] == 0:
            silent.append(row)
            continue
        if busy_before and len(silent) >= SILENT_SECONDS:
            stalls.append(Stall(float(silent[0]["t_s"]), float(len(silent))))
        silent = []
        busy_before = True
    return stalls


def _whole_seconds(series: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The rows that cover a whole second and know their count (the last is usually cut)."""
    return [
        row
        for row in series
        if row.get("requests") is not None and (row.get("window_s") or 1.0) == 1.0
    ]


class CountMoves:
    """A count of requests done as a run goes, and when it last moved: what a stall is told
    by, live and when a count run is cut short."""

    def __init__(self, start_s: float | None = None) -> None:
        """`start_s`: the time silence is counted from before the count first moves; None:
        none is counted before it."""
        self.done: int | None = None
        self.moved_s = start_s

    def see(self, done: int | None, now_s: float) -> None:
        if done != self.done:
            self.done, self.moved_s = done, now_s

    def silent_s(self, now_s: float) -> float | None:
        return None if self.moved_s is None else now_s - self.moved_s


def stalled_live(spec: RunSpec, elapsed_s: float, count: CountMoves) -> bool:
    """Whether a run still going is stalled: its count of requests done has not moved for
    LIVE_SILENCE_S while load was still due (before the end of its time, or of its count).
    Closed loop only: a fixed-rate run shows its backlog growing instead."""
    limit = LIVE_SILENCE_S.get(spec.tool)
    silent_s, done = count.silent_s(elapsed_s), count.done
    if spec.rate is not None or limit is None or silent_s is None or done is None:
        return False
    if spec.planned_s is not None and elapsed_s >= spec.planned_s:
        return False
    if spec.requests is not None and done >= spec.requests:
        return False
    return silent_s >= limit


def stall_warning(stalls: Sequence[Stall], rps: float | None, *, corrected: bool) -> Warning | None:
    """What the run's stalls mean for its figures; `corrected`: the tool's percentiles
    already count the requests a stall kept it from sending (wrk's do)."""
    if not stalls:
        return None
    said = "; ".join(_said(s, rps) for s in stalls[:3])
    more = f" and {len(stalls) - 3} more" if len(stalls) > 3 else ""
    kind = "a stall" if len(stalls) == 1 else f"{len(stalls)} stalls"
    meaning = (
        "the tool's percentiles fill in the requests it could not send meanwhile"
        if corrected
        else "closed-loop percentiles count each connection's wait once and understate it "
        "(run with --rate for the latency users would see)"
    )
    return Warning("stall", f"{kind} ({said}{more}): {meaning}")


def _said(stall: Stall, rps: float | None) -> str:
    when = "–" if stall.start_s is None else f"{stall.start_s:.1f} s"
    words = f"at {when} for {fmt_seconds(stall.length_s)}"
    if stall.held is not None:
        words += f", {fmt_count(stall.held)} requests held"
    if rps:
        words += f", ~{fmt_count(rps * stall.length_s)} sent in that time at the run's rate"
    return words
