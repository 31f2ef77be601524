"""`--baseline REF` on `run` and `sweep`, and `tuibench baseline set|show`.

The reference is resolved before any load starts (a bad one is one line and exit 2, and
`NAME@latest` means the run before this one); the new result is judged against it when it
ends, and the judgement is kept in the new session under `baseline`.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import orjson

from tui_bench.analysis.regression import Judgement, Tier, judge, pair_sides
from tui_bench.analysis.significance import Side, point_refs, side_of
from tui_bench.errors import TuibenchError, UsageError
from tui_bench.formats import fmt_count, fmt_seconds
from tui_bench.storage import refs, store
from tui_bench.storage.refs import Located, Pin
from tui_bench.storage.session import Session


@dataclass(frozen=True)
class BaselineAsk:
    """What `--baseline`, `--fail-on-regression`, `--verdict` and `--allow-setup-change`
    ask for, with the baseline found."""

    ref: str
    located: Located
    session: Session
    tolerance_pct: float | None
    tier: Tier
    allow_setup_change: bool


def asked_baseline(args: argparse.Namespace) -> BaselineAsk | None:
    """The baseline of a run or sweep, found before it starts; UsageError or SessionError
    (one line, exit 2) for a reference that leads nowhere or to an invalid side."""
    if args.baseline is None:
        if args.fail_on_regression is not None:
            raise UsageError("--fail-on-regression needs --baseline REF")
        return None
    located = store.locate(args.baseline)
    session = store.load_path(located.path)
    many = session.is_sweep and located.point is None and len(point_refs(session)) > 1
    if not many:
        side = side_of(session, located.point)
        validity = side.validity()
        # Only a gate refuses an invalid baseline; a plain comparison warns about it.
        if validity.is_invalid and args.fail_on_regression is not None:
            why = "; ".join(r.message for r in validity.reasons)
            raise UsageError(
                f"--baseline {args.baseline}: {side.label} is invalid ({why}); "
                "a baseline must be a run whose figures can be trusted"
            )
    return BaselineAsk(
        args.baseline,
        located,
        session,
        args.fail_on_regression,
        args.verdict,
        args.allow_setup_change,
    )


def judge_new(ask: BaselineAsk, session_path: Path) -> Judgement:
    """The new session against the baseline, kept in the new session under `baseline`."""
    new = store.load_path(session_path)
    try:
        pairs = pair_sides(ask.session, ask.located.point, new)
    except TuibenchError as exc:
        found = Judgement(ask.ref, (), (), (str(exc),), ask.tolerance_pct, ask.tier)
    else:
        found = judge(
            ask.ref,
            pairs,
            tolerance_pct=ask.tolerance_pct,
            tier=ask.tier,
            allow_setup_change=ask.allow_setup_change,
        )
    store.amend(session_path, {"baseline": found.to_dict(sweep=new.is_sweep)})
    return found


def gate_compare(args: argparse.Namespace, a: Side, b: Side) -> Judgement | None:
    """`tuibench compare A B --fail-on-regression`: B gated against A as `--baseline` gates
    a new result (no screen opens); None without the flag."""
    if args.fail_on_regression is None:
        return None
    return judge(
        args.a,
        [(a, b)],
        tolerance_pct=args.fail_on_regression,
        tier=args.verdict,
        allow_setup_change=args.allow_setup_change,
    )


def say(judgement: Judgement) -> None:
    for line in judgement.lines():
        sys.stderr.write(f"baseline: {line}\n")


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
        figures = f"{fmt_count(row['rps'])} req/s, p99 {fmt_seconds(row['p99_s'])}"
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
