"""A session's comparison with its `--baseline`, as the md export writes it: from what the
session keeps under `baseline`, so the export needs no baseline file. Pure."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tui_bench.report.comparison import tested_table
from tui_bench.storage.session import Session


def baseline_markdown(session: Session) -> str:
    """The section, or "" for a session run without `--baseline`."""
    kept = session.baseline
    if kept is None:
        return ""
    lines = ["", f"## Against the baseline {kept.get('ref')}", "", f"- {_gate(kept)}"]
    lines += [f"- refused: {line}" for line in kept.get("refused") or ()]
    for found in kept.get("regressions") or ():
        where = f" at {found['point']}" if found.get("point") else ""
        lines.append(f"- regression{where}: {found['metric']} ({found['verdict']})")
    compared = kept.get("points") if "points" in kept else [kept]
    for each in compared or ():
        if each.get("point"):
            lines += ["", f"### {each['point']}"]
        lines += ["", f"Baseline: {_side(each.get('a') or {})}", ""]
        lines += tested_table(each.get("metrics") or ())
        warnings = each.get("warnings") or ()
        lines += ["", *(f"- {warning}" for warning in warnings)] if warnings else []
    return "\n".join(lines) + "\n"


def _gate(kept: Mapping[str, Any]) -> str:
    tolerance = kept.get("tolerance_pct")
    if tolerance is None:
        return "compared, not gated"
    outcome = "refused" if kept.get("refused") else "failed" if kept.get("failed") else "passed"
    # A judgement kept by an older tuibench gated on every tested metric and names none.
    metric = f"{kept['gate_metric']}, " if kept.get("gate_metric") else ""
    return f"gate ({metric}{tolerance:g} % at the {kept.get('verdict_tier')} tier): {outcome}"


def _side(side: Mapping[str, Any]) -> str:
    label = side.get("session") or "–"
    if side.get("point"):
        label += f"@{side['point']}"
    runs = side.get("runs")
    validity = (side.get("validity") or {}).get("verdict") or "–"
    return f"{label}, {runs} run{'' if runs == 1 else 's'}, {validity}"
