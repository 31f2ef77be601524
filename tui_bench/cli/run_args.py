"""The options of a run and of a sweep (what to load, how, for how long, what to judge it
by) and those every screen command takes. A contract, as the rest of the grammar
(`cli/args.py`)."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from tui_bench.analysis.names import (
    COMPARED,
    DEFAULT_PRIMARY,
    DEFAULT_TOLERANCE_PCT,
    TIERS,
)
from tui_bench.analysis.run_counts import MIN_RUNS
from tui_bench.cli.arg_types import (
    argparse_type,
    connections,
    duration,
    percent,
    positive_int,
    positive_rate,
    threads,
)
from tui_bench.cli.ci_reports import add_junit_option
from tui_bench.cli.request_flags import add_request_options
from tui_bench.errors import UsageError
from tui_bench.request.run_defaults import DEFAULT_REQUEST
from tui_bench.request.sweep_settings import DEFAULT_COOL_DOWN_S
from tui_bench.spec import COMPRESSIONS, MAX_HEADER_BYTES, TOOLS
from tui_bench.typed_values import parse_tolerance_pct
from tui_bench.validity_defaults import DEFAULT_MAX_ERRORS

REF_HELP = "session file, id or id prefix, ID@POINT, or NAME@latest|best|baseline|-N[@POINT]"


def add_run_options(run: argparse.ArgumentParser) -> None:
    # The run form starts from the same values.
    defaults = DEFAULT_REQUEST.spec
    run.add_argument("--tool", choices=TOOLS, default=defaults.tool)
    run.add_argument(
        "-c", "--connections", type=connections, default=defaults.connections, metavar="N"
    )
    run.add_argument("-t", "--threads", type=threads, default=defaults.threads, metavar="N")
    mode = run.add_mutually_exclusive_group()
    mode.add_argument("-n", "--requests", type=positive_int, metavar="N", help="run N requests")
    mode.add_argument(
        "-d",
        "--duration",
        type=duration,
        metavar="S",
        help="run for S seconds (default 10 when -n is not given)",
    )
    run.add_argument(
        "--rate",
        type=positive_rate,
        metavar="R",
        help="h2load: open loop, R requests per second in total (split across -c and the "
        "generators); latency is then measured from when each request was due",
    )
    run.add_argument("--warm-up", type=duration, metavar="S", help="h2load -D: warm-up time")
    run.add_argument(
        "-m",
        "--streams",
        type=positive_int,
        metavar="N",
        help="h2load: concurrent streams per connection",
    )
    run.add_argument("--h1", action="store_true", help="h2load: HTTP/1.1")
    run.add_argument("-k", "--keepalive", action="store_true", help="ab: keep-alive")
    run.add_argument(
        "-H",
        "--header",
        action="append",
        default=[],
        metavar="'K: V'",
        help=f"a request header, at most {MAX_HEADER_BYTES // 1024} KiB",
    )
    run.add_argument("--compress", choices=COMPRESSIONS, help="send Accept-Encoding")
    add_request_options(run)
    server = run.add_mutually_exclusive_group()
    server.add_argument("--server-pid", type=positive_int, metavar="PID")
    server.add_argument("--server-name", metavar="NAME")
    server.add_argument(
        "--no-server", action="store_true", help="do not look for the server from the URL's port"
    )
    run.add_argument(
        "--server-host",
        metavar="[ssh://][user@]HOST[:PORT]",
        help="the server runs there: find and sample it there over SSH",
    )
    run.add_argument(
        "--generator",
        action="append",
        default=[],
        metavar="[ssh://][user@]HOST[:PORT]",
        help="run the load from there (repeatable; 'local' is this machine): "
        "-c and -n are split across the generators",
    )
    run.add_argument(
        "--interval",
        type=duration,
        default=0.5,
        metavar="S",
        help="resource sampling interval (0.1 to 10 s)",
    )
    run.add_argument(
        "--no-live-hook",
        action="store_true",
        help="wrk: no live counts (the Lua request hook costs a little)",
    )
    run.add_argument(
        "--max-errors",
        type=percent,
        default=DEFAULT_MAX_ERRORS,
        metavar="PCT",
        help="a run with more failed requests than this is invalid (default 1%%)",
    )
    run.add_argument("--headless", action="store_true", help="no TUI: progress lines")
    run.add_argument("--json", action="store_true", help="print the result as JSON")
    run.add_argument(
        "--prometheus-remote-write",
        metavar="URL",
        help="push each second's figures to Prometheus as they close "
        "(http://HOST:9090/api/v1/write); a receiver that is down never stops the run",
    )
    add_junit_option(run)
    add_ui_options(run)
    add_labels(run)
    add_tool_paths(run)


def add_sweep_options(sweep: argparse.ArgumentParser) -> None:
    add_run_options(sweep)
    add_threshold_option(sweep)
    add_baseline_options(sweep)
    sweep.add_argument("urls", nargs="*", metavar="URL", help="the URL of every point")
    # --vary and --ramp share one list, so the dimensions keep the order they were given.
    sweep.add_argument(
        "--vary",
        dest="dimensions",
        action="append",
        default=[],
        type=tagged("--vary"),
        metavar="NAME=V1,V2",
        help="vary a parameter over these values",
    )
    sweep.add_argument(
        "--ramp",
        dest="dimensions",
        action="append",
        type=tagged("--ramp"),
        metavar="NAME=MAX/STEPS",
        help="vary a parameter in equal steps up to MAX",
    )
    sweep.add_argument(
        "--label",
        dest="labels",
        action="append",
        default=[],
        metavar="NAME=ARGS",
        help="a labelled command (see above)",
    )
    sweep.add_argument(
        "--repeat", type=positive_int, default=1, metavar="N", help="runs of every point"
    )
    sweep.add_argument(
        "--cool-down",
        type=duration,
        default=DEFAULT_COOL_DOWN_S,
        metavar="S",
        help="pause between runs (default 2 s; 0 for none)",
    )
    sweep.add_argument("--slo", metavar="CLAUSES", help="find the knee: e.g. 'p99<50ms,errors<1%%'")


def tagged(flag: str) -> Callable[[str], tuple[str, str]]:
    def tag(text: str) -> tuple[str, str]:
        return flag, text

    return tag


def add_threshold_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--threshold",
        action="append",
        default=[],
        metavar="EXPR",
        help="fail with exit status 99 unless e.g. 'p99<50ms', 'rps>10000', 'errors<1%%'",
    )


def add_labels(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--name", default="", metavar="NAME")
    parser.add_argument("--tag", action="append", default=[], metavar="TAG")


def add_tool_paths(parser: argparse.ArgumentParser) -> None:
    for tool in (*TOOLS, "nginx"):
        parser.add_argument(
            f"--{tool}", dest=f"{tool}_path", metavar="PATH", help=f"path of {tool}"
        )


def check_interval(value: float) -> float:
    if not 0.1 <= value <= 10:
        raise UsageError(f"--interval {value:g}: must be between 0.1 and 10 seconds")
    return value


def tolerance(text: str) -> float:
    """`5`, `5%`, `2.5 %` -> percent (5.0)."""
    return argparse_type(parse_tolerance_pct, text)


def add_baseline_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--baseline",
        metavar="REF",
        help=f"compare the result with REF when it ends ({REF_HELP})",
    )
    add_gate_options(parser)


def add_gate_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--fail-on-regression",
        nargs="?",
        type=tolerance,
        const=DEFAULT_TOLERANCE_PCT,
        metavar="TOL",
        help="exit 99 when the gated metric (--gate-metric) is worse than the baseline by "
        "more than TOL (default 5%%)",
    )
    parser.add_argument(
        "--gate-metric",
        choices=list(COMPARED),
        default=DEFAULT_PRIMARY,
        metavar="NAME",
        help="the primary metric: tested alone, and the one --fail-on-regression gates on "
        f"(default {DEFAULT_PRIMARY}; one of %(choices)s)",
    )
    parser.add_argument(
        "--verdict",
        choices=TIERS,
        default=None,
        help=f"the verdict tier that fails: tested ({MIN_RUNS}+ runs a side) or likely "
        "(likely worse counts too); default: tested when both sides have the runs for it, "
        "else likely (said in one line)",
    )
    parser.add_argument(
        "--allow-setup-change",
        action="store_true",
        help="gate on a baseline whose tool, version, flags, URL or host differ",
    )


def add_ui_options(parser: argparse.ArgumentParser, *, top: bool = False) -> None:
    """On the top-level parser (`top`) with defaults; on a command without any, so that
    `tuibench --theme X demo` keeps the X the command's own copy would overwrite."""
    default: dict[str, Any] = {} if top else {"default": argparse.SUPPRESS}
    parser.add_argument("--theme", metavar="NAME", help="colour theme (t switches it)", **default)
    parser.add_argument(
        "--no-mouse",
        action="store_true",
        help="ignore the mouse (less traffic over SSH)",
        **default,
    )
    parser.add_argument(
        "--fps",
        type=positive_int,
        metavar="N",
        help="most screen updates a second (SSH: 10)",
        **default,
    )
    parser.add_argument("--basic", action="store_true", help="no big chart (slow links)", **default)
