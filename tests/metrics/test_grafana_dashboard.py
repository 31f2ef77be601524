"""The Grafana dashboard in docs/: every metric it asks for is one tuibench pushes and
exports, every family is on a panel, and its panels are named as the live screen's."""

from __future__ import annotations

import json
import re
from pathlib import Path

from tui_bench.metrics.catalogue import FAMILIES
from tui_bench.ui.text.monitor_text import LATENCY_TITLE

DASHBOARD = Path(__file__).parents[2] / "docs" / "grafana-dashboard.json"
# The live screen's panels (ui/screens/monitor_screen.py).
LIVE_PANELS = {"Throughput", LATENCY_TITLE, "Status & errors", "Server", "Client (load generator)"}


def test_the_dashboard_asks_only_for_what_tuibench_writes_and_shows_all_of_it() -> None:
    dashboard = json.loads(DASHBOARD.read_text())
    exprs = [t["expr"] for p in dashboard["panels"] for t in p["targets"]]
    exprs += [v["definition"] for v in dashboard["templating"]["list"] if "definition" in v]
    used = {name for expr in exprs for name in re.findall(r"\btuibench_\w+", expr)}
    written = {
        name
        for f in FAMILIES
        for name in (
            [f"{f.name}_{part}" for part in ("bucket", "count", "sum")]
            if f.kind == "histogram"
            else [f.sample_name]
        )
    }
    assert used <= written, used - written
    shown = {f"{f.name}_bucket" if f.kind == "histogram" else f.sample_name for f in FAMILIES}
    assert shown <= used, shown - used
    assert {p["title"] for p in dashboard["panels"]} == LIVE_PANELS
    # Every query narrows to the sessions chosen above it.
    assert all(
        'session=~"$session"' in t["expr"] for p in dashboard["panels"] for t in p["targets"]
    )
