"""The flags of `run` and `sweep` as what the job layer takes: a RunRequest (its judging
included) and the JobSettings."""

from __future__ import annotations

import argparse
import atexit
import sys
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from tui_bench.cli.output import say
from tui_bench.cli.request_flags import with_request
from tui_bench.cli.run_args import check_interval
from tui_bench.errors import UsageError
from tui_bench.jobs.settings import DEFAULT_INTERVAL_S, JobSettings
from tui_bench.request.judging import Judging
from tui_bench.request.run import RunRequest
from tui_bench.request.run_defaults import run_request, server_mode_of
from tui_bench.spec import TOOLS, RunSpec

if TYPE_CHECKING:
    from tui_bench.engine.prometheus_push import RemoteWrite

# How long tuibench waits as it exits for the last seconds to reach Prometheus.
FLUSH_S = 5.0


def judging_of(args: argparse.Namespace) -> Judging:
    return Judging(
        thresholds=tuple(args.threshold),
        max_errors=args.max_errors,
        baseline=args.baseline,
        fail_on_regression=args.fail_on_regression,
        tier=args.verdict,
        gate_metric=args.gate_metric,
        allow_setup_change=args.allow_setup_change,
    )


def asked_of(args: argparse.Namespace) -> RunRequest:
    """What the flags ask for, as the run form would say it: read, not yet defaulted."""
    spec = RunSpec(
        urls=tuple(args.urls),
        tool=args.tool,
        connections=args.connections,
        threads=args.threads,
        requests=args.requests,
        duration_s=args.duration,
        warm_up_s=args.warm_up,
        streams=args.streams,
        h1=args.h1,
        keepalive=args.keepalive,
        headers=tuple(args.header),
        compress=args.compress,
        rate=args.rate,
        stages=getattr(args, "stages", ()),
    )
    return RunRequest(
        with_request(spec, args),
        server_mode=server_mode_of(args.server_pid, args.server_name, args.no_server),
        server_pid=args.server_pid,
        server_name=args.server_name,
        server_host=args.server_host,
        name=args.name,
        tags=tuple(args.tag),
        generators=tuple(args.generator),
        judging=judging_of(args),
    )


def request_from_args(args: argparse.Namespace, *, check: bool = True) -> RunRequest:
    return run_request(asked_of(args), check=check)


def settings_of(args: argparse.Namespace) -> JobSettings:
    """From the flags of `run`, `sweep` or `demo` (which has only the tool paths)."""
    interval = getattr(args, "interval", None)
    return JobSettings(
        tool_paths={tool: getattr(args, f"{tool}_path") for tool in TOOLS},
        interval_s=DEFAULT_INTERVAL_S if interval is None else check_interval(interval),
        live_hook=not getattr(args, "no_live_hook", False),
        remote_write=remote_write_of(getattr(args, "prometheus_remote_write", None)),
    )


def remote_write_of(url: str | None) -> RemoteWrite | None:
    """The receiver of `--prometheus-remote-write`, checked; what it could not be sent
    by the end is said as tuibench exits (it waits at most FLUSH_S for the last seconds)."""
    if url is None:
        return None
    parts = urlsplit(url)
    try:
        parts.port  # noqa: B018 (read for its check: a port that is not a number)
    except ValueError:
        parts = parts._replace(scheme="")
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise UsageError(
            f"--prometheus-remote-write {url}: not an http(s) URL "
            "(Prometheus takes remote write at http://HOST:9090/api/v1/write)"
        )
    from tui_bench.engine.prometheus_push import RemoteWrite

    push = RemoteWrite(url)

    def flush() -> None:
        line = push.close(FLUSH_S)
        if line:
            say(line, sys.stderr)

    atexit.register(flush)
    return push
