"""What the engine tells its listeners (the CLI's progress lines, the TUI, tests).

All events are immutable: a listener may keep them, hand them to another thread, or drop
them; it can never change what the engine recorded.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tui_bench.analysis.verdicts import Verdicts
from tui_bench.histogram import LatencyHistogram
from tui_bench.parsers.live import LiveLine, parse_live_line
from tui_bench.records.generator import GeneratorRun
from tui_bench.records.verdict import Validity

# A warning is told as it is kept: the event is the record.
from tui_bench.records.warning import Warning as RunWarning
from tui_bench.result import Result
from tui_bench.sampling.samples import ResourceSample
from tui_bench.storage.session import Session


@dataclass(frozen=True)
class RunStarted:
    session_id: str
    argv: tuple[str, ...]
    pid: int
    # The sampled server as the session describes it ({"pid", "name", "host"?, ...}).
    server: Mapping[str, Any] | None = None
    # When it started, as its session says (ISO 8601): what its seconds are dated from.
    started_at: str | None = None


@dataclass(frozen=True)
class OutputLine:
    stream: str
    text: str
    # What the line says about progress or the connection, read once where it came in.
    live: LiveLine | None = None

    @classmethod
    def read(cls, tool: str, stream: str, text: str) -> OutputLine:
        return cls(stream, text, parse_live_line(tool, text.rstrip("\n")))


@dataclass(frozen=True)
class Progress:
    elapsed_s: float
    # Fraction of the run done (count mode: requests; duration mode: time); None if unknown.
    fraction: float | None
    done: int | None
    phase: str | None


@dataclass(frozen=True)
class SecondClosed:
    """One row of the per-second series (the columns of storage.session.SERIES_COLUMNS)."""

    row: Mapping[str, Any]
    # The second's latencies, where the request log tells them: what lets the seconds of
    # several generators merge. Owned by the event: never modified.
    histogram: LatencyHistogram | None = None
    # A fixed-rate run's latencies from the send (`histogram` is then from when due).
    service: LatencyHistogram | None = None


@dataclass(frozen=True)
class ResourcesSampled:
    sample: ResourceSample


@dataclass(frozen=True)
class RunFinished:
    status: str
    exit_code: int | None
    result: Result | None
    session_path: Path
    message: str | None
    # None only where no verdict could be given (a replayed session too damaged to judge).
    validity: Validity | None = None
    # The run's resource figures, as `sampling.summaries.summarize` defines them (empty for a
    # session saved before they were kept).
    resources: Mapping[str, float | None] = field(default_factory=dict)
    # Its thresholds and baseline, judged when it ended (none asked: empty).
    verdicts: Verdicts = field(default_factory=Verdicts)
    # The generators of a run of several; empty for one.
    generators: tuple[GeneratorRun, ...] = ()
    # Why its session could not be saved (a full disk), in one line; None once it is.
    unsaved: str | None = None
    # Every warning of the run, as its session keeps them: what its result says below it.
    warnings: tuple[RunWarning, ...] = ()
    # The session as saved, for whoever runs it as a part (a sweep, a run of several
    # generators) to take from memory, and for a replay the session it plays.
    session: Session | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class SegmentStarted:
    """The run's load changed: a new segment from `start_s` (seconds into the run), after
    `gap_s` without load since the last one ended (None for the first, or after a pause).
    `target_rps` None: a closed loop; `paused`: no load until the next."""

    index: int
    start_s: float
    target_rps: float | None
    connections: int
    cause: str
    paused: bool = False
    gap_s: float | None = None

    @property
    def running_rps(self) -> float | None:
        """The rate while it lasts, as the session keeps it: 0 while a fixed-rate run is
        paused."""
        return 0.0 if self.paused and self.target_rps is not None else self.target_rps

    @property
    def running_connections(self) -> int:
        return 0 if self.paused else self.connections


@dataclass(frozen=True)
class GeneratorView:
    """One of several load generators as a live view shows it."""

    label: str
    tool: str
    version: str | None
    # Its last closed second's req/s and its share of all generators' in that second.
    rps: float | None = None
    share: float | None = None
    cpu_pct: float | None = None
    busiest_thread_pct: float | None = None
    lost: str | None = None
    ended: bool = False


@dataclass(frozen=True)
class GeneratorsSeen:
    """How each generator of a run of several is doing, once a second."""

    generators: tuple[GeneratorView, ...]


Event = (
    RunStarted
    | OutputLine
    | Progress
    | SecondClosed
    | ResourcesSampled
    | RunWarning
    | RunFinished
    | GeneratorsSeen
    | SegmentStarted
)

# Who is told of a run's events, in order, on the event loop.
Listener = Callable[[Event], None]
