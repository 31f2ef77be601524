"""`tuibench sessions`: every saved session, one line each (or `--json`)."""

from __future__ import annotations

import argparse
import shutil
import sys

import orjson

from tui_bench.cli.on_terminal import is_terminal
from tui_bench.cli.output import say
from tui_bench.formats import fmt_count, fmt_latency
from tui_bench.printable import printable
from tui_bench.report.column_fit import CAPS, DROP_ORDER, elide_end, elide_url, fit_columns
from tui_bench.report.text import text_table
from tui_bench.storage import store
from tui_bench.storage.index import indexed, running
from tui_bench.storage.layout import by_id

# The columns by the keys the sessions browser knows them by, with their headings.
LABELS = {
    "id": "id",
    "status": "status",
    "validity": "validity",
    "tool": "tool",
    "url": "url",
    "c": "c",
    "rps": "req/s",
    "p99": "p99",
    "tags": "tags",
}
GAP = 2
# A printed table cannot scroll sideways as the browser's does: past the browser's rule, the
# figures go too, the validity (whether the others can be trusted) last.
LAST_DROPPED = ("p99", "rps", "validity")


def cmd_sessions(args: argparse.Namespace) -> int:
    entries = sorted([*running(), *indexed()], key=lambda entry: by_id(entry.path), reverse=True)
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
    table: list[tuple[str, ...]] = [tuple(LABELS.values())]
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
    if is_terminal(sys.stdout):
        table = fit_to(table, shutil.get_terminal_size().columns)
    for line in text_table(table):
        say(line)
    return 0


def fit_to(table: list[tuple[str, ...]], width: int) -> list[tuple[str, ...]]:
    """The table within `width` columns, by the sessions browser's rule: the URL and the
    tags cut to their caps, the columns in DROP_ORDER gone, then the URL shortened in its
    path's middle. The id, what other commands are given, is never cut."""
    rows = [{key: printable(cell) for key, cell in zip(LABELS, row, strict=True)} for row in table]
    natural = {key: max(len(row[key]) for row in rows) for key in LABELS}
    # Two spaces between columns, none after the last.
    kept = fit_columns(
        natural, width + GAP, (*DROP_ORDER, *LAST_DROPPED), caps=CAPS, elided=("url",), padding=GAP
    )
    cut = {"url": elide_url, "tags": elide_end}
    return [
        tuple(cut[key](row[key], w) if key in cut else row[key] for key, w in kept.items())
        for row in rows
    ]
