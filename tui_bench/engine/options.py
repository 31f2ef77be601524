"""EngineOptions: how runs are observed and labelled, and the one place a run's controller
is built from them (one RunController, or a FleetController over several generators)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import psutil

from tui_bench.engine.controller import RunController
from tui_bench.engine.events import Listener
from tui_bench.engine.fleet import Controller, FleetController
from tui_bench.engine.generators import Generator, labels
from tui_bench.engine.recorder import Judge
from tui_bench.engine.tool_start import Launcher
from tui_bench.metrics.catalogue import generator_label
from tui_bench.remote.server import ServerOnHost
from tui_bench.runners.invocation import STALL_TIMEOUT_S
from tui_bench.runners.tools import Tool
from tui_bench.spec import RunSpec
from tui_bench.storage.store import sessions_dir
from tui_bench.validity_defaults import DEFAULT_MAX_ERRORS

# Loaded only where a run is pushed to Prometheus (`--prometheus-remote-write`).
if TYPE_CHECKING:
    from tui_bench.engine.prometheus_push import RemoteWrite


@dataclass(frozen=True)
class EngineOptions:
    """How runs are observed and labelled; the same for headless runs and the live monitor."""

    server: psutil.Process | None = None
    interval_s: float = 0.5
    name: str = ""
    tags: tuple[str, ...] = ()
    live_hook: bool = True
    max_errors: float = DEFAULT_MAX_ERRORS
    # The server on another host, sampled there over SSH (then `server` is None).
    server_host: ServerOnHost | None = None
    # A request count that nothing answers for this long is stopped.
    stall_timeout_s: float = STALL_TIMEOUT_S

    # Several load generators sharing the load (engine/fleet.py); none: the tool here.
    generators: tuple[Generator, ...] = ()
    # Judges the run when it ends (thresholds, baseline); a sweep's runs are not judged
    # one by one, nor the generators of a run.
    judge: Judge | None = None
    # Where each second of the run is pushed as it closes (Prometheus remote write).
    remote_write: RemoteWrite | None = None

    def controller(
        self, spec: RunSpec, tool: Tool, listener: Listener, store: Path | None = None
    ) -> Controller:
        """The one way runs are built: a sweep's go into its own `store`."""
        where = store or sessions_dir()
        if self.remote_write is not None:
            hosts = labels(self.generators)
            listener = self.remote_write.listener(listener, spec, self.name, generator_label(hosts))
        if self.generators:
            return FleetController(
                spec,
                self.generators,
                listener,
                where,
                self._child,
                name=self.name,
                tags=self.tags,
                interval_s=self.interval_s,
                max_errors=self.max_errors,
                judge=self.judge,
                server=self.server,
                server_host=self.server_host,
            )
        return self._child(spec, tool, listener, where, judge=self.judge)

    def _child(
        self,
        spec: RunSpec,
        tool: Tool,
        listener: Listener,
        store: Path,
        *,
        name: str | None = None,
        launcher: Launcher | None = None,
        observe_server: bool = True,
        judge: Judge | None = None,
    ) -> RunController:
        return RunController(
            spec,
            tool,
            store=store,
            name=self.name if name is None else name,
            tags=self.tags,
            server=self.server if observe_server else None,
            interval_s=self.interval_s,
            listener=listener,
            live_hook=self.live_hook,
            max_errors=self.max_errors,
            server_host=self.server_host if observe_server else None,
            launcher=launcher,
            judge=judge,
            stall_timeout_s=self.stall_timeout_s,
        )
