"""`tuibench` with no command: the home screen (recent sessions, the run form)."""

from __future__ import annotations

import argparse
import asyncio


def cmd_home(args: argparse.Namespace) -> int:
    from tui_bench.jobs.settings import JobSettings
    from tui_bench.ui.launch import UiOptions, run_home

    code, _ = asyncio.run(run_home(UiOptions.from_args(args), JobSettings()))
    return code
