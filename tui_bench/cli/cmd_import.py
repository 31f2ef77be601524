"""`tuibench import FILE`: a tool's saved output turned into a session."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import orjson

from tui_bench.cli.output import say
from tui_bench.errors import UsageError
from tui_bench.parsers import ParseError
from tui_bench.parsers.detect import parse_output, target_connections, target_url
from tui_bench.report.text import result_rows
from tui_bench.storage import store

# A tool's saved output is a few kB, a few MB with every line of ab -v or h2load -v: what is
# larger is not one, and is refused having read no more than this (a device like /dev/zero
# never ends).
MAX_IMPORT_BYTES = 8 * 1024 * 1024


def read_bounded(path: Path, limit: int = MAX_IMPORT_BYTES) -> str:
    """The text of `path` if it holds at most `limit` bytes; UsageError (one line) if not."""
    try:
        with path.open("rb") as handle:
            data = handle.read(limit + 1)
    except OSError as exc:
        raise UsageError(f"cannot read {path}: {exc.strerror}") from None
    if len(data) > limit:
        raise UsageError(
            f"{path}: more than {limit // (1024 * 1024)} MB, larger than any tool's output: "
            "not imported"
        )
    return data.decode(errors="replace")


def cmd_import(args: argparse.Namespace) -> int:
    path = Path(args.file)
    text = read_bounded(path)
    try:
        result = parse_output(text, args.tool)
    except ParseError as exc:
        raise UsageError(f"{path}: {exc}") from None
    saved = None
    if args.save or not args.json:
        saved = store.save_imported(
            result,
            text,
            source=path,
            url=target_url(text, result.tool),
            connections=target_connections(text, result.tool),
            name=args.name,
            tags=args.tag,
        )
    if args.json:
        payload: dict[str, Any] = result.to_dict()
        if saved is not None:
            payload["session_path"] = str(saved)
        say(orjson.dumps(payload).decode())
    else:
        for label, value in result_rows(result):
            say(f"{label:<10} {value}")
        say(f"session    {saved}")
        # Judged as any saved run is: what the tool could not tell is said (ab's non-2xx
        # answers may be redirects, which an import cannot ask the URL about).
        validity = store.load(saved).validity if saved is not None else None
        for line in validity.lines() if validity else ():
            say(line)
    return 0
