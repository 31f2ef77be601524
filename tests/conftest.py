"""Shared fixtures: a real nginx demo target on 127.0.0.1 for the integration tests."""

from __future__ import annotations

import asyncio
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from tui_bench.demo.nginx_target import DemoTarget

FIXTURES = Path(__file__).parent / "fixtures"


def need(*tools: str) -> None:
    missing = [t for t in tools if shutil.which(t) is None]
    if missing:
        pytest.skip(f"not installed: {', '.join(missing)}")


@pytest.fixture(scope="session")
def nginx() -> Iterator[DemoTarget]:
    """One nginx for the whole run, driven from its own event loop so that sync and async
    tests alike can use it."""
    need("nginx")
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    target = DemoTarget("nginx")
    asyncio.run_coroutine_threadsafe(target.start(), loop).result(30)
    try:
        yield target
    finally:
        asyncio.run_coroutine_threadsafe(target.stop(), loop).result(30)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(5)


@pytest.fixture
def sessions(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    directory = tmp_path / "sessions"
    monkeypatch.setenv("TUIBENCH_SESSIONS", str(directory))
    return directory
