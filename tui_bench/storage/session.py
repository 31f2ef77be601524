"""The session document: one self-contained, versioned JSON file per run.

Loading only parses JSON and checks its shape: nothing in a session is ever executed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import orjson

from tui_bench.errors import SessionError
from tui_bench.result import Result
from tui_bench.spec import RunSpec

SCHEMA = "tuibench.session"
SCHEMA_VERSION = 1

# Columns of the per-interval series, in export order; the CSV header is this list.
SERIES_COLUMNS = (
    "t_s",
    "rps",
    "good_rps",
    "errors",
    "2xx",
    "3xx",
    "4xx",
    "5xx",
    "n",
    "p50_s",
    "p90_s",
    "p99_s",
    "max_s",
    "server_cpu_pct",
    "server_rss_bytes",
    "server_procs",
    "system_cpu_pct",
    "client_cpu_pct",
    "client_thread_max_pct",
)


@dataclass(frozen=True)
class Session:
    """A run as stored. `doc` is the JSON document; accessors read the common parts."""

    doc: Mapping[str, Any]

    @property
    def id(self) -> str:
        return str(self.doc["id"])

    @property
    def name(self) -> str:
        return str(self.doc.get("name") or "")

    @property
    def status(self) -> str:
        return str(self.doc.get("status") or "")

    @property
    def spec(self) -> RunSpec:
        return RunSpec.from_dict(dict(self.doc["spec"]))

    @property
    def result(self) -> Result | None:
        data = self.doc.get("result")
        return Result.from_dict(data) if data else None

    @property
    def series(self) -> list[Mapping[str, Any]]:
        return list(self.doc.get("series") or [])

    def to_json(self) -> bytes:
        return orjson.dumps(self.doc, option=orjson.OPT_INDENT_2 | orjson.OPT_SERIALIZE_NUMPY)


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


def parse(data: bytes, origin: str) -> Session:
    """Parse and check a session document; SessionError (one line) when it is not one."""
    try:
        doc = orjson.loads(data)
    except orjson.JSONDecodeError as exc:
        raise SessionError(f"{origin}: not a session file (corrupt JSON: {exc.msg})") from None
    check(doc, origin)
    return Session(doc)


def check(doc: Any, origin: str) -> None:
    if not isinstance(doc, dict) or doc.get("schema") != SCHEMA:
        raise SessionError(f"{origin}: not a tuibench session file")
    version = doc.get("version")
    if not isinstance(version, int):
        raise SessionError(f"{origin}: session file has no schema version")
    if version > SCHEMA_VERSION:
        raise SessionError(
            f"{origin}: written by a newer tuibench (schema {version}; this one reads "
            f"up to {SCHEMA_VERSION}): upgrade tuibench to open it"
        )
    for key, kind in (("id", str), ("spec", dict), ("series", list)):
        if not isinstance(doc.get(key), kind):
            raise SessionError(f"{origin}: session file is damaged (bad {key!r})")
    result = doc.get("result")
    if result is not None:
        try:
            Result.from_dict(result)
        except (KeyError, TypeError, ValueError):
            raise SessionError(f"{origin}: session file is damaged (bad 'result')") from None
