import asyncio
import http.client
import shutil
import socket
import ssl
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import AsyncIterator
from pathlib import Path
from urllib.parse import urlsplit

import psutil
import pytest

from tui_bench.demo import nginx_target
from tui_bench.demo.content import SIZED_PATHS, SMALL_BODY, describe
from tui_bench.demo.nginx_conf import CLOSING_KEEPALIVE_REQUESTS
from tui_bench.demo.nginx_target import DemoTarget, start_demo_target
from tui_bench.demo.processes import free_ports
from tui_bench.errors import ToolMissingError, TuibenchError

needs_nginx = pytest.mark.skipif(shutil.which("nginx") is None, reason="nginx is not installed")
needs_h2load = pytest.mark.skipif(shutil.which("h2load") is None, reason="h2load not installed")


def fetch(url: str, context: ssl.SSLContext | None = None) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=5, context=context) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as exc:
        return exc.code, b""


def at(url: str, path: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}{path}"


def requests_per_connection(url: str, limit: int) -> int:
    """How many requests one keep-alive connection answers before the server closes it."""
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=5)
    try:
        for count in range(1, limit + 1):
            conn.request("GET", parts.path)
            response = conn.getresponse()
            response.read()
            if response.will_close:
                return count
        return limit
    finally:
        conn.close()


@pytest.fixture
async def nginx() -> AsyncIterator[DemoTarget]:
    async with DemoTarget("nginx") as target:
        yield target


@pytest.mark.real
@needs_nginx
async def test_nginx_serves_every_path(nginx: DemoTarget) -> None:
    assert nginx.backend == "nginx"
    assert set(nginx.urls) == {"h1", "h2c", "h2", "closing", "closing_h2c"}
    for key in ("h1", "closing"):
        assert fetch(at(nginx.urls[key], "/")) == (200, SMALL_BODY)
        for path, size in SIZED_PATHS.items():
            status, body = fetch(at(nginx.urls[key], path))
            assert (status, len(body)) == (200, size)
        assert fetch(at(nginx.urls[key], "/404"))[0] == 404
        assert fetch(at(nginx.urls[key], "/500"))[0] == 500
    assert fetch(nginx.urls["closing"]) == (200, SMALL_BODY)
    tls = ssl.create_default_context()
    tls.check_hostname = False
    tls.verify_mode = ssl.CERT_NONE
    assert fetch(at(nginx.urls["h2"], "/1k"), tls)[0] == 200  # http/1.1 over TLS


@pytest.mark.real
@needs_nginx
@needs_h2load
@pytest.mark.parametrize(("key", "protocol"), [("h2c", "h2c"), ("h2", "h2")])
async def test_nginx_speaks_http2(nginx: DemoTarget, key: str, protocol: str) -> None:
    out = subprocess.run(
        ["h2load", "-n", "1", nginx.urls[key]], capture_output=True, text=True, timeout=10
    ).stdout
    assert f"Application protocol: {protocol}" in out
    assert "1 succeeded" in out


def negotiated(url: str, offered: list[str]) -> str | None:
    parts = urlsplit(url)
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    context.set_alpn_protocols(offered)
    with (
        socket.create_connection((parts.hostname or "", parts.port or 443), timeout=5) as raw,
        context.wrap_socket(raw, server_hostname="localhost") as tls,
    ):
        return tls.selected_alpn_protocol()


@pytest.mark.real
@needs_nginx
async def test_tls_port_offers_h2_and_http11(nginx: DemoTarget) -> None:
    assert negotiated(nginx.urls["h2"], ["h2", "http/1.1"]) == "h2"
    assert negotiated(nginx.urls["h2"], ["http/1.1"]) == "http/1.1"


@pytest.mark.real
@needs_nginx
async def test_keepalive_limits(nginx: DemoTarget) -> None:
    limit = CLOSING_KEEPALIVE_REQUESTS
    assert requests_per_connection(nginx.urls["closing"], limit + 50) == limit
    assert requests_per_connection(nginx.urls["h1"], limit + 50) == limit + 50


@pytest.mark.real
@needs_nginx
async def test_stop_leaves_nothing_behind() -> None:
    target = await start_demo_target()
    try:
        assert target.backend == "nginx"
        workdir = target.workdir
        master = psutil.Process(target.pid)
        # The master listens before it forks its workers: a busy machine forks them later.
        deadline = time.monotonic() + 30
        while len(master.children()) < 2 and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        processes = [master, *master.children()]
        assert len(processes) == 3  # master and two workers
    finally:
        await target.stop()  # a failed count must not leave the server running
    assert workdir is not None and not workdir.exists()
    assert not any(proc.is_running() for proc in processes)
    await target.stop()  # twice is harmless


@pytest.mark.real
@needs_nginx
async def test_nginx_failure_reports_the_log(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(nginx_target, "render_nginx_conf", lambda *_: "bogus_directive on;\n")
    target = DemoTarget("nginx")
    with pytest.raises(TuibenchError, match="bogus_directive") as caught:
        await target.start()
    assert "\n" not in str(caught.value)
    assert target.workdir is None


async def test_python_fallback_with_keep_alive() -> None:
    async with DemoTarget("python") as target:
        assert list(target.urls) == ["h1"]
        url = target.urls["h1"]
        assert fetch(url) == (200, SMALL_BODY)
        assert len(fetch(at(url, "/64k"))[1]) == 64 * 1024
        assert fetch(at(url, "/404"))[0] == 404
        assert fetch(at(url, "/500"))[0] == 500
        assert requests_per_connection(url, 20) == 20


async def test_auto_falls_back_without_nginx(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TUIBENCH_NGINX", str(tmp_path / "no-nginx"))
    with pytest.raises(ToolMissingError):
        await DemoTarget("nginx").start()
    target = await start_demo_target()
    try:
        assert target.backend == "python"
    finally:
        await target.stop()


async def test_taken_port_is_picked_again(monkeypatch: pytest.MonkeyPatch) -> None:
    busy = socket.socket()
    busy.bind(("127.0.0.1", 0))
    busy.listen()
    picks = [[busy.getsockname()[1]]]
    monkeypatch.setattr(
        "tui_bench.demo.nginx_target.free_ports", lambda n: picks.pop() if picks else free_ports(n)
    )
    try:
        async with DemoTarget("python") as target:
            assert fetch(target.urls["h1"])[0] == 200
            assert f":{busy.getsockname()[1]}/" not in target.urls["h1"]
    finally:
        busy.close()


def test_the_demo_line_names_the_h1_port_beside_the_h2c_one() -> None:
    urls = {
        "h1": "http://127.0.0.1:41235/",
        "h2c": "http://127.0.0.1:41234/",
        "h2": "https://127.0.0.1:41236/",
    }
    line = describe("nginx", urls)
    assert line == "demo: nginx h2c :41234, h1 :41235; GET / (21 B), /1k /16k /64k /1m /404 /500"
    # Within a header at 80 columns, with the widest ports there are.
    assert len(describe("nginx", {k: u.replace("4123", "6553") for k, u in urls.items()})) <= 78
    # The built-in server speaks HTTP/1.1 only.
    assert describe("python", {"h1": urls["h1"]}).startswith("demo: python h1 :41235; GET /")
