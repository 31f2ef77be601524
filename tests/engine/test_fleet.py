"""A run of several generators that cannot start: none starts, nothing is left."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import need
from tui_bench.engine.controller import EngineOptions
from tui_bench.engine.generators import Generator
from tui_bench.errors import UsageError
from tui_bench.remote.ssh import SshHost
from tui_bench.runners.tools import Tool, find_tool
from tui_bench.spec import RunSpec


async def test_a_generator_that_cannot_get_ready_starts_none(
    tmp_path: Path, quiet_url: str
) -> None:
    need("h2load", "ssh")
    here = find_tool("h2load")
    nowhere = Generator(SshHost.parse("root@127.0.0.9:1"), Tool("h2load", here.path, here.version))
    engine = EngineOptions(generators=(Generator(None, here), nowhere))
    spec = RunSpec(urls=(quiet_url,), connections=2, duration_s=1.0)
    controller = engine.controller(spec, here, lambda event: None, tmp_path)
    with pytest.raises(UsageError, match=r"root@127\.0\.0\.9:1: cannot connect"):
        await controller.run()
    assert list(tmp_path.iterdir()) == [], "no session, no journal, no generator runs"
