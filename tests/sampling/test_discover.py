import shutil
import socket
from collections.abc import AsyncIterator

import psutil
import pytest

from tui_bench.demo.nginx_target import DemoTarget
from tui_bench.errors import UsageError
from tui_bench.sampling.discover import find_server, same_machine


@pytest.fixture
async def nginx() -> AsyncIterator[DemoTarget]:
    if shutil.which("nginx") is None:
        pytest.skip("nginx is not installed")
    async with DemoTarget("nginx") as target:
        yield target


@pytest.mark.real
async def test_find_nginx_master_by_url_port(nginx: DemoTarget) -> None:
    for key in ("h1", "h2c", "h2"):
        found = find_server(url=nginx.urls[key])
        assert found is not None and found.pid == nginx.pid


@pytest.mark.real
async def test_find_nginx_master_by_name(nginx: DemoTarget) -> None:
    try:
        found = find_server(name="nginx")
    except UsageError as exc:  # another nginx runs on this machine: both are named
        assert str(nginx.pid) in str(exc)
    else:
        assert found is not None and found.pid == nginx.pid


@pytest.mark.real
async def test_python_fallback_is_not_climbed_into_us() -> None:
    async with DemoTarget("python") as target:
        found = find_server(url=target.urls["h1"])
        assert found is not None and found.pid == target.pid


def test_find_by_pid() -> None:
    me = psutil.Process()
    found = find_server(pid=me.pid)
    assert found is not None and found.pid == me.pid


@pytest.mark.parametrize("pid", [-1, 0, 2**22 + 12345])
def test_bad_pid_is_a_usage_error(pid: int) -> None:
    with pytest.raises(UsageError, match=f"no process with pid {pid}"):
        find_server(pid=pid)


def test_unknown_name_is_a_usage_error() -> None:
    with pytest.raises(UsageError, match="no process named"):
        find_server(name="no-such-process-tuibench")


def test_url_without_local_listener() -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]  # bound, not listening
        assert find_server(url=f"http://127.0.0.1:{port}/") is None
    assert find_server(url="http://192.0.2.1:8080/") is None  # TEST-NET: not this machine
    assert find_server() is None


def test_same_machine() -> None:
    assert same_machine("http://127.0.0.1:8080/")
    assert same_machine("http://localhost/")
    assert same_machine("https://[::1]:8443/")
    assert not same_machine("http://192.0.2.1/")
    own = [
        addr.address
        for addrs in psutil.net_if_addrs().values()
        for addr in addrs
        if addr.family == socket.AF_INET and not addr.address.startswith("127.")
    ]
    if own:
        assert same_machine(f"http://{own[0]}:80/")
