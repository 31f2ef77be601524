"""The parts of a run of several generators (engine/fleet.py): each generator's controller,
what the run knows of it, and how its session is described in the run's."""

from __future__ import annotations

from collections.abc import Coroutine
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from tui_bench.engine.events import Listener, RunFinished
from tui_bench.engine.generators import Generator
from tui_bench.engine.tool_start import Launcher
from tui_bench.errors import SessionError
from tui_bench.records.generator import GeneratorRun
from tui_bench.records.warning import Warning
from tui_bench.runners.tools import Tool
from tui_bench.sampling.samples import ResourceSample
from tui_bench.spec import RunSpec
from tui_bench.storage import store as sessions
from tui_bench.storage.session import Session
from tui_bench.storage.session_records import GeneratorEntry


class Controller(Protocol):
    """A run that can be started and stopped: one generator's or several's."""

    def stop(self) -> None: ...

    def steer(self, change: str, value: float | None = None) -> str | None: ...

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


def child_session(child: Child) -> Session | None:
    """The generator's own saved session; None when it has none."""
    finished = child.finished
    if finished is None:
        return None
    if finished.session is not None:
        return finished.session
    try:  # a controller that keeps no session in memory
        return sessions.load(finished.session_path)
    except (SessionError, OSError):
        return None


def describe(child: Child, own: Session | None) -> GeneratorEntry:
    """The generator as the run's session keeps it, beside its own session."""
    launched = getattr(child.launcher, "launched", None)
    result = own.result if own else None
    reasons = own.validity.reasons if own and own.validity else ()
    argv = getattr(launched, "argv_there", None) or (own.argv if own else None)
    tool = child.generator.tool
    run = GeneratorRun(
        host=child.label,
        tool=tool.name,
        tool_path=tool.path,
        tool_version=tool.version,
        argv=tuple(argv) if argv else None,
        rps=result.rps if result else None,
        client_cpu_mean_pct=own.resources.get("client_cpu_mean_pct") if own else None,
        client_bound=any(r.code == "client-bound" for r in reasons),
        start_skew_s=getattr(launched, "start_skew_s", None),
        # Unknown for a generator that never started, not 0.
        clock_offset_s=launched.clock_offset_us / 1e6 if launched is not None else None,
        stream_bytes=getattr(launched, "bytes_in", None),
        lost=lost_of(child),
        requests=result.requests.total if result else None,
    )
    return GeneratorEntry(run, child.spec, own)


def child_warnings(child: Child, own: Session | None) -> list[Warning]:
    """The generator's own warnings, named by its host (that it shares this machine with
    the target is said of the run only for a generator here)."""
    return [
        Warning(w.code, f"{child.label}: {w.message}")
        for w in (own.warnings if own else ())
        if w.code != "same-machine" or child.generator.host is None
    ]


def lost_of(child: Child) -> str | None:
    """Why the connection to the generator's host was lost; None when it was not."""
    launched = getattr(child.launcher, "launched", None)
    lost = getattr(launched, "lost", None)
    return str(lost) if lost else None
