"""How jobs run beside what the user asks of each: where the tools are, how often resources
are sampled, whether wrk gets the live-count hook. The CLI reads them from its flags; the
app gets them when it is opened."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

# Finding a tool loads asyncio: only when a job is prepared, not when its flags are read.
if TYPE_CHECKING:
    from tui_bench.engine.prometheus_push import RemoteWrite
    from tui_bench.runners.tools import Tool

DEFAULT_INTERVAL_S = 0.5


@dataclass(frozen=True)
class JobSettings:
    tool_paths: Mapping[str, str | None] = field(default_factory=dict)
    interval_s: float = DEFAULT_INTERVAL_S
    live_hook: bool = True
    # Where the seconds of every run are pushed as they close (Prometheus remote write).
    remote_write: RemoteWrite | None = None

    def find_here(self, name: str) -> Tool:
        """The tool `name` on this machine; ToolMissingError (one line) when it is not."""
        from tui_bench.runners.tools import find_tool

        return find_tool(name, self.tool_paths.get(name))
