"""What the engine writes into a session's journal beside the seconds and samples: its
header (`SessionDraft`) and the end of a run or a sweep (a sweep's points so far are
storage.sweep_codec's)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from tui_bench.histogram import LatencyHistogram
from tui_bench.records.generator import GeneratorRun
from tui_bench.records.segment import Segment
from tui_bench.records.verdict import Validity
from tui_bench.result import Result
from tui_bench.spec import RunSpec
from tui_bench.storage.generator_codec import generator_record
from tui_bench.storage.segment_codec import segment_record
from tui_bench.storage.session import APPROX, SCHEMA, SCHEMA_VERSION, Session


@dataclass
class SessionDraft:
    """What the engine accumulates while a run goes; becomes a Session at the end."""

    id: str
    spec: RunSpec
    argv: list[str]
    tool: dict[str, Any]
    host: dict[str, Any]
    started_at: str
    name: str = ""
    tags: list[str] = field(default_factory=list)
    notes: str = ""
    server: dict[str, Any] | None = None

    def header(self) -> dict[str, Any]:
        return {
            "schema": SCHEMA,
            "version": SCHEMA_VERSION,
            "id": self.id,
            "name": self.name,
            "tags": list(self.tags),
            "notes": self.notes,
            "spec": self.spec.to_dict(),
            "argv": list(self.argv),
            "tool": dict(self.tool),
            "host": dict(self.host),
            "server": self.server,
            "started_at": self.started_at,
        }


@dataclass(frozen=True)
class GeneratorEntry:
    """One generator of a run of several at its end: its figures, its share of the spec
    and its own session (None when it never ran)."""

    run: GeneratorRun
    spec: RunSpec
    session: Session | None

    def to_record(self) -> dict[str, Any]:
        own = self.session.doc if self.session is not None else None
        return generator_record(self.run, self.spec.to_dict(), own)


@dataclass(frozen=True)
class RunEnd:
    """How a run ended: its session's end record (a run of several generators also ends
    with each one's and the first one's `server` and `argv`, known once it ran)."""

    status: str
    exit_code: int | None
    ended_at: str
    result: Result | None
    resources: Mapping[str, float | None] | None
    message: str | None
    validity: Validity
    max_errors: float
    # Every request of the run: what lets repeats of a sweep point merge their latencies
    # instead of averaging percentiles. `approx` when merged from quantile tables.
    histogram: LatencyHistogram | None = None
    approx: bool = False
    service_histogram: LatencyHistogram | None = None
    generators: Sequence[GeneratorEntry] | None = None
    server: Mapping[str, Any] | None = None
    argv: Sequence[str] | None = None
    # A steered run's; None: one, the whole run (Session.segments).
    segments: Sequence[Segment] | None = None

    def to_record(self) -> dict[str, Any]:
        record: dict[str, Any] = {
            "status": self.status,
            "exit_code": self.exit_code,
            "ended_at": self.ended_at,
            "result": self.result.to_dict() if self.result else None,
            "resources": dict(self.resources) if self.resources is not None else None,
            "message": self.message,
            "validity": self.validity.to_dict(),
            "max_errors": self.max_errors,
        }
        if self.histogram is not None:
            kept = self.histogram.to_dict()
            record["histogram"] = {**kept, APPROX: True} if self.approx else kept
        if self.service_histogram is not None:
            record["service_histogram"] = self.service_histogram.to_dict()
        if self.generators is not None:
            record["generators"] = [g.to_record() for g in self.generators]
        if self.server is not None:
            record["server"] = dict(self.server)
        if self.argv is not None:
            record["argv"] = list(self.argv)
        if self.segments is not None:
            record["segments"] = [segment_record(s) for s in self.segments]
        return record


@dataclass(frozen=True)
class SweepEnd:
    """How a sweep ended: its session's end record (its points are in the summary)."""

    status: str
    ended_at: str
    message: str | None

    def to_record(self) -> dict[str, Any]:
        return asdict(self)
