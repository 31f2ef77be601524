"""`tuibench compare A B`: the compare view, or `--format`/`--json`, or with
`--fail-on-regression` B gated against A as `--baseline` gates a new result."""

from __future__ import annotations

import argparse
import asyncio
import sys

import orjson

from tui_bench.analysis.significance import Report, Side, compare_sides, side_of
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
    judged = gated.judgement if gated else None
    # Compared once, for every view of it but the screen (which compares as it opens).
    headless = gated is not None or fmt is not None or bool(args.junit)
    if not headless:
        needs_terminal("compare", "add --format md or --json")
        from tui_bench.ui.launch import UiOptions, run_compare

        code, _ = asyncio.run(run_compare(a, b, UiOptions.from_args(args)))
        return code
    report = judged.reports[0] if judged else compare_sides(a, b, primary=args.gate_metric)
    if fmt is not None:
        text = (
            orjson.dumps(judged.to_dict(sweep=False)).decode() + "\n"
            if judged and fmt == "json"
            else comparison_text(report, fmt)
        )
        write_output(args, text, "comparison", as_is=fmt in EXACT)
    code = 0
    if gated is not None:
        # Standard output holds the comparison (json, md) when asked for.
        for line in verdict_lines(gated.verdicts):
            say(line, sys.stderr)
        code = exit_code(0, gated.verdicts)
    return compare_reports(args, code, report, gated)


def compare_reports(
    args: argparse.Namespace, code: int, report: Report, gated: CompareGate | None
) -> int:
    """The comparison as markdown in a GitHub job's summary; in a JUnit report, the gate
    (failing as the exit status does) or, ungated, the comparison as a case that passes."""
    from tui_bench.report.junit import Case, Suite, gate_case

    title = f"tuibench compare {args.a} {args.b}"

    def markdown() -> str:
        return comparison_text(report, "md")

    def suites() -> list[Suite]:
        if gated is not None and gated.verdicts.baseline is not None:
            case = gate_case(gated.verdicts.baseline, "tuibench.compare")
        else:
            case = Case("compare", "tuibench.compare", output=markdown())
        return [Suite(title, (case,))]

    return write_reports(args, code, title, suites, markdown)


def load_side(ref: str) -> Side:
    """Any reference (a session, `SESSION@POINT`, `NAME@latest` ...) as a side to compare."""
    located = store.locate(ref)
    return side_of(store.load_path(located.path), located.point)
