"""Methods and bodies on the wire: the real h2load (h1, h2c), wrk and ab send them to an
nginx that logs, for each request, the method, content type and the exact body it read; here
and through an SSH generator. A POST that nginx's static handler refuses (405) makes the
run invalid, saying what was sent."""

from __future__ import annotations

import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson
import pytest

from tests.conftest import need
from tests.integration.test_cli_real_tools import run_json, tuibench
from tests.sshd import SshServer
from tui_bench.demo.nginx_target import DemoTarget
from tui_bench.demo.processes import free_ports

pytestmark = pytest.mark.real

# Printable, with characters JSON escapes and UTF-8 past ASCII: nginx logs it with
# `escape=json`, so the log reads back to the exact bytes.
PAYLOAD = '{"order": 42, "note": "tab\\there \\"quoted\\" café", "items": [1, 2, 3]}\n'.encode()


@dataclass(frozen=True)
class EchoTarget:
    h1: str
    h2c: str
    log: Path

    def seen(self) -> list[dict[str, Any]]:
        """What nginx read of each request so far, in order."""
        text = self.log.read_text(encoding="utf-8") if self.log.exists() else ""
        return [orjson.loads(line) for line in text.splitlines() if line]

    def clear(self) -> None:
        # nginx keeps the log open: cut it, do not replace it.
        self.log.write_bytes(b"")


def _config(prefix: Path, front: int, h2c: int, back: int) -> str:
    temp_paths = "".join(
        f"    {kind}_temp_path {prefix}/{kind}_temp;\n"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    # nginx reads a body only for a handler that wants it: proxying makes it read the whole
    # body into one buffer, which $request_body then is.
    return f"""\
daemon off;
worker_processes 1;
pid {prefix}/nginx.pid;
error_log {prefix}/error.log warn;
events {{ worker_connections 256; }}
http {{
{temp_paths}    log_format seen escape=json '{{"method":"$request_method","uri":"$request_uri",'
        '"type":"$content_type","length":"$content_length","protocol":"$server_protocol",'
        '"body":"$request_body"}}';
    server {{
        listen 127.0.0.1:{front};
        listen 127.0.0.1:{h2c} http2;
        client_max_body_size 16m;
        client_body_buffer_size 1m;
        client_body_in_single_buffer on;
        location = /echo {{
            access_log {prefix}/seen.log seen;
            proxy_pass http://127.0.0.1:{back}/;
        }}
    }}
    server {{
        listen 127.0.0.1:{back};
        access_log off;
        location / {{ return 200 "ok\\n"; }}
    }}
}}
"""


def _listening(port: int) -> bool:
    with socket.socket() as sock:
        return sock.connect_ex(("127.0.0.1", port)) == 0


@pytest.fixture(scope="module")
def echo() -> Iterator[EchoTarget]:
    need("nginx")
    prefix = Path(tempfile.mkdtemp(prefix="tuibench-echo-"))
    # nginx's workers run as nobody when we are root: let them in.
    prefix.chmod(0o755)
    front, h2c, back = free_ports(3)
    (prefix / "nginx.conf").write_text(_config(prefix, front, h2c, back))
    proc = subprocess.Popen(
        ["nginx", "-p", str(prefix), "-c", str(prefix / "nginx.conf"), "-e", "stderr"],
        stdout=subprocess.DEVNULL,
        stderr=(prefix / "nginx.out").open("wb"),
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 10
        for port in (front, h2c, back):
            while not _listening(port):
                assert proc.poll() is None, (prefix / "nginx.out").read_text()
                assert time.monotonic() < deadline, "nginx did not start"
                time.sleep(0.05)
        yield EchoTarget(
            f"http://127.0.0.1:{front}/echo", f"http://127.0.0.1:{h2c}/echo", prefix / "seen.log"
        )
    finally:
        proc.terminate()
        try:
            proc.wait(5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        shutil.rmtree(prefix, ignore_errors=True)


@pytest.fixture
def payload(tmp_path: Path) -> Path:
    path = tmp_path / "order.json"
    path.write_bytes(PAYLOAD)
    return path


def check_seen(echo: EchoTarget, count: int, method: str, protocol: str) -> None:
    seen = echo.seen()
    # A duration run (wrk) stops with its connection's last request in flight: nginx may
    # have read it, the tool does not count it.
    assert count <= len(seen) <= count + 2
    for request in seen:
        assert request["method"] == method
        assert request["type"] == "application/json"
        assert request["length"] == str(len(PAYLOAD))
        assert request["protocol"] == protocol
        assert request["body"].encode() == PAYLOAD


CASES = [
    # tool, its flags, the URL's key, the protocol nginx sees
    ("h2load", ("--h1",), "h1", "HTTP/1.1"),
    ("h2load", (), "h2c", "HTTP/2.0"),
    ("wrk", (), "h1", "HTTP/1.1"),
    # Without the live hook wrk sends the request it built after the script's init().
    ("wrk", ("--no-live-hook",), "h1", "HTTP/1.1"),
    ("ab", (), "h1", "HTTP/1.0"),
]


def _run_args(tool: str, flags: tuple[str, ...], method: str, body: Path) -> list[str]:
    load = ["-d", "1", "-c", "1"] if tool == "wrk" else ["-n", "20", "-c", "2"]
    return ["--tool", tool, *flags, *load, "-X", method, "--body", str(body), "--no-server"]


@pytest.mark.parametrize(("tool", "flags", "url", "protocol"), CASES)
@pytest.mark.parametrize("method", ["POST", "PUT"])
def test_method_and_body_reach_the_server(
    echo: EchoTarget,
    payload: Path,
    sessions: Path,
    tool: str,
    flags: tuple[str, ...],
    url: str,
    protocol: str,
    method: str,
) -> None:
    need(tool)
    echo.clear()
    code, result, stderr = run_json(*_run_args(tool, flags, method, payload), getattr(echo, url))
    assert code == 0, stderr
    check_seen(echo, result["requests"]["total"], method, protocol)
    spec = orjson.loads((Path(result["session_path"])).read_bytes())["spec"]
    assert spec["method"] == method and spec["content_type"] == "application/json"
    assert spec["body_size"] == len(PAYLOAD) and "body" not in spec
    # The session never holds the body's bytes.
    assert b"quoted" not in Path(result["session_path"]).read_bytes()


@pytest.mark.parametrize(("tool", "flags", "url", "protocol"), CASES)
def test_the_body_reaches_a_generator_host_over_ssh(
    echo: EchoTarget,
    payload: Path,
    sessions: Path,
    ssh_config: Path,
    ssh_hosts: tuple[Path, list[SshServer]],
    tool: str,
    flags: tuple[str, ...],
    url: str,
    protocol: str,
) -> None:
    need(tool)
    echo.clear()
    host = ssh_hosts[1][0].alias
    args = _run_args(tool, flags, "PUT", payload)
    code, result, stderr = run_json(*args, "--generator", host, getattr(echo, url))
    assert code == 0, stderr
    check_seen(echo, result["requests"]["total"], "PUT", protocol)
    # The generator's exact codes come back with its result and stay in the merged one.
    codes = {"200": result["requests"]["total"]} if tool == "h2load" else {}
    assert result["status_codes"] == codes


@pytest.mark.parametrize(
    ("tool", "flags", "url", "answered"),
    [
        # h2load's request log tells each request's status: the exact one is named.
        ("h2load", ("--h1",), "h1", "405 Method Not Allowed"),
        ("h2load", (), "h2c", "405 Method Not Allowed"),
        # wrk and ab count only answers outside 2xx (and 3xx): the class is.
        ("wrk", (), "h1", "a status outside 2xx and 3xx"),
        ("ab", (), "h1", "a status outside 2xx"),
    ],
)
def test_a_refused_post_makes_the_run_invalid(
    nginx: DemoTarget,
    payload: Path,
    sessions: Path,
    tool: str,
    flags: tuple[str, ...],
    url: str,
    answered: str,
) -> None:
    need(tool)
    # nginx's static handler answers 405 to a POST.
    args = _run_args(tool, flags, "POST", payload)
    code, result, _ = run_json(*args, nginx.urls[url])
    assert code == 1
    total = result["requests"]["total"]
    reasons = {r["code"]: r["message"] for r in result["validity"]["reasons"]}
    sent = f"the server refused POST with a {len(PAYLOAD)}-byte application/json body"
    refused = reasons["refused"]
    assert refused.startswith(f"{total:,} of {total:,} requests (100%) were answered {answered}: ")
    if tool == "h2load":
        assert total == 20 and result["status"]["4xx"] == 20
        assert result["status_codes"] == {"405": 20}
        assert refused.endswith(sent)
    else:
        assert result["status_codes"] == {}
        assert sent in refused and refused.endswith("415: a content type it does not take)")
    # The saved session, read back, gives the same reason and status row to every view.
    exported = tuibench("export", result["session_path"], "--format", "md").stdout
    assert f"refused: {refused}" in exported
    if tool == "h2load":
        assert "| status | 0 2xx, 0 3xx, 20 4xx (405 ×20), 0 5xx |" in exported


def test_several_urls_each_get_the_same_body(
    echo: EchoTarget, payload: Path, sessions: Path
) -> None:
    need("h2load")
    echo.clear()
    urls = (echo.h1, f"{echo.h1}?second")
    code, _, stderr = run_json(*_run_args("h2load", ("--h1",), "POST", payload), *urls)
    assert code == 0, stderr
    check_seen(echo, 20, "POST", "HTTP/1.1")
    assert {request["uri"] for request in echo.seen()} == {"/echo", "/echo?second"}


def test_a_large_body_reaches_a_generator_host_whole(
    echo: EchoTarget,
    tmp_path: Path,
    sessions: Path,
    ssh_config: Path,
    ssh_hosts: tuple[Path, list[SshServer]],
) -> None:
    """Past a pipe's buffer and any argv word: it travels on the program's input."""
    need("h2load")
    echo.clear()
    large = tmp_path / "large.json"
    data = orjson.dumps({"items": [f"item-{i:06d}" for i in range(40_000)]})
    large.write_bytes(data)
    host = ssh_hosts[1][1].alias
    code, _, stderr = run_json(
        "--h1", "-n", "4", "-c", "2", "--body", str(large), "--no-server",
        "--generator", host, echo.h1,
    )  # fmt: skip
    assert code == 0, stderr
    seen = echo.seen()
    assert len(data) > 512 * 1024 and len(seen) == 4
    assert all(request["body"].encode() == data for request in seen)
