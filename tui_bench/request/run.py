"""A run as the user asks for it: the spec plus how to find the server and how to label it.

The CLI builds one from its flags and the run form from its fields; both launch it the same way.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import psutil

from tui_bench.sampling.discover import find_server
from tui_bench.spec import RunSpec

SERVER_MODES = ("auto", "pid", "name", "none")
# A run given neither -n nor -d runs this long.
DEFAULT_DURATION_S = 10.0


@dataclass(frozen=True)
class RunRequest:
    spec: RunSpec
    # auto: whatever listens on the first URL's port; none: do not sample a server.
    server_mode: str = "auto"
    server_pid: int | None = None
    server_name: str | None = None
    name: str = ""
    tags: tuple[str, ...] = field(default=())

    def server(self) -> psutil.Process | None:
        """The server's root process; UsageError when a given pid or name matches nothing."""
        if self.server_mode == "none":
            return None
        if self.server_mode == "pid":
            return find_server(pid=self.server_pid)
        if self.server_mode == "name":
            return find_server(name=self.server_name)
        return find_server(url=self.spec.urls[0])

    def to_dict(self) -> dict[str, Any]:
        return {
            "spec": self.spec.to_dict(),
            "server_mode": self.server_mode,
            "server_pid": self.server_pid,
            "server_name": self.server_name,
            "name": self.name,
            "tags": list(self.tags),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RunRequest:
        mode = data.get("server_mode", "auto")
        return cls(
            spec=RunSpec.from_dict(dict(data["spec"])),
            server_mode=mode if mode in SERVER_MODES else "auto",
            server_pid=data.get("server_pid"),
            server_name=data.get("server_name"),
            name=str(data.get("name") or ""),
            tags=tuple(str(t) for t in data.get("tags") or ()),
        )
