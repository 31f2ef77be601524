"""`tuibench compare A B`: the compare view, or `--format`/`--json`, or with
`--fail-on-regression` B gated against A as `--baseline` gates a new result."""

from __future__ import annotations

import argparse
import asyncio
import sys

import orjson

from tui_bench.analysis.significance import Side, compare_sides, side_of
from tui_bench.cli.output import EXACT, needs_terminal, say, write_output
from tui_bench.errors import UsageError
from tui_bench.jobs.compare_gate import gate_compare
from tui_bench.report.comparison import comparison_text
from tui_bench.report.exit_codes import exit_code
from tui_bench.report.text import verdict_lines
from tui_bench.storage import store


def cmd_compare(args: argparse.Namespace) -> int:
    fmt = "json" if args.json else args.format
    if args.output and fmt is None:
        raise UsageError("-o needs --format json or md")
    a, b = load_side(args.a), load_side(args.b)
    gated = None
    if args.fail_on_regression is not None:
        # B gated against A: no screen opens.
        gated = gate_compare(
            args.a,
            a,
            b,
            tolerance_pct=args.fail_on_regression,
            asked=args.verdict,
            allow_setup_change=args.allow_setup_change,
            primary=args.gate_metric,
        )
        if gated.note:
            say(f"baseline: {gated.note}", sys.stderr)
    if fmt is not None:
        judged = gated.judgement if gated else None
        report = judged.reports[0] if judged else compare_sides(a, b, primary=args.gate_metric)
        text = (
            orjson.dumps(judged.to_dict(sweep=False)).decode() + "\n"
            if judged and fmt == "json"
            else comparison_text(report, fmt)
        )
        write_output(args, text, "comparison", as_is=fmt in EXACT)
    if gated is not None:
        # Standard output holds the comparison (json, md) when asked for.
        for line in verdict_lines(gated.verdicts):
            say(line, sys.stderr)
        return exit_code(0, gated.verdicts)
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
