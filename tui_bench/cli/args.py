"""The command line's grammar. A contract: documented in the README, used by scripts."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

from tui_bench import __version__
from tui_bench.analysis.names import (
    CHARTED,
    CURVE,
    RUN_METRICS,
    SWEEP_METRICS,
)
from tui_bench.cli.arg_types import (
    duration,
    positive_int,
    stages,
)
from tui_bench.cli.capacity_args import CAPACITY_DESCRIPTION, add_capacity_options
from tui_bench.cli.ci_reports import add_junit_option
from tui_bench.cli.command_help import (
    COMPARE_DESCRIPTION,
    HISTORY_DESCRIPTION,
    PLOT_DESCRIPTION,
    SWEEP_DESCRIPTION,
)
from tui_bench.cli.run_args import (
    REF_HELP,
    add_baseline_options,
    add_gate_options,
    add_labels,
    add_run_options,
    add_sweep_options,
    add_threshold_option,
    add_tool_paths,
    add_ui_options,
)
from tui_bench.report.export_formats import DEFAULT_FORMAT, FORMATS
from tui_bench.spec import TOOLS

# How argparse begins its message for arguments no option takes.
UNRECOGNIZED = "unrecognized arguments: "


class Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line, not a usage block."""

    def error(self, message: str) -> NoReturn:
        # The prefix of every other error (`tuibench: error:`), the command first in the
        # message as a command's own refusals put it.
        if message.startswith(UNRECOGNIZED):
            message += self._flags_meant(message.removeprefix(UNRECOGNIZED).split())
        program, _, command = self.prog.partition(" ")
        where = f"{command}: " if command else ""
        sys.stderr.write(f"{program}: error: {where}{message}\n")
        sys.exit(2)

    # The arguments being parsed: a mistyped flag is looked for among its command's.
    _argv: Sequence[str] = ()

    def parse_known_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        self._argv = sys.argv[1:] if args is None else list(args)
        return super().parse_known_args(args, namespace)

    def _flags_meant(self, unknown: list[str]) -> str:
        """`; did you mean --duration?` for a mistyped flag (`--durtion`), among the flags
        of this parser and of the command given (argparse leaves them to the top parser)."""
        from tui_bench.storage.refs import did_you_mean

        actions = self._actions
        for action in self._actions:
            if isinstance(action, argparse._SubParsersAction):
                given = next((a for a in self._argv if a in action.choices), None)
                if given is not None:
                    actions = action.choices[given]._actions
        flags = {f for a in actions for f in a.option_strings}
        long_flags = {f for f in flags if f.startswith("--")}
        typed = next((u.partition("=")[0] for u in unknown if u.startswith("--")), None)
        return did_you_mean(typed, long_flags) if typed else ""

    def _check_value(self, action: argparse.Action, value: Any) -> None:
        # A mistyped command: the ones spelt alike, not argparse's list of every one.
        commands = action.choices
        if isinstance(action, argparse._SubParsersAction) and value not in (commands or ()):
            from tui_bench.storage.refs import did_you_mean

            hint = did_you_mean(value, commands or ()) or f" ({self.prog} --help lists them)"
            self.error(f"unknown command {value!r}{hint}")
        super()._check_value(action, value)


def build_parser() -> Parser:
    parser = Parser(prog="tuibench", description="Drive h2load, wrk and ab; keep every run.")
    parser.add_argument("--version", action="version", version=f"tuibench {__version__}")
    # With no command: the home screen (recent sessions, the run form), with these options.
    add_ui_options(parser, top=True)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)

    run = commands.add_parser("run", help="run a load test and save it as a session")
    add_run_options(run)
    run.add_argument(
        "--stages",
        type=stages,
        default=(),
        metavar="RATE:DUR,...",
        help="h2load: go through these rates, each reached linearly over its duration from "
        "the one before (from --rate, else the first holds): '1000:30s,5000:1m,5000:5m'",
    )
    add_threshold_option(run)
    add_baseline_options(run)
    run.add_argument("urls", nargs="+", metavar="URL")

    sweep = commands.add_parser(
        "sweep",
        help="run a grid of configurations, each repeated, as one session",
        description=SWEEP_DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_sweep_options(sweep)

    capacity = commands.add_parser(
        "capacity",
        help="the highest rate held within an SLO, searched below the closed-loop peak",
        description=CAPACITY_DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_run_options(capacity)
    add_capacity_options(capacity)

    demo = commands.add_parser("demo", help="start the built-in demo target and run on it")
    demo.add_argument("--headless", action="store_true", help="print progress lines")
    # Long enough to watch every panel move and take the screen in.
    demo.add_argument("--duration", "-d", type=duration, default=30.0, metavar="S")
    add_ui_options(demo)
    add_tool_paths(demo)

    imp = commands.add_parser("import", help="turn saved tool output into a session")
    imp.add_argument("file", metavar="FILE")
    imp.add_argument("--tool", choices=TOOLS, help="default: detected from the text")
    imp.add_argument("--json", action="store_true", help="print the normalized result")
    imp.add_argument("--save", action="store_true", help="with --json: also save a session")
    add_labels(imp)

    exp = commands.add_parser(
        "export", help="write a session as json, csv, markdown or its minutes' latency"
    )
    exp.add_argument("session", metavar="SESSION", help=REF_HELP)
    exp.add_argument(
        "--format",
        "-f",
        choices=FORMATS,
        help=f"default {DEFAULT_FORMAT} to a file (-o) or a pipe; on a terminal, say which",
    )
    add_output_options(exp, "write it there, not to standard output")

    plot = commands.add_parser(
        "plot",
        help="draw a session's charts in the terminal: a sweep's against what it varied",
        description=PLOT_DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_plot_options(plot)

    replay = commands.add_parser("replay", help="play a saved session back in the live screen")
    replay.add_argument("session", metavar="SESSION", help=REF_HELP)
    add_ui_options(replay)

    compare = commands.add_parser(
        "compare",
        help="two sessions or sweep points side by side (B against A), with verdicts",
        description=COMPARE_DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    compare.add_argument("a", metavar="A", help=f"the baseline: {REF_HELP}")
    compare.add_argument("b", metavar="B", help="what is compared with A, in the same form")
    compare.add_argument(
        "--json", action="store_true", help="print the comparison as JSON instead of the screen"
    )
    compare.add_argument(
        "--format",
        choices=("json", "md"),
        help="print the comparison as JSON or markdown instead of the screen",
    )
    add_output_options(compare, "with --format: write it there, not to standard output")
    add_gate_options(compare)
    add_junit_option(compare)
    add_ui_options(compare)

    add_baseline_command(commands.add_parser("baseline", help="pin a baseline: NAME@baseline"))
    add_history_parser(commands)

    sessions = commands.add_parser("sessions", help="list saved sessions")
    sessions.add_argument("--json", action="store_true")

    doctor = commands.add_parser("doctor", help="check tools and the limits that spoil runs")
    add_tool_paths(doctor)
    doctor.add_argument(
        "--host", metavar="[ssh://][user@]HOST[:PORT]", help="check that host instead, over SSH"
    )
    return parser


def label_parser() -> Parser:
    """The options of one labelled command of a sweep; what it leaves out keeps the value
    of the common options (parse into a copy of their namespace)."""
    parser = Parser(prog="tuibench sweep --label", add_help=False)
    add_run_options(parser)
    parser.add_argument("urls", nargs="*", metavar="URL", default=argparse.SUPPRESS)
    return parser


def add_history_parser(commands: Any) -> None:
    """The `history` command on the subparsers `commands`."""
    history = commands.add_parser(
        "history",
        help="every run of one benchmark (--name) over time, with its change points",
        description=HISTORY_DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    # Optional to argparse: without it, the refusal says where names are found.
    history.add_argument(
        "name", metavar="NAME", nargs="?", help="the benchmark: the --name of its runs"
    )
    history.add_argument("--json", action="store_true", help="print the history as JSON")
    history.add_argument(
        "--format", choices=("json", "csv", "md"), help="print the history in this format"
    )
    add_output_options(history, "with --format: write it there, not to standard output")
    history.add_argument(
        "--headless", action="store_true", help="print the table instead of opening the screen"
    )
    add_ui_options(history)


def add_output_options(parser: argparse.ArgumentParser, what: str) -> None:
    """-o and --force of every command that writes a file: never over one without --force."""
    parser.add_argument("-o", "--output", metavar="FILE", help=what)
    parser.add_argument("--force", action="store_true", help="with -o: overwrite FILE")


def add_plot_options(plot: argparse.ArgumentParser) -> None:
    plot.add_argument("session", metavar="SESSION", help=REF_HELP)
    plot.add_argument(
        "--metric",
        metavar="M,M",
        help=f"what to draw, of {', '.join(CHARTED)}, and for a sweep of rates {CURVE} "
        f"(latency against the req/s achieved; default: {','.join(SWEEP_METRICS)} for a "
        f"sweep, and {CURVE} when it varies rate; {','.join(RUN_METRICS)} for a run)",
    )
    plot.add_argument(
        "--width", type=positive_int, metavar="W", help="columns of each chart (at least 30)"
    )
    plot.add_argument(
        "--height", type=positive_int, metavar="H", help="lines of each chart (at least 8)"
    )
    add_output_options(plot, "write the charts there (100x25, no colour), not to standard output")


def add_baseline_command(parser: argparse.ArgumentParser) -> None:
    actions = parser.add_subparsers(
        dest="action", metavar="ACTION", required=True, parser_class=Parser
    )
    pin = actions.add_parser("set", help="pin REF as NAME's baseline")
    pin.add_argument("name", metavar="NAME")
    pin.add_argument("ref", metavar="REF", help=REF_HELP)
    show = actions.add_parser("show", help="the pinned baseline of NAME (default: every one)")
    show.add_argument("name", metavar="NAME", nargs="?")
    show.add_argument("--json", action="store_true")
