"""The per-second rows of the tools without a request log (wrk's hook, ab's counts), run for
real against nginx: they add up to the result, each has its real length, and the live
panel's overall req/s is the result's, as the summary prints it."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from statistics import median
from typing import Any

import pytest

from tests.conftest import need
from tui_bench.cli.progress import summary_text
from tui_bench.demo.nginx_target import DemoTarget
from tui_bench.engine.live_state import LiveState
from tui_bench.engine.options import EngineOptions
from tui_bench.formats import fmt_count
from tui_bench.runners.tools import find_tool
from tui_bench.spec import RunSpec
from tui_bench.storage import store
from tui_bench.ui.text.monitor_text import throughput

pytestmark = pytest.mark.real

SHAPES = {
    "wrk": {"duration_s": 4, "connections": 20, "threads": 2},
    # Over a second on a quiet machine (ab sends 130k req/s to nginx's small page there).
    "ab": {"requests": 200_000, "connections": 10, "keepalive": True},
}


def known(row: Mapping[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in row.items() if value is not None}


@pytest.mark.parametrize("tool", sorted(SHAPES))
async def test_rows_add_up_to_the_result_and_the_panel_says_its_rate(
    tool: str, nginx: DemoTarget, sessions: Path
) -> None:
    need(tool)
    spec = RunSpec(urls=(nginx.urls["h1"],), tool=tool, **SHAPES[tool])  # type: ignore[arg-type]
    state = LiveState(spec)
    finished = await EngineOptions(None).controller(spec, find_tool(tool), state.apply).run()
    result = finished.result
    assert finished.status == "completed" and result is not None and result.rps is not None
    total = result.requests.total
    assert total

    rows = store.load(finished.session_path).series
    # The same figures, saved as shown (a figure no second had is not kept for any).
    assert [known(row) for row in rows] == [known(row) for row in state.rows]
    assert sum(row["requests"] for row in rows) == pytest.approx(total, rel=0.005)
    # Every second is whole but the last, which lasted what the run lasted into it.
    assert [row["window_s"] for row in rows[:-1]] == [1.0] * (len(rows) - 1)
    assert 0 < rows[-1]["window_s"] <= 1.0
    assert rows[-1]["t_s"] + rows[-1]["window_s"] >= (result.duration_s or 0)
    # No near-empty first second: the rows follow the load. Not an even one on a busy
    # machine: with a core kept busy, ab's seconds varied up to fourfold within a run (its
    # least 0.78 of their median), so near-empty is under a fifth of the median.
    whole = [row["requests"] for row in rows[:-1]]
    assert not whole or min(whole) > 0.2 * median(whole), whole

    assert state.rps_overall == result.rps
    shown = fmt_count(result.rps)
    assert f"overall {shown} req/s" in throughput(state).plain
    assert f"req/s     {fmt_count(result.rps, 2)}" in summary_text(finished)
