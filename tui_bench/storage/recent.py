"""The run configurations started last, newest first, for the run form to offer again.

Kept in $XDG_CONFIG_HOME/tuibench/recent.json (~/.config/tuibench/recent.json). The list is a
convenience: a missing, unreadable or damaged file reads as an empty list, and an entry that
no longer makes a valid request is dropped, so it can never stop a run.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import orjson

from tui_bench.engine.request import RunRequest
from tui_bench.errors import UsageError
from tui_bench.storage.atomic import write_atomic
from tui_bench.values import format_duration

MAX_RECENT = 10
FORMAT_VERSION = 1


def recent_path() -> Path:
    config_home = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(config_home) / "tuibench" / "recent.json"


def load(path: Path | None = None) -> list[RunRequest]:
    try:
        document = orjson.loads((path or recent_path()).read_bytes())
    except (OSError, orjson.JSONDecodeError):
        return []
    entries = document.get("recent") if isinstance(document, dict) else None
    if not isinstance(entries, list):
        return []
    requests = (_request(entry) for entry in entries)
    return [request for request in requests if request is not None][:MAX_RECENT]


def _request(entry: Any) -> RunRequest | None:
    try:
        request = RunRequest.from_dict(entry)
        request.spec.validate()
    except (KeyError, TypeError, ValueError, AttributeError, UsageError):
        # Hand-edited or from another version: not worth a crash, nor worth offering.
        return None
    return request


def remember(request: RunRequest, path: Path | None = None) -> list[RunRequest]:
    """Put `request` first (once), keep MAX_RECENT, write atomically; the new list.

    OSError when the file cannot be written."""
    path = path or recent_path()
    recent = [request, *(r for r in load(path) if r != request)][:MAX_RECENT]
    document = {"version": FORMAT_VERSION, "recent": [r.to_dict() for r in recent]}
    write_atomic(path, orjson.dumps(document, option=orjson.OPT_INDENT_2))
    return recent


def describe(request: RunRequest) -> str:
    """One line: `h2load c100 t1 m10 h2c -d 10s http://127.0.0.1:8080/ · before [nginx]`."""
    spec = request.spec
    words = [spec.tool, f"c{spec.connections}", f"t{spec.threads}"]
    if spec.streams:
        words.append(f"m{spec.streams}")
    words.append(spec.expected_protocol)
    if spec.requests is not None:
        words.append(f"-n {spec.requests:,}")
    if spec.duration_s is not None:
        words.append(f"-d {format_duration(spec.duration_s)}")
    if spec.warm_up_s:
        words.append(f"warm-up {format_duration(spec.warm_up_s)}")
    if spec.keepalive:
        words.append("-k")
    if spec.compress:
        words.append(spec.compress)
    if spec.headers:
        words.append(f"-H×{len(spec.headers)}")
    words += spec.urls
    if request.server_mode != "auto":
        words.append(f"server {_server(request)}")
    labels = " ".join([request.name, *(f"[{tag}]" for tag in request.tags)]).strip()
    return " ".join(words) + (f" · {labels}" if labels else "")


def _server(request: RunRequest) -> str:
    if request.server_mode == "pid":
        return f"pid {request.server_pid}"
    if request.server_mode == "name":
        return str(request.server_name)
    return "none"
