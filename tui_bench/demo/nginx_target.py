"""The built-in demo target: a throw-away nginx on free 127.0.0.1 ports, or a Python fallback.

Everything it writes (config, certificate, bodies, logs, pid file) lives in one temp dir that
`stop()` removes; the server is our child in its own session, so it never outlives tuibench
by accident and a Ctrl-C in the terminal does not reach it.
"""

from __future__ import annotations

import asyncio
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Literal

from tui_bench.demo.content import bodies
from tui_bench.demo.nginx_conf import NginxPorts, render_nginx_conf
from tui_bench.demo.processes import PortTakenError, free_ports, spawn, stop_process, wait_ready
from tui_bench.errors import ToolMissingError, TuibenchError
from tui_bench.priority import KeptProcess
from tui_bench.runners.tools import find_tool_async

Backend = Literal["auto", "nginx", "python"]
_CERT_TIMEOUT_S = 10.0


@dataclass(frozen=True)
class _Launch:
    argv: list[str]
    ports: list[int]
    urls: dict[str, str]


class DemoTarget:
    """`backend="auto"` runs nginx when it is installed and the Python server otherwise."""

    def __init__(self, backend: Backend = "auto") -> None:
        self.backend: Backend = backend
        self.urls: dict[str, str] = {}
        self.workdir: Path | None = None
        self._proc: KeptProcess | None = None

    @property
    def pid(self) -> int:
        """The server's root process: the nginx master, or the Python server."""
        if self._proc is None:
            raise RuntimeError("the demo target is not running")
        return self._proc.pid

    async def start(self) -> None:
        if self._proc is not None:
            raise RuntimeError("the demo target is already running")
        workdir = self.workdir = Path(tempfile.mkdtemp(prefix="tuibench-demo-"))
        # nginx workers run as an unprivileged user when we are root: let them read the files.
        workdir.chmod(0o755)
        log = workdir / "error.log"
        try:
            launcher = await self._launcher(workdir)
            # A port picked as free can be taken before the server binds it: pick again once.
            for attempt in range(2):
                launch = launcher()
                self._proc = await spawn(launch.argv, log)
                try:
                    await wait_ready(self._proc, launch.ports, log)
                except PortTakenError:
                    await stop_process(self._proc)
                    if attempt:
                        raise
                    continue
                self.urls = launch.urls
                return
        except BaseException:
            await self.stop()
            raise

    async def stop(self) -> None:
        """Stop the server (gracefully first) and remove its files; safe to call twice."""
        if self._proc is not None:
            await stop_process(self._proc)
            self._proc = None
        if self.workdir is not None:
            shutil.rmtree(self.workdir, ignore_errors=True)
            self.workdir = None
        self.urls = {}

    async def __aenter__(self) -> DemoTarget:
        await self.start()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.stop()

    async def _launcher(self, workdir: Path) -> Callable[[], _Launch]:
        if self.backend == "python":
            return _python_launcher()
        try:
            launcher = await _nginx_launcher(workdir)
        except ToolMissingError:
            if self.backend == "nginx":
                raise
            self.backend = "python"
            return _python_launcher()
        self.backend = "nginx"
        return launcher


async def start_demo_target() -> DemoTarget:
    """A running demo target: nginx when installed, else the Python server."""
    target = DemoTarget()
    await target.start()
    return target


async def _nginx_launcher(workdir: Path) -> Callable[[], _Launch]:
    nginx = await find_tool_async("nginx")
    www = workdir / "www"
    www.mkdir(mode=0o755)
    for path, body in bodies().items():
        file = www / (path.strip("/") or "index.txt")
        file.write_bytes(body)
        file.chmod(0o644)  # whatever the umask: the workers may not run as us
    tls = await _make_certificate(workdir)

    def launch() -> _Launch:
        h1, h2c, closing, closing_h2c, h2 = free_ports(5)
        ports = NginxPorts(h1, h2c, closing, closing_h2c, h2 if tls else None)
        listening = [h1, h2c, closing, closing_h2c, *([h2] if tls else [])]
        conf = workdir / "nginx.conf"
        conf.write_text(render_nginx_conf(workdir, ports))
        urls = {
            "h1": f"http://127.0.0.1:{h1}/",
            "h2c": f"http://127.0.0.1:{h2c}/",
            "closing": f"http://127.0.0.1:{closing}/close",
            "closing_h2c": f"http://127.0.0.1:{closing_h2c}/close",
        }
        if ports.h2 is not None:
            urls["h2"] = f"https://127.0.0.1:{ports.h2}/"
        argv = [nginx.path, "-p", str(workdir), "-c", str(conf), "-e", str(workdir / "error.log")]
        return _Launch(argv, listening, urls)

    return launch


def _python_launcher() -> Callable[[], _Launch]:
    def launch() -> _Launch:
        (port,) = free_ports(1)
        argv = [sys.executable, "-m", "tui_bench.demo.py_server", "--port", str(port)]
        return _Launch(argv, [port], {"h1": f"http://127.0.0.1:{port}/"})

    return launch


async def _make_certificate(workdir: Path) -> bool:
    """A self-signed localhost certificate; False (no TLS port) when openssl is missing."""
    try:
        openssl = await find_tool_async("openssl")
    except ToolMissingError:
        return False
    argv = [
        openssl.path, "req", "-x509", "-newkey", "ec",
        "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2",
        "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
        "-keyout", str(workdir / "key.pem"), "-out", str(workdir / "cert.pem"),
    ]  # fmt: skip
    proc = await asyncio.create_subprocess_exec(
        *argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
    )
    try:
        out, _ = await asyncio.wait_for(proc.communicate(), _CERT_TIMEOUT_S)
    except TimeoutError:
        proc.kill()
        await proc.wait()
        raise TuibenchError("openssl timed out making the demo certificate") from None
    if proc.returncode != 0:
        last = out.decode(errors="replace").strip().splitlines()[-1:] or ["no output"]
        raise TuibenchError(f"openssl could not make the demo certificate: {last[0]}")
    return True
