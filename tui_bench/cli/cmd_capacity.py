"""`tuibench capacity`: the search prepared, run and recorded by the job layer as one
sweep session, a line per run and per step chosen on stderr; the capacity on stdout."""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Awaitable
from typing import TextIO

import orjson

from tui_bench.cli.ci_reports import check_junit, sweep_reports
from tui_bench.cli.cmd_sweep import SweepPrinter
from tui_bench.cli.output import headless_note, report_lines, wants_app
from tui_bench.cli.run_flags import request_from_args, settings_of
from tui_bench.cli.stop_signals import until_done
from tui_bench.engine.events import Event
from tui_bench.engine.sweep import SweepEvent, SweepExtended, SweepFinished
from tui_bench.formats import fmt_count
from tui_bench.jobs.capacity_job import CapacityJob, prepare_capacity
from tui_bench.report.capacity_report import capacity_exit_code, capacity_lines, capacity_payload
from tui_bench.typed_values import format_duration


def cmd_capacity(args: argparse.Namespace) -> int:
    request = request_from_args(args, check=False)
    check_junit(args)

    def prepare() -> Awaitable[CapacityJob]:
        return prepare_capacity(
            request,
            settings_of(args),
            slo=args.slo,
            step_s=args.step_duration,
            repeat=args.repeat,
            resolution=args.resolution,
            cool_down_s=args.cool_down,
            argv=("tuibench", *sys.argv[1:]),
        )

    async def search() -> tuple[int, SweepFinished | None]:
        if wants_app(args):
            from tui_bench.ui.launch import UiOptions, run_sweep

            what = f"capacity search within {args.slo}"
            return await run_sweep(
                prepare, what, tuple(request.spec.urls), UiOptions.from_args(args)
            )
        job = await prepare()
        headless_note(args, "capacity")
        report_lines(job.notes, sys.stderr)
        return 0, await until_done(job.runner(SearchPrinter()))

    code, finished = asyncio.run(search())
    if finished is None:
        return code
    if args.json:
        report_lines([orjson.dumps(capacity_payload(finished)).decode()], sys.stdout)
    lines = capacity_lines(finished)
    report_lines(lines, sys.stderr if args.json else sys.stdout)
    return sweep_reports(args, capacity_exit_code(finished), finished, capacity=lines)


class SearchPrinter(SweepPrinter):
    """A sweep's lines, and one per step the search chooses."""

    def __init__(self, out: TextIO = sys.stderr) -> None:
        super().__init__(out)
        self._out = out

    def __call__(self, event: Event | SweepEvent) -> None:
        super().__call__(event)
        if isinstance(event, SweepExtended):
            first, step = event.plan.points[0].spec, event.plan.points[-1].spec
            line = f"next step: rate={fmt_count(step.rate)} req/s"
            if step.duration_s != first.duration_s and step.duration_s is not None:
                # Stretched so that its p99 rests on enough requests.
                line += f" for {format_duration(step.duration_s)}, enough requests for a p99"
            report_lines([line], self._out)
