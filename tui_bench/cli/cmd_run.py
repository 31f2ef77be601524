"""`tuibench run` and `tuibench demo`: a run prepared, run and judged by the job layer,
watched in the app or as progress lines; its summary on standard output."""

from __future__ import annotations

import argparse
import asyncio
import sys
from typing import TYPE_CHECKING

from tui_bench.cli.ci_reports import check_junit, run_reports
from tui_bench.cli.output import headless_note, report_lines, say, wants_app
from tui_bench.cli.run_flags import request_from_args, settings_of
from tui_bench.request.run import RunRequest
from tui_bench.spec import RunSpec

# The engine, the job layer and the reports are imported where they are used: the live
# screen's first frame is up before them (`ui.launch.live_run`).
if TYPE_CHECKING:
    from tui_bench.engine.events import RunFinished
    from tui_bench.jobs.run_job import RunJob


def cmd_run(args: argparse.Namespace) -> int:
    request = request_from_args(args)
    check_junit(args)
    code, finished = asyncio.run(_run(request, args))
    if finished is None:
        return code
    return run_reports(args, finish_run(finished, request.spec, as_json=args.json), finished)


async def _run(
    request: RunRequest, args: argparse.Namespace, note: str | None = None
) -> tuple[int, RunFinished | None]:
    """Prepare the run (refused before any load), then run it in the app or headless; the
    exit status when the app was left before it ended, and how it ended."""
    if wants_app(args):
        from tui_bench.ui.launch import UiOptions, run_live

        return await run_live(request, settings_of(args), UiOptions.from_args(args), note=note)
    from tui_bench.jobs.run_job import prepare_run

    job = await prepare_run(request, settings_of(args))
    headless_note(args, args.command)
    report_lines(job.notes, sys.stderr)
    if note:
        say(note, sys.stderr)
    return 0, await run_headless(job)


async def run_headless(job: RunJob) -> RunFinished:
    from tui_bench.cli.progress import ProgressPrinter
    from tui_bench.cli.stop_signals import until_done

    return await until_done(job.controller(ProgressPrinter(spec=job.spec)))


def finish_run(finished: RunFinished, spec: RunSpec, *, as_json: bool) -> int:
    """The result on standard output (JSON, or the summary with its verdicts); with JSON
    the verdict lines go to standard error, for whoever watches."""
    import orjson

    from tui_bench.cli.progress import summary_text
    from tui_bench.report.exit_codes import run_exit_code
    from tui_bench.report.run_report import judged_lines, run_payload

    if as_json:
        report_lines([orjson.dumps(run_payload(finished, spec.tool)).decode()], sys.stdout)
        report_lines(judged_lines(finished), sys.stderr)
    else:
        report_lines([summary_text(finished, spec), *judged_lines(finished)], sys.stdout)
    if finished.unsaved:
        report_lines([f"tuibench: error: {finished.unsaved}"], sys.stderr)
    return run_exit_code(finished)


def cmd_demo(args: argparse.Namespace) -> int:
    from tui_bench.demo.content import describe
    from tui_bench.demo.nginx_target import start_demo_target

    async def demo() -> tuple[tuple[int, RunFinished | None], RunSpec]:
        target = await start_demo_target()
        try:
            url = target.urls.get("h2c") or target.urls["h1"]
            spec = RunSpec(
                urls=(url,),
                connections=16,
                duration_s=args.duration,
                streams=10 if "h2c" in target.urls else None,
                h1="h2c" not in target.urls,
            ).validate()
            request = RunRequest(
                spec, server_mode="pid", server_pid=target.pid, name="demo", tags=("demo",)
            )
            what = describe(target.backend, target.urls)
            if not wants_app(args):
                what = f"{what} (pid {target.pid})"
            return await _run(request, args, note=what), spec
        finally:
            await target.stop()

    (code, finished), spec = asyncio.run(demo())
    return finish_run(finished, spec, as_json=False) if finished else code
