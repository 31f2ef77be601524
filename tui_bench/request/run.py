"""A run as the user asks for it: the spec plus how to find the server and how to label it.

The CLI builds one from its flags and the run form from its fields; both hand it to the
job layer (`tui_bench/jobs/`), which prepares, runs, judges and records it the same way.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from tui_bench.remote.ssh import SshHost
from tui_bench.request.judging import Judging
from tui_bench.spec import RunSpec

# Finding the server loads psutil and asyncio: only when a run starts, so that the command
# line reads and checks its flags without them.
if TYPE_CHECKING:
    import psutil

    from tui_bench.remote.server import ServerOnHost

SERVER_MODES = ("auto", "pid", "name", "none")
# As --generator names this machine.
LOCAL_GENERATOR = "local"
# A run given neither -n nor -d runs this long.
DEFAULT_DURATION_S = 10.0
# A capacity step given neither --step-duration nor -d runs this long.
DEFAULT_STEP_S = 5.0


def parse_generators(texts: Sequence[str]) -> tuple[SshHost | None, ...]:
    """`local` (None) or `[ssh://][user@]host[:port]` each; UsageError for a bad one."""
    return tuple(None if t.strip() == LOCAL_GENERATOR else SshHost.parse(t) for t in texts)


@dataclass(frozen=True)
class RunRequest:
    spec: RunSpec
    # auto: whatever listens on the first URL's port; none: do not sample a server.
    server_mode: str = "auto"
    server_pid: int | None = None
    server_name: str | None = None
    # `[ssh://][user@]host[:port]`: the server runs there, and is found and sampled there.
    server_host: str | None = None
    name: str = ""
    tags: tuple[str, ...] = field(default=())
    # `local` or `[ssh://][user@]host[:port]` each: the load is split across them.
    generators: tuple[str, ...] = field(default=())
    # Thresholds, max errors, baseline and its gate.
    judging: Judging = field(default_factory=Judging)

    def server(self) -> psutil.Process | None:
        """The server's root process; UsageError when a given pid or name matches nothing.
        None for a server on another host (`on_host`)."""
        from tui_bench.sampling.discover import find_server

        if self.server_mode == "none" or self.server_host:
            return None
        if self.server_mode == "pid":
            return find_server(pid=self.server_pid)
        if self.server_mode == "name":
            return find_server(name=self.server_name)
        return find_server(url=self.spec.urls[0])

    def on_host(self) -> ServerOnHost | None:
        """The server on another host, and how to find it there; UsageError for a bad host."""
        from tui_bench.remote.server import Selector, ServerOnHost
        from tui_bench.sampling.discover import url_port

        if not self.server_host or self.server_mode == "none":
            return None
        host = SshHost.parse(self.server_host)
        if self.server_mode == "pid":
            return ServerOnHost(host, Selector("pid", str(self.server_pid)))
        if self.server_mode == "name":
            return ServerOnHost(host, Selector("name", str(self.server_name)))
        return ServerOnHost(host, Selector("port", str(url_port(self.spec.urls[0]))))

    def to_dict(self) -> dict[str, Any]:
        return {
            "spec": self.spec.to_dict(),
            "server_mode": self.server_mode,
            "server_pid": self.server_pid,
            "server_name": self.server_name,
            "server_host": self.server_host,
            "name": self.name,
            "tags": list(self.tags),
            "generators": list(self.generators),
            "judging": self.judging.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RunRequest:
        mode = data.get("server_mode", "auto")
        return cls(
            spec=RunSpec.from_dict(dict(data["spec"])),
            server_mode=mode if mode in SERVER_MODES else "auto",
            server_pid=data.get("server_pid"),
            server_name=data.get("server_name"),
            server_host=data.get("server_host") or None,
            name=str(data.get("name") or ""),
            tags=tuple(str(t) for t in data.get("tags") or ()),
            generators=tuple(str(g) for g in data.get("generators") or ()),
            judging=Judging.from_dict(data.get("judging") or {}),
        )
