"""`tuibench baseline set|show`: pin a run or a sweep point as NAME's baseline
(`NAME@baseline`), and show the pins. `--baseline REF` itself is the job layer's
(jobs/baseline_gate.py)."""

from __future__ import annotations

import argparse
import sys
from datetime import datetime
from pathlib import Path
from typing import Any

import orjson

from tui_bench.analysis.significance import side_of
from tui_bench.errors import TuibenchError, UsageError
from tui_bench.formats import fmt_count, fmt_latency
from tui_bench.storage import refs, store
from tui_bench.storage.refs import Pin


def cmd_baseline(args: argparse.Namespace) -> int:
    directory = store.sessions_dir()
    if args.action == "set":
        located = store.locate(args.ref, directory)
        session = store.load_path(located.path)
        side = side_of(session, located.point)
        validity = side.validity()
        if validity.is_invalid:
            why = "; ".join(r.message for r in validity.reasons)
            raise UsageError(f"{args.ref}: {side.label} is invalid ({why}); not pinned")
        pin = Pin(
            args.name,
            session.id,
            refs.pin_file(directory, located.path),
            side.point,
            args.ref,
            datetime.now().astimezone().isoformat(timespec="seconds"),
        )
        refs.write_pin(directory, pin)
        sys.stderr.write(f"{args.name}@baseline is {pin.label} ({validity.verdict})\n")
        return 0
    pins = refs.read_pins(directory)
    if args.name is not None and args.name not in pins:
        raise UsageError(f"no baseline is pinned for {args.name!r}")
    shown = [pins[args.name]] if args.name is not None else list(pins.values())
    rows = [_pin_row(pin, directory) for pin in shown]
    if args.json:
        sys.stdout.write(orjson.dumps(rows).decode() + "\n")
    elif not rows:
        sys.stdout.write(f"no baselines pinned in {directory}\n")
    for row in rows if not args.json else ():
        figures = f"{fmt_count(row['rps'])} req/s, p99 {fmt_latency(row['p99_s'])}"
        sys.stdout.write(
            f"{row['name']}@baseline  {row['session']}"
            + (f"@{row['point']}" if row["point"] else "")
            + f"  {figures}  {row['validity'] or '–'}  pinned {row['pinned_at']}"
            + (f" from {row['ref']}" if row["ref"] else "")
            + (f"  ({row['error']})" if row.get("error") else "")
            + "\n"
        )
    return 0


def _pin_row(pin: Pin, directory: Path) -> dict[str, Any]:
    """A pin with the figures of the side it names (the median of its runs)."""
    from tui_bench.analysis.compare import METRICS
    from tui_bench.analysis.significance import median_of

    row: dict[str, Any] = {"name": pin.name, **pin.to_dict()}
    row |= {"rps": None, "p99_s": None, "validity": None}
    try:
        located = store.locate(f"{pin.name}@{refs.BASELINE}", directory)
        side = side_of(store.load_path(located.path), located.point)
    except TuibenchError as exc:
        return row | {"error": str(exc)}
    metrics = {m.name: m for m in METRICS}
    return row | {
        "path": str(located.path),
        "rps": median_of(metrics["rps"], side),
        "p99_s": median_of(metrics["p99_s"], side),
        "validity": side.validity().verdict,
    }
