"""`tuibench sweep`: a plan prepared, run and judged by the job layer, watched in the
sweep view or as a line per run; its summary on standard output."""

from __future__ import annotations

import argparse
import asyncio
import copy
import sys
from collections.abc import Awaitable
from typing import TYPE_CHECKING, TextIO

from tui_bench.cli.args import label_parser
from tui_bench.cli.ci_reports import check_junit, sweep_reports
from tui_bench.cli.output import headless_note, report_lines, wants_app
from tui_bench.cli.run_flags import request_from_args, settings_of
from tui_bench.records.warning import Warning
from tui_bench.request.sweep_plan import (
    SweepPlan,
    Variant,
    build_plan,
    parse_label,
    parse_ramp,
    parse_vary,
    sweep_summary,
)
from tui_bench.spec import TOOLS

# The engine, the job layer and the reports are imported where they are used: the sweep
# screen's stand-in frame is up before them (`ui.launch.run_sweep`).
if TYPE_CHECKING:
    from tui_bench.engine.events import Event
    from tui_bench.engine.sweep import SweepEvent, SweepFinished
    from tui_bench.jobs.sweep_job import SweepJob


def cmd_sweep(args: argparse.Namespace) -> int:
    plan = plan_from_args(args)
    common = request_from_args(args, check=False)
    check_junit(args)

    def prepare() -> Awaitable[SweepJob]:
        from tui_bench.jobs.sweep_job import prepare_sweep

        return prepare_sweep(
            plan,
            common,
            settings_of(args),
            cool_down_s=args.cool_down,
            slo=args.slo,
            argv=("tuibench", *sys.argv[1:]),
        )

    async def sweep() -> tuple[int, SweepFinished | None]:
        if wants_app(args):
            from tui_bench.ui.launch import UiOptions, run_sweep

            tools = ", ".join(dict.fromkeys(p.spec.tool for p in plan.points))
            what = f"{sweep_summary(plan, args.cool_down)} · {tools}"
            target = plan.record().target()
            return await run_sweep(prepare, what, (target,), UiOptions.from_args(args))
        from tui_bench.cli.stop_signals import until_done

        job = await prepare()
        headless_note(args, "sweep")
        report_lines(job.notes, sys.stderr)
        return 0, await until_done(job.runner(SweepPrinter()))

    code, finished = asyncio.run(sweep())
    if finished is None:
        return code
    import orjson

    from tui_bench.report.exit_codes import sweep_exit_code
    from tui_bench.report.sweep_report import sweep_payload, sweep_summary_lines

    if args.json:
        report_lines([orjson.dumps(sweep_payload(finished)).decode()], sys.stdout)
    report_lines(sweep_summary_lines(finished), sys.stderr if args.json else sys.stdout)
    return sweep_reports(args, sweep_exit_code(finished), finished)


def plan_from_args(args: argparse.Namespace) -> SweepPlan:
    """The sweep the flags ask for; UsageError for the first clause or point that cannot run."""
    dimensions = [
        parse_vary(text) if flag == "--vary" else parse_ramp(text) for flag, text in args.dimensions
    ]
    return build_plan(sweep_variants(args), dimensions, args.repeat)


# Options of which a labelled command may set one: setting it clears the common others.
_EXCLUSIVE = (("requests", "duration"), ("server_pid", "server_name", "no_server"))


def sweep_variants(args: argparse.Namespace) -> list[Variant]:
    """The common configuration, or one per `--label NAME=ARGS` (ARGS over the common)."""
    if not args.labels:
        return [_variant(None, args)]
    variants = []
    for text in args.labels:
        name, argv = parse_label(text)
        labelled = label_parser().parse_args(argv, namespace=copy.deepcopy(args))
        for group in _EXCLUSIVE:
            given = [k for k in group if getattr(labelled, k) != getattr(args, k)]
            for key in group if given else ():
                if key not in given:
                    setattr(labelled, key, False if key == "no_server" else None)
        variants.append(_variant(name, labelled))
    return variants


def _variant(label: str | None, args: argparse.Namespace) -> Variant:
    paths = {tool: getattr(args, f"{tool}_path") for tool in TOOLS}
    return Variant(label, request_from_args(args, check=False), paths)


class SweepPrinter:
    """One line per run of a sweep on stderr, and each kind of warning once."""

    def __init__(self, out: TextIO = sys.stderr) -> None:
        from tui_bench.cli.progress import ProgressPrinter

        self._lines = ProgressPrinter(out)
        self._warned: set[str] = set()

    def __call__(self, event: Event | SweepEvent) -> None:
        from tui_bench.engine.sweep import SweepRunFinished
        from tui_bench.report.text import run_line

        if isinstance(event, Warning) and event.code not in self._warned:
            self._warned.add(event.code)
            self._lines(event)
        elif isinstance(event, SweepRunFinished):
            self._lines.write(run_line(event))
