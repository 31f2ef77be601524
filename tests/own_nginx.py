"""An nginx of a test's own with a server block it writes: for servers that behave in ways the
demo target does not (IPv6 only, asking for credentials). Stopped by pid."""

from __future__ import annotations

import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

CONF = """daemon off;
worker_processes 1;
pid {dir}/nginx.pid;
error_log {dir}/error.log;
events {{}}
http {{
    access_log off;
    client_body_temp_path {dir};
{http}
    server {{
{server}
    }}
}}
"""


def free_ports(family: socket.AddressFamily, host: str, count: int) -> list[int]:
    sockets = [socket.socket(family) for _ in range(count)]
    try:
        for sock in sockets:
            sock.bind((host, 0))
        return [int(sock.getsockname()[1]) for sock in sockets]
    finally:
        for sock in sockets:
            sock.close()


@contextmanager
def own_server(
    workdir: Path, server: str, listening: list[tuple[str, int]], http: str = ""
) -> Iterator[None]:
    """nginx serving `server` (the lines of its server block; `http`, lines before it) until
    the block ends; it has started once every (host, port) of `listening` takes connections."""
    workdir.chmod(0o755)
    conf = workdir / "nginx.conf"
    conf.write_text(CONF.format(dir=workdir, server=server, http=http))
    said = workdir / "stderr.txt"
    with open(said, "wb") as stderr:
        proc = subprocess.Popen(["nginx", "-p", str(workdir), "-c", str(conf)], stderr=stderr)
    try:
        deadline = time.monotonic() + 30
        for host, port in listening:
            while True:
                try:
                    socket.create_connection((host, port), timeout=1).close()
                    break
                except OSError:
                    assert proc.poll() is None, said.read_text()
                    assert time.monotonic() < deadline, f"nginx did not listen on {host}:{port}"
                    time.sleep(0.05)
        yield
    finally:
        proc.terminate()
        proc.wait(30)
