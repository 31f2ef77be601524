"""The run configurations started last, newest first, for the run form to offer again.

Kept in $XDG_CONFIG_HOME/tuibench/recent.json (~/.config/tuibench/recent.json). The list is a
convenience: a missing, unreadable or damaged file reads as an empty list, and an entry that
no longer makes a valid request (or sweep) is dropped, so it can never stop a run.

An entry is a RunRequest's dict; a sweep's adds a "sweep" object. Files written before sweeps
were kept read as they are, and a tuibench that knows no sweeps reads a sweep as its base run.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import orjson

from tui_bench.body import STDIN, read_body
from tui_bench.errors import UsageError
from tui_bench.redaction import redact, stand_in
from tui_bench.request.run import RunRequest
from tui_bench.request.sweep_settings import SweepSettings
from tui_bench.runners.durations import duration_text
from tui_bench.spec import RunSpec
from tui_bench.storage.atomic import write_atomic

MAX_RECENT = 10


def with_body_reread(spec: RunSpec) -> RunSpec:
    """A remembered run's body file read again as it is now (its bytes are never kept);
    as it was when it cannot be (the check then drops the entry)."""
    if spec.body_file is None or spec.body_file == STDIN:
        return spec
    try:
        return spec.with_body(read_body(spec.body_file))
    except UsageError:
        return spec


FORMAT_VERSION = 1


@dataclass(frozen=True)
class Config:
    """What the run form starts: a run, or a sweep of it when `sweep` is given."""

    request: RunRequest
    sweep: SweepSettings | None = None

    def check(self) -> None:
        """UsageError with the first reason this config cannot start. A sweep's own request
        need not be a valid run (a sweep of the URL has none): its points must be."""
        if self.sweep is None:
            self.request.spec.validate()
            return
        self.sweep.plan(self.request)
        self.sweep.slo_clauses()
        if self.sweep.capacity and (self.sweep.vary or self.sweep.ramp or not self.sweep.slo):
            raise UsageError(
                "a capacity search varies the rate itself, within an SLO: give the SLO "
                "(e.g. p99<20ms) and leave vary and ramp empty"
            )
        if not self.sweep.cool_down_s >= 0:
            raise UsageError(f"bad cool-down {self.sweep.cool_down_s!r}: negative")

    def to_dict(self) -> dict[str, Any]:
        entry = self.request.to_dict()
        if self.sweep is not None:
            entry["sweep"] = self.sweep.to_dict()
        return entry

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Config:
        sweep = data.get("sweep")
        request = RunRequest.from_dict(data)
        return cls(
            replace(request, spec=with_body_reread(request.spec)),
            None if sweep is None else SweepSettings.from_dict(sweep),
        )


def recent_path() -> Path:
    config_home = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(config_home) / "tuibench" / "recent.json"


def load(path: Path | None = None) -> list[Config]:
    try:
        document = orjson.loads((path or recent_path()).read_bytes())
    except (OSError, orjson.JSONDecodeError):
        return []
    entries = document.get("recent") if isinstance(document, dict) else None
    if not isinstance(entries, list):
        return []
    configs = (_config(entry) for entry in entries)
    return [config for config in configs if config is not None][:MAX_RECENT]


def _config(entry: Any) -> Config | None:
    try:
        config = Config.from_dict(entry)
        # Kept without its secrets, it is offered all the same: starting it asks for them.
        Config.from_dict(stand_in(entry)).check()
    except (KeyError, TypeError, ValueError, AttributeError, UsageError):
        # Hand-edited or from another version: not worth a crash, nor worth offering.
        return None
    return config


def remember(config: Config, path: Path | None = None) -> list[Config]:
    """Put `config` first (once), keep MAX_RECENT, write atomically; the new list.

    OSError when the file cannot be written."""
    path = path or recent_path()
    recent = [config, *(c for c in load(path) if c != config)][:MAX_RECENT]
    # Kept without secrets, as sessions are: the form asks for them when one is started.
    entries = [redact(c.to_dict()) for c in recent]
    document = {"version": FORMAT_VERSION, "recent": entries}
    write_atomic(path, orjson.dumps(document, option=orjson.OPT_INDENT_2))
    return recent


def describe_config(config: Config) -> str:
    """The run's line (`describe`), after what the sweep varies: `sweep c=1,2 ×3 · h2load …`."""
    sweep = config.sweep
    if sweep is None:
        return describe(config.request)
    words = ["sweep", *sweep.vary, *sweep.ramp]
    if sweep.repeat > 1:
        words.append(f"×{sweep.repeat}")
    if sweep.slo:
        words.append(f"SLO {sweep.slo}")
    return f"{' '.join(words)} · {describe(config.request)}"


def describe(request: RunRequest) -> str:
    """One line: `h2load c100 t1 m10 h2c -d 10s http://127.0.0.1:8080/ · before [nginx]`."""
    spec = request.spec
    words = [spec.tool, f"c{spec.connections}", f"t{spec.threads}"]
    if spec.streams:
        words.append(f"m{spec.streams}")
    if spec.urls:
        # A sweep that varies the URL has none of its own, nor the protocol it implies.
        words.append(spec.expected_protocol)
    if spec.rate is not None:
        words.append(f"--rate {spec.rate:g}")
    if spec.requests is not None:
        words.append(f"-n {spec.requests:,}")
    words += [text] if (text := duration_text(spec)) else []
    if spec.keepalive:
        words.append("-k")
    if spec.compress:
        words.append(spec.compress)
    if spec.headers:
        words.append(f"-H×{len(spec.headers)}")
    if spec.request_method != "GET" or spec.body_file is not None:
        words.append(spec.request_method)
    if spec.body_file is not None:
        words.append(f"--body {spec.body_file}")
    words += spec.urls
    if request.server_mode != "auto":
        words.append(f"server {_server(request)}")
    if request.server_host and request.server_mode != "none":
        words.append(f"on {request.server_host}")
    labels = " ".join([request.name, *(f"[{tag}]" for tag in request.tags)]).strip()
    return " ".join(words) + (f" · {labels}" if labels else "")


def _server(request: RunRequest) -> str:
    if request.server_mode == "pid":
        return f"pid {request.server_pid}"
    if request.server_mode == "name":
        return str(request.server_name)
    return "none"
