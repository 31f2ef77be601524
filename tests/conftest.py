"""Shared fixtures: a real nginx demo target on 127.0.0.1 for the integration tests."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from tui_bench.demo.background import running_demo_target
from tui_bench.demo.nginx_target import DemoTarget

FIXTURES = Path(__file__).parent / "fixtures"


def need(*tools: str) -> None:
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
def sessions(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    directory = tmp_path / "sessions"
    monkeypatch.setenv("TUIBENCH_SESSIONS", str(directory))
    return directory
