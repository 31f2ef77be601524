"""The parts of a run of several generators (engine/fleet.py): each generator's controller,
what the run knows of it, and how its session is described in the run's."""

from __future__ import annotations

from collections.abc import Coroutine
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Protocol

from tui_bench.engine.events import Listener, RunFinished
from tui_bench.engine.generators import Generator
from tui_bench.engine.tool_start import Launcher
from tui_bench.errors import SessionError
from tui_bench.runners.tools import Tool
from tui_bench.sampling.samples import ResourceSample
from tui_bench.spec import RunSpec
from tui_bench.storage import store as sessions


class Controller(Protocol):
    """A run that can be started and stopped: one generator's or several's."""

    def stop(self) -> None: ...

    def run(self) -> Coroutine[Any, Any, RunFinished]: ...


class ChildFactory(Protocol):
    def __call__(
        self,
        spec: RunSpec,
        tool: Tool,
        listener: Listener,
        store: Path,
        *,
        name: str,
        launcher: Launcher,
        observe_server: bool,
    ) -> Controller: ...


@dataclass
class Child:
    generator: Generator
    label: str
    spec: RunSpec
    launcher: Launcher
    controller: Controller | None = None
    done: int | None = None
    finished: RunFinished | None = None
    # Its last second's req/s and its last resource sample, for the live view.
    rps: float | None = None
    sample: ResourceSample | None = None


def child_doc(child: Child) -> dict[str, Any]:
    """The generator's own saved session; empty when it has none."""
    finished = child.finished
    if finished is None:
        return {}
    if finished.session is not None:
        return dict(finished.session.doc)
    try:  # a controller that keeps no session in memory
        return dict(sessions.load(finished.session_path).doc)
    except (SessionError, OSError):
        return {}


def describe(child: Child, doc: dict[str, Any]) -> dict[str, Any]:
    """The generator as the run's session keeps it, beside its own session `doc`."""
    launched = getattr(child.launcher, "launched", None)
    result = doc.get("result") or {}
    reasons = (doc.get("validity") or {}).get("reasons") or ()
    return {
        "host": child.label,
        "tool": asdict(child.generator.tool),
        "spec": child.spec.to_dict(),
        "argv": getattr(launched, "argv_there", None) or doc.get("argv"),
        "rps": result.get("rps"),
        "share": None,
        "client_cpu_mean_pct": (doc.get("resources") or {}).get("client_cpu_mean_pct"),
        "client_bound": any(r.get("code") == "client-bound" for r in reasons),
        "start_skew_s": getattr(launched, "start_skew_s", None),
        # Unknown for a generator that never started, not 0.
        "clock_offset_s": (launched.clock_offset_us / 1e6 if launched is not None else None),
        "stream_bytes": getattr(launched, "bytes_in", None),
        "lost": lost_of(child),
        "session": doc or None,
        "_warnings": [
            {"code": w["code"], "message": f"{child.label}: {w['message']}"}
            for w in doc.get("warnings") or ()
            if w.get("code") != "same-machine" or child.generator.host is None
        ],
    }


def lost_of(child: Child) -> str | None:
    """Why the connection to the generator's host was lost; None when it was not."""
    launched = getattr(child.launcher, "launched", None)
    lost = getattr(launched, "lost", None)
    return str(lost) if lost else None
