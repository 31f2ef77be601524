"""`tuibench doctor [--host HOST]`: the tools and the limits that spoil runs, here or on
another host."""

from __future__ import annotations

import argparse

from tui_bench.cli.output import say
from tui_bench.remote.ssh import SshHost


def cmd_doctor(args: argparse.Namespace) -> int:
    from tui_bench.doctor import format_checks, run_checks, run_checks_on

    if args.host:
        host = SshHost.parse(args.host)
        say(f"{host}:")
        say(format_checks(run_checks_on(host)))
    else:
        say(format_checks(run_checks()))
    return 0
