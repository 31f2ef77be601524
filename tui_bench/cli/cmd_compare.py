"""`tuibench compare A B`: the compare view, or `--format`/`--json`, or with
`--fail-on-regression` B gated against A as `--baseline` gates a new result."""

from __future__ import annotations

import argparse
import asyncio
import sys

import orjson

from tui_bench.analysis.significance import Side, compare_sides, side_of
from tui_bench.cli.ci_reports import check_junit, write_reports
from tui_bench.cli.output import EXACT, needs_terminal, say, write_output
from tui_bench.errors import UsageError
from tui_bench.jobs.compare_gate import CompareGate, gate_compare
from tui_bench.report.comparison import comparison_text
from tui_bench.report.exit_codes import exit_code
from tui_bench.report.text import verdict_lines
from tui_bench.storage import store


def cmd_compare(args: argparse.Namespace) -> int:
    fmt = "json" if args.json else args.format
    if args.output and fmt is None:
        raise UsageError("-o needs --format json or md")
    check_junit(args)
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
        return compare_reports(args, exit_code(0, gated.verdicts), a, b, gated)
    if fmt is not None or args.junit:
        return compare_reports(args, 0, a, b, None)
    needs_terminal("compare", "add --format md or --json")
    from tui_bench.ui.launch import UiOptions, run_compare

    code, _ = asyncio.run(run_compare(a, b, UiOptions.from_args(args)))
    return code


def compare_reports(
    args: argparse.Namespace, code: int, a: Side, b: Side, gated: CompareGate | None
) -> int:
    """The comparison as markdown in a GitHub job's summary; in a JUnit report, the gate
    (failing as the exit status does) or, ungated, the comparison as a case that passes."""
    from tui_bench.report.junit import Case, Suite, gate_case

    report = gated.judgement.reports[0] if gated else compare_sides(a, b, primary=args.gate_metric)
    title = f"tuibench compare {args.a} {args.b}"

    def suites() -> list[Suite]:
        if gated is not None and gated.verdicts.baseline is not None:
            case = gate_case(gated.verdicts.baseline, "tuibench.compare")
        else:
            case = Case("compare", "tuibench.compare", output=comparison_text(report, "md"))
        return [Suite(title, (case,))]

    return write_reports(args, code, title, suites, lambda: comparison_text(report, "md"))


def load_side(ref: str) -> Side:
    """Any reference (a session, `SESSION@POINT`, `NAME@latest` ...) as a side to compare."""
    located = store.locate(ref)
    return side_of(store.load_path(located.path), located.point)
