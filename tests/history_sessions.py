"""Saved sessions of one benchmark over time, written as the engine writes them: for the
history tests and the store benchmark (bench/store_listing.py)."""

from __future__ import annotations

import copy
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import orjson

from tests.factories import h2load_result
from tui_bench.result import Distribution
from tui_bench.spec import RunSpec
from tui_bench.storage.atomic import write_atomic
from tui_bench.storage.session import Session
from tui_bench.storage.session_records import SessionDraft
from tui_bench.storage.store import new_session_id, session_path

FIXTURES = Path(__file__).parent / "fixtures"
START = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
URL = "http://127.0.0.1:8080/"


def series_rows(seconds: int, rps: float) -> list[dict[str, Any]]:
    return [
        {"t_s": float(t), "window_s": 1.0, "requests": int(rps), "rps": rps, "good_rps": rps}
        for t in range(seconds)
    ]


def run_doc(
    name: str,
    day: int,
    rps: float,
    p99_s: float,
    *,
    status: str = "completed",
    connections: int = 10,
    version: str = "1.52.0",
    seconds: int = 10,
) -> dict[str, Any]:
    """A single h2load run of benchmark `name`, `day` days after START."""
    started = START + timedelta(days=day)
    spec = RunSpec(urls=(URL,), connections=connections, duration_s=10.0, streams=10)
    draft = SessionDraft(
        id=new_session_id(started, "h2load", name),
        spec=spec,
        argv=["h2load", "-c", str(connections), "-D", "10", "-m", "10", URL],
        tool={"name": "h2load", "path": "/usr/bin/h2load", "version": version},
        host={},
        started_at=started.isoformat(),
        name=name,
    )
    latency = Distribution(
        min_s=p99_s / 20, max_s=p99_s * 2, mean_s=p99_s / 3, percentiles={"p99_s": p99_s}
    )
    result = h2load_result(10.0, rps, int(rps * 10), 0, latency=latency)
    verdict = "valid" if status == "completed" else "invalid"
    return {
        **draft.header(),
        "status": status,
        "exit_code": 0,
        "ended_at": (started + timedelta(seconds=10)).isoformat(),
        "series": series_rows(seconds, rps),
        "samples": [],
        "warnings": [],
        "raw": {"stdout": "", "stderr": ""},
        "result": result.to_dict(),
        "validity": {"verdict": verdict, "reasons": []},
    }


def sweep_doc(name: str, day: int, rps: tuple[float, float]) -> dict[str, Any]:
    """The saved `--vary c=4,32 --repeat 2` sweep, renamed and moved to `day`, its two
    points' req/s set to `rps` (median; the runs' range ±2 %)."""
    doc: dict[str, Any] = copy.deepcopy(
        orjson.loads((FIXTURES / "sweep-c-repeat2.json").read_bytes())
    )
    started = START + timedelta(days=day)
    doc["id"] = new_session_id(started, "h2load", name)
    doc["name"] = name
    doc["started_at"] = started.isoformat()
    for point, value in zip(doc["points"], rps, strict=True):
        point["rps"] |= {"median": value, "mean": value, "min": value * 0.98, "max": value * 1.02}
    return doc


def save(directory: Path, doc: dict[str, Any]) -> Path:
    path = session_path(directory, doc["id"])
    write_atomic(path, Session(doc).to_json())
    return path
