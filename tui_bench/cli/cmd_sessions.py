"""`tuibench sessions`: every saved session, one line each (or `--json`)."""

from __future__ import annotations

import argparse

import orjson

from tui_bench.cli.output import say
from tui_bench.formats import fmt_count, fmt_latency
from tui_bench.report.text import text_table
from tui_bench.storage import store
from tui_bench.storage.index import indexed


def cmd_sessions(args: argparse.Namespace) -> int:
    entries = indexed()
    if args.json:
        rows = [
            {**e.head, "path": str(e.path)} if e.head else {"path": str(e.path), "error": e.error}
            for e in entries
        ]
        say(orjson.dumps(rows).decode())
        return 0
    if not entries:
        say(f"no sessions in {store.sessions_dir()}")
        return 0
    table = [("id", "status", "validity", "tool", "url", "c", "req/s", "p99", "tags")]
    for entry in entries:
        row = entry.head
        if row is None:
            table.append((entry.path.name, "unreadable", "", "", entry.error or "", "", "", "", ""))
            continue
        table.append(
            (
                row["id"],
                row["status"],
                row["validity"] or "–",
                row["tool"],
                row["url"],
                str(row["c"]),
                fmt_count(row["rps"]),
                fmt_latency(row["p99_s"]),
                ",".join(row["tags"]),
            )
        )
    for line in text_table(table):
        say(line)
    return 0
