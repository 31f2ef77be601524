"""What the engine writes into a session's journal beside the seconds and samples: its
header (`SessionDraft`) and the end of a run or a sweep (a sweep's points so far are
storage.sweep_codec's)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from tui_bench.spec import RunSpec
from tui_bench.storage.session import SCHEMA, SCHEMA_VERSION


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
class RunEnd:
    """How a run ended: its session's end record (a run of several generators also ends
    with each one's and the first one's `server` and `argv`, known once it ran)."""

    status: str
    exit_code: int | None
    ended_at: str
    result: Mapping[str, Any] | None
    resources: Mapping[str, Any] | None
    message: str | None
    validity: Mapping[str, Any]
    max_errors: float
    histogram: Mapping[str, Any] | None = None
    service_histogram: Mapping[str, Any] | None = None
    generators: Sequence[Mapping[str, Any]] | None = None
    server: Mapping[str, Any] | None = None
    argv: Sequence[str] | None = None

    def to_record(self) -> dict[str, Any]:
        record = asdict(self)
        optional = ("histogram", "service_histogram", "generators", "server", "argv")
        return {k: v for k, v in record.items() if k not in optional or v is not None}


@dataclass(frozen=True)
class SweepEnd:
    """How a sweep ended: its session's end record (its points are in the summary)."""

    status: str
    ended_at: str
    message: str | None

    def to_record(self) -> dict[str, Any]:
        return asdict(self)
