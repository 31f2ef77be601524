"""Reading a session file: its JSON parsed and checked, so that every view can trust the
shape of what it opens; a file saved before secrets were redacted comes out redacted."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import orjson

from tui_bench.errors import SessionError
from tui_bench.redaction import RULES, redact_document
from tui_bench.result import Result
from tui_bench.storage.columns import readable
from tui_bench.storage.session import (
    REDACTED,
    REDACTION,
    SCHEMA,
    SCHEMA_VERSION,
    SWEEP,
    Session,
    histogram_of,
)


def parse(data: bytes, origin: str) -> Session:
    """Parse and check a session document; SessionError (one line) when it is not one. A
    file saved before secrets were redacted is shown and exported redacted all the same."""
    try:
        doc = orjson.loads(data)
    except orjson.JSONDecodeError as exc:
        raise SessionError(f"{origin}: not a session file (corrupt JSON: {exc.msg})") from None
    check(doc, origin)
    if doc.get(REDACTED) is not True or doc.get(REDACTION) != RULES:
        redacted = redact_document(doc, data.decode(errors="replace"))
        doc = {**redacted, REDACTED: True, REDACTION: RULES}
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
    for key, kind in (("id", str), ("spec", dict), ("series", list | dict)):
        if not isinstance(doc.get(key), kind):
            raise SessionError(f"{origin}: session file is damaged (bad {key!r})")
    if not readable(doc["series"]):
        raise SessionError(f"{origin}: session file is damaged (bad 'series')")
    result = doc.get("result")
    if result is not None:
        try:
            Result.from_dict(result)
        except (KeyError, TypeError, ValueError):
            raise SessionError(f"{origin}: session file is damaged (bad 'result')") from None
    for key in ("histogram", "service_histogram"):
        if doc.get(key) is not None:
            histogram_of(doc[key], origin)
    if doc.get("kind") == SWEEP:
        _check_sweep(doc, origin)


def _check_sweep(doc: Mapping[str, Any], origin: str) -> None:
    runs = doc.get("runs")
    points = (doc.get("sweep") or {}).get("points")
    if not isinstance(runs, list) or not isinstance(points, list):
        raise SessionError(f"{origin}: sweep session file is damaged (no runs or points)")
    for i, run in enumerate(runs):
        if not isinstance(run, dict) or not isinstance(run.get("point"), int):
            raise SessionError(f"{origin}: sweep session file is damaged (bad run {i + 1})")
        if not 0 <= run["point"] < len(points):
            raise SessionError(f"{origin}: sweep session file is damaged (bad run {i + 1})")
        check(run.get("session"), f"{origin}: run {i + 1}")
