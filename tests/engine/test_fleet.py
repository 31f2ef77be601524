"""Runs of several generators: one that cannot start (none starts, nothing is left), and
what is said as they run."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import need
from tui_bench.demo.nginx_target import DemoTarget
from tui_bench.engine.events import (
    Event,
    GeneratorsSeen,
)
from tui_bench.engine.generators import Generator
from tui_bench.engine.options import EngineOptions
from tui_bench.errors import UsageError
from tui_bench.records.warning import Warning
from tui_bench.remote.ssh import SshHost
from tui_bench.runners.tools import Tool, find_tool
from tui_bench.spec import RunSpec
from tui_bench.storage import store


@pytest.mark.real
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


async def test_a_warning_on_the_result_is_said_of_the_merged_result_only(
    tmp_path: Path, nginx: DemoTarget
) -> None:
    need("h2load")
    here = find_tool("h2load")
    engine = EngineOptions(generators=(Generator(None, here), Generator(None, here)))
    spec = RunSpec(urls=(nginx.urls["h2c"],), connections=2, requests=40)
    said: list[Event] = []
    finished = await engine.controller(spec, here, said.append, tmp_path).run()
    warnings = {w.code: w.message for w in said if isinstance(w, Warning)}
    # Each generator had 20 requests; the run, as its session keeps it, 40.
    assert warnings["few-samples"] == "only 40 requests: p99 rests on a few of them"
    doc = store.load(finished.session_path).doc
    kept = {w["code"]: w["message"] for w in doc["warnings"]}
    assert kept["few-samples"] == warnings["few-samples"]
    # Two generators on one host are named apart, the same on the panel and in the session.
    seen = [e for e in said if isinstance(e, GeneratorsSeen)][-1]
    assert [g.label for g in seen.generators] == ["local", "local#2"]
    assert [g["host"] for g in doc["generators"]] == ["local", "local#2"]
    assert doc["generator_hosts"] == ["local", "local#2"]
