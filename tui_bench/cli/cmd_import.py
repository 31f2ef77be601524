"""`tuibench import FILE`: a tool's saved output turned into a session."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import orjson

from tui_bench.cli.output import say
from tui_bench.errors import UsageError
from tui_bench.parsers import ParseError
from tui_bench.parsers.detect import parse_output
from tui_bench.report.text import result_rows
from tui_bench.storage import store


def cmd_import(args: argparse.Namespace) -> int:
    path = Path(args.file)
    try:
        text = path.read_text(errors="replace")
    except OSError as exc:
        raise UsageError(f"cannot read {path}: {exc.strerror}") from None
    try:
        result = parse_output(text, args.tool)
    except ParseError as exc:
        raise UsageError(f"{path}: {exc}") from None
    saved = None
    if args.save or not args.json:
        saved = store.save_imported(result, text, source=path, name=args.name, tags=args.tag)
    if args.json:
        payload: dict[str, Any] = result.to_dict()
        if saved is not None:
            payload["session_path"] = str(saved)
        say(orjson.dumps(payload).decode())
    else:
        for label, value in result_rows(result):
            say(f"{label:<10} {value}")
        say(f"session    {saved}")
    return 0
