"""`tuibench compare A B`: the compare view, or `--format`/`--json`, or with
`--fail-on-regression` B gated against A as `--baseline` gates a new result."""

from __future__ import annotations

import argparse
import asyncio
import sys

import orjson

from tui_bench.analysis.regression import Judgement, judge
from tui_bench.analysis.significance import Side, compare_sides, side_of
from tui_bench.analysis.verdicts import BaselineVerdict, Verdicts
from tui_bench.cli.output import EXACT, needs_terminal, say, write_output
from tui_bench.errors import UsageError
from tui_bench.jobs.baseline_gate import chosen_tier
from tui_bench.report.comparison import comparison_text
from tui_bench.report.exit_codes import exit_code
from tui_bench.report.text import verdict_lines
from tui_bench.storage import store


def cmd_compare(args: argparse.Namespace) -> int:
    fmt = "json" if args.json else args.format
    if args.output and fmt is None:
        raise UsageError("-o needs --format json or md")
    a, b = load_side(args.a), load_side(args.b)
    gated = gate_compare(args, a, b)
    if fmt is not None:
        report = gated.reports[0] if gated else compare_sides(a, b, primary=args.gate_metric)
        text = (
            orjson.dumps(gated.to_dict(sweep=False)).decode() + "\n"
            if gated and fmt == "json"
            else comparison_text(report, fmt)
        )
        write_output(args, text, "comparison", as_is=fmt in EXACT)
    if gated is not None:
        verdicts = Verdicts(baseline=BaselineVerdict.of(gated, sweep=False))
        # Standard output holds the comparison (json, md) when asked for.
        for line in verdict_lines(verdicts):
            say(line, sys.stderr)
        return exit_code(0, verdicts)
    if fmt is not None:
        return 0
    needs_terminal("compare", "add --format md or --json")
    from tui_bench.ui.launch import UiOptions, run_compare

    code, _ = asyncio.run(run_compare(a, b, UiOptions.from_args(args)))
    return code


def load_side(ref: str) -> Side:
    """Any reference (a session, `SESSION@POINT`, `NAME@latest` ...) as a side to compare."""
    located = store.locate(ref)
    return side_of(store.load_path(located.path), located.point)


def gate_compare(args: argparse.Namespace, a: Side, b: Side) -> Judgement | None:
    """B gated against A (no screen opens), at the tier a run's gate would take for these
    run counts; None without --fail-on-regression."""
    if args.fail_on_regression is None:
        return None
    tier, note = chosen_tier(args.verdict, [(len(a.runs), len(b.runs))])
    if note:
        say(f"baseline: {note}", sys.stderr)
    return judge(
        args.a,
        [(a, b)],
        tolerance_pct=args.fail_on_regression,
        tier=tier,
        allow_setup_change=args.allow_setup_change,
        primary=args.gate_metric,
    )
