"""Shared fixtures: a real nginx demo target on 127.0.0.1 for the integration tests."""

from __future__ import annotations

import shutil
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.sshd import SshServer, ssh_servers
from tui_bench.demo.background import running_demo_target
from tui_bench.demo.nginx_target import DemoTarget

FIXTURES = Path(__file__).parent / "fixtures"


def need(*tools: str) -> None:
    """Skip unless `tools` are installed. Only a test marked `real` may start a real tool:
    `-m "not real"` must be the suite without them."""
    assert _running is None or _running.get_closest_marker("real"), (
        f"{_running.nodeid} starts {', '.join(tools)}: mark it real"
    )
    missing = [t for t in tools if shutil.which(t) is None]
    if missing:
        pytest.skip(f"not installed: {', '.join(missing)}")


@pytest.fixture(scope="session")
def nginx() -> Iterator[DemoTarget]:
    """One nginx for the whole run."""
    need("nginx")
    with running_demo_target("nginx") as target:
        yield target


@pytest.fixture
def quiet_url() -> Iterator[str]:
    """Where something listens but never answers (the kernel accepts the connection): past
    the engine's check that the target can be reached, for stand-in tools and for servers
    that never answer. One per test, so connections never accepted do not pile up."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(64)
        yield f"http://127.0.0.1:{listener.getsockname()[1]}/"


@pytest.fixture
def own_nginx() -> Iterator[DemoTarget]:
    """An nginx of the test's own, to pause or kill by pid: never the session's shared one."""
    need("nginx")
    with running_demo_target("nginx") as target:
        yield target


@pytest.fixture
def sessions(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    directory = tmp_path / "sessions"
    monkeypatch.setenv("TUIBENCH_SESSIONS", str(directory))
    return directory


@pytest.fixture(autouse=True)
def user_config(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test gets an empty config, cache and data dir: the user's themes, remembered
    runs, sessions index and sessions must neither change a test nor be changed by one (nor
    by a test on the other worker, or in another run on this machine, at the same time)."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path_factory.mktemp("config")))
    # The sessions index is a cache: each test builds its own.
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("cache")))
    # The store, unless a test names its own (`sessions`): never ~/.local/share's, shared.
    monkeypatch.delenv("TUIBENCH_SESSIONS", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path_factory.mktemp("data")))


@pytest.fixture(scope="session")
def ssh_hosts(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, list[SshServer]]]:
    """Two pretend hosts, 127.0.0.2 and 127.0.0.3, each a real sshd."""
    with ssh_servers(tmp_path_factory.mktemp("ssh"), ["127.0.0.2", "127.0.0.3"]) as found:
        yield found


@pytest.fixture
def ssh_config(ssh_hosts: tuple[Path, list[SshServer]], monkeypatch: pytest.MonkeyPatch) -> Path:
    """tuibench's ssh uses the test hosts' config (ssh reads ~ from passwd, not $HOME)."""
    config, _ = ssh_hosts
    monkeypatch.setenv("TUIBENCH_SSH_CONFIG", str(config))
    return config


# Tests that start real tools, servers or terminals (h2load, wrk, ab, nginx, sshd, tmux) are
# marked `real`: `pytest -m "not real"` is the quick loop, the rest of the suite. Under
# pytest-xdist (`-n 2 --dist loadgroup`, as CI runs) they run one at a time on one worker, so
# no two loads compete for the cores; the other worker takes the screen and unit tests. (Two
# groups of them on three workers was 20 % faster, and more often flaky with a core kept busy.)
REAL_FIXTURES = {"nginx", "own_nginx", "ssh_hosts", "ssh_config"}
REAL_DIRECTORIES = {"integration", "demo", "remote"}
_running: pytest.Item | None = None


# First: pytest-xdist reads the group marks in its own hook, which would otherwise run before.
@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if (
            item.get_closest_marker("real")
            or item.path.parent.name in REAL_DIRECTORIES
            or set(getattr(item, "fixturenames", ())) & REAL_FIXTURES
        ):
            item.add_marker(pytest.mark.real)
            item.add_marker(pytest.mark.xdist_group("real"))


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[None]:
    global _running
    _running = item
    try:
        return (yield)
    finally:
        _running = None
