"""What a command leaves for CI beside its exit status: `--junit FILE` (a JUnit XML report
of its checks) and, in GitHub Actions, its markdown summary appended to the job's summary
(`GITHUB_STEP_SUMMARY`). Reports are written after the run: one that cannot be written is
said in one line and fails the command (exit 2), the session being kept all the same."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from tui_bench.cli.output import say
from tui_bench.errors import UsageError

if TYPE_CHECKING:
    from tui_bench.engine.events import RunFinished
    from tui_bench.engine.sweep import SweepFinished
    from tui_bench.report.junit import Suite

STEP_SUMMARY = "GITHUB_STEP_SUMMARY"


def add_junit_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--junit",
        metavar="FILE",
        help="write a JUnit XML report: a test case per validity check, threshold and gate "
        "(written over, as test runners do)",
    )


def check_junit(args: argparse.Namespace) -> None:
    """Before any load: a report that could not be written is said now, not after."""
    junit = getattr(args, "junit", None)
    if not junit:
        return
    path = Path(junit).expanduser().absolute()
    if path.is_dir():
        raise UsageError(f"--junit {junit}: is a directory: name the report's file")
    if not path.parent.is_dir():
        raise UsageError(f"--junit {junit}: no such directory")


def write_reports(
    args: argparse.Namespace,
    code: int,
    title: str,
    suites: Callable[[], Sequence[Suite]],
    markdown: Callable[[], str],
) -> int:
    """The command's exit status, 2 in place of 0 when a report could not be written."""
    from tui_bench.redaction import redact_text

    failed = False
    junit = getattr(args, "junit", None)
    if junit:
        from tui_bench.report.junit import junit_xml
        from tui_bench.storage.atomic import write_atomic

        path = Path(junit).expanduser().absolute()
        try:
            xml = redact_text(junit_xml(suites(), title))
            write_atomic(path, xml.encode(), private=False)
        except OSError as exc:
            say(f"tuibench: error: cannot write {path}: {exc.strerror or exc}", sys.stderr)
            failed = True
    summary = os.environ.get(STEP_SUMMARY)
    if summary:
        try:
            with open(summary, "a", encoding="utf-8") as out:
                out.write(redact_text(markdown()).rstrip("\n") + "\n\n")
        except OSError as exc:
            say(f"tuibench: error: cannot append to {summary}: {exc.strerror or exc}", sys.stderr)
            failed = True
    return UsageError.exit_code if failed and code == 0 else code


def run_reports(args: argparse.Namespace, code: int, finished: RunFinished) -> int:
    from tui_bench.report.junit import run_suite

    session = finished.session
    name = (session.name or session.id) if session else finished.session_path.stem

    def markdown() -> str:
        from tui_bench.report.export import export

        if session is None:
            return f"## tuibench run {name}\n\n{finished.status}: {finished.message or ''}"
        return export(session, "md")

    return write_reports(
        args,
        code,
        f"tuibench run {name}",
        lambda: [run_suite(name, finished.validity, finished.verdicts)],
        markdown,
    )


def sweep_reports(
    args: argparse.Namespace, code: int, finished: SweepFinished, capacity: Sequence[str] = ()
) -> int:
    """A sweep's, or a capacity search's (`capacity`: its summary lines, failing its case
    when no rate held)."""
    from tui_bench.report.junit import Case, Suite, held_text, step_name, sweep_suites

    session = finished.session
    name = session.name or session.id

    def suites() -> list[Suite]:
        if not capacity:
            return sweep_suites(session, finished.verdicts)
        # A step past capacity is what the search looks for, not a failure: only finding
        # none fails, as the exit status does.
        classname = f"tuibench.capacity.{name}"
        steps = [
            Case(step_name(session, p), classname, output=held_text(p)) for p in session.points
        ]
        text = "\n".join(capacity)
        found = Case("capacity", classname, failure=text if code else None, output=text)
        return [Suite("capacity", (*steps, found))]

    def markdown() -> str:
        from tui_bench.report.export import export

        lines = "\n".join(capacity)
        found = f"\n## Capacity\n\n```\n{lines}\n```\n" if capacity else ""
        return export(session, "md") + found

    kind = "capacity" if capacity else "sweep"
    return write_reports(args, code, f"tuibench {kind} {name}", suites, markdown)
