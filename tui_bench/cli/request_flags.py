"""The flags that say what each request is: its method, body and content type."""

from __future__ import annotations

import argparse
import functools
import sys
from dataclasses import replace

from tui_bench.body import MAX_BODY_TEXT, STDIN, Body, read_body
from tui_bench.errors import UsageError
from tui_bench.spec import RunSpec


def add_request_options(run: argparse.ArgumentParser) -> None:
    run.add_argument(
        "-X",
        "--method",
        metavar="M",
        help="the request method (default POST with --body, GET without); ab: GET, POST, PUT",
    )
    run.add_argument(
        "--body",
        metavar="FILE",
        help=f"send FILE's bytes as every request's body, the same to each URL ({STDIN}: "
        f"standard input, read once); at most {MAX_BODY_TEXT}",
    )
    run.add_argument(
        "--content-type",
        metavar="T",
        help="the body's Content-Type (default: from FILE's name, e.g. .json is "
        "application/json; else application/octet-stream)",
    )


@functools.cache
def _read_once(source: str) -> Body:
    # A sweep's labelled commands start from a copy of the same flags: standard input (and
    # each file) is read once for all of them.
    if source == STDIN and sys.stdin.isatty():
        # It would wait for a body typed in, and the app then has no keyboard left.
        raise UsageError(f"--body {STDIN} reads standard input: pipe the body in")
    return read_body(source)


def with_request(spec: RunSpec, args: argparse.Namespace) -> RunSpec:
    """`spec` sending the method and body the flags ask for."""
    body = None if args.body is None else _read_once(args.body)
    asked = replace(spec, method=args.method or None, content_type=args.content_type or None)
    return asked.with_body(body)
