"""Sessions as JSON (the document as stored), CSV and markdown: for a run, its per-interval
series and its result; for a sweep, its runs and points (storage/sweep_export.py). Pure."""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from tui_bench.errors import SessionError, UsageError
from tui_bench.result import Distribution, Result
from tui_bench.storage import store
from tui_bench.storage.session import SERIES_COLUMNS, Session

FORMATS = ("json", "csv", "md")


def export_to_file(source: Path, fmt: str, target: Path, directory: Path | None = None) -> Path:
    """Write the session in `source` as `fmt` into `target`; the absolute path written.
    TuibenchError (one line) when it cannot, and never over the session file itself."""
    if not source.is_file():
        # Gone since it was listed (store.load would look it up as an id).
        raise SessionError(f"{source.name}: no such session file any more")
    target = target.expanduser().absolute()
    if target.resolve() == source.resolve():
        raise UsageError(f"{target} is the session file itself: choose another file")
    text = export(store.load(source, directory), fmt)
    try:
        target.write_text(text)
    except OSError as exc:
        raise UsageError(f"cannot write {target}: {exc.strerror}") from None
    return target


def export(session: Session, fmt: str) -> str:
    if fmt == "json":
        return session.to_json().decode()
    if session.is_sweep:
        # Imported here: sweep_export builds on this module's formatters.
        from tui_bench.storage.sweep_export import sweep_csv, sweep_markdown

        return sweep_csv(session) if fmt == "csv" else sweep_markdown(session)
    if fmt == "csv":
        return series_csv(session.series)
    return result_markdown(session)


def series_csv(rows: list[Mapping[str, Any]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(SERIES_COLUMNS)
    for row in rows:
        writer.writerow(["" if row.get(c) is None else row[c] for c in SERIES_COLUMNS])
    return out.getvalue()


def fmt_seconds(value: float | None) -> str:
    if value is None:
        return "–"
    if value < 1e-3:
        return f"{value * 1e6:.0f} µs"
    if value < 1:
        return f"{value * 1e3:.2f} ms"
    return f"{value:.2f} s"


def fmt_count(value: float | None, digits: int = 0) -> str:
    return "–" if value is None else f"{value:,.{digits}f}"


def fmt_compact(value: float, digits: int = 3) -> str:
    """`digits` significant digits and a k or M, never an exponent: 43522 -> 43.5k (5
    characters at most with 3 digits; with 2, a count that moves a little each second reads
    the same: 35002 -> 35k). Whole numbers under a thousand stay exact."""
    if not math.isfinite(value):
        return str(value)
    if value == int(value) and abs(value) < 1000:
        return str(int(value))
    magnitude = math.floor(math.log10(abs(value)))
    rounded = round(value, digits - 1 - magnitude)
    for scale, suffix in ((1e6, "M"), (1e3, "k")):
        # After rounding: 999,600 to two digits is 1M, not 1000k.
        if abs(rounded) >= scale:
            return f"{_plain(rounded / scale)}{suffix}"
    return _plain(rounded)


def _plain(value: float) -> str:
    """A float without an exponent or trailing zeros."""
    return f"{value:.6f}".rstrip("0").rstrip(".")


def fmt_bytes(value: float | None) -> str:
    if value is None:
        return "–"
    for unit in ("B", "KiB", "MiB", "GiB"):
        if abs(value) < 1024 or unit == "GiB":
            return f"{value:.0f} {unit}" if unit == "B" else f"{value:.2f} {unit}"
        value /= 1024
    raise AssertionError("unreachable")


def metric_label(metric: str) -> str:
    """A result key as people write it: `p99_9_s` -> `p99.9`, `error_rate` -> `errors`."""
    if metric == "error_rate":
        return "errors"
    return metric.removesuffix("_s").replace("_", ".")


def fmt_metric(metric: str, value: float | None) -> str:
    """A value of the result key `metric` (rps, error_rate, a latency) in its own unit."""
    if metric == "rps":
        return fmt_count(value) + " req/s"
    if metric == "error_rate":
        return "–" if value is None else f"{value * 100:.2f} %"
    return fmt_seconds(value)


def result_rows(result: Result) -> list[tuple[str, str]]:
    """The headline figures of a result as (label, value) pairs, for any text layout."""
    req = result.requests
    rows = [
        ("tool", f"{result.tool} {result.tool_version or ''}".strip()),
        ("protocol", result.protocol or "–"),
        ("duration", fmt_seconds(result.duration_s)),
        ("req/s", fmt_count(result.rps, 2)),
        ("throughput", fmt_bytes(result.bytes_per_s) + "/s"),
        (
            "requests",
            f"{fmt_count(req.total)} total, {fmt_count(req.succeeded)} ok, "
            f"{fmt_count(req.failed)} failed",
        ),
    ]
    if result.status:
        rows.append(("status", ", ".join(f"{v:,} {k}" for k, v in result.status.items())))
    if result.errors:
        rows.append(
            ("errors", ", ".join(f"{v:,} {k}" for k, v in result.errors.items() if v) or "none")
        )
    for label, dist in (
        ("latency", result.latency),
        ("connect", result.connect),
        ("ttfb", result.ttfb),
    ):
        if dist is not None:
            rows.append((label, distribution_text(dist)))
    if result.tls is not None:
        rows.append(("tls", " ".join(x for x in (result.tls.protocol, result.tls.cipher) if x)))
    return rows


def distribution_text(dist: Distribution) -> str:
    parts = [f"min {fmt_seconds(dist.min_s)}", f"mean {fmt_seconds(dist.mean_s)}"]
    for key in ("p50_s", "p90_s", "p99_s", "p99_9_s"):
        if key in dist.percentiles:
            parts.append(f"{metric_label(key)} {fmt_seconds(dist.percentiles[key])}")
    parts.append(f"max {fmt_seconds(dist.max_s)}")
    return ", ".join(parts)


def result_markdown(session: Session) -> str:
    doc = session.doc
    spec = session.spec
    lines = [
        f"# {session.name or session.id}",
        "",
        f"- status: {session.status}",
        f"- url: {' '.join(spec.urls)}",
        f"- started: {doc.get('started_at', '–')}",
        f"- argv: `{' '.join(doc.get('argv') or [])}`",
        "",
        "| metric | value |",
        "| --- | --- |",
    ]
    result = session.result
    if result is None:
        lines.append("| result | none: the tool printed no summary |")
    else:
        lines += [f"| {label} | {value} |" for label, value in result_rows(result)]
    for warning in doc.get("warnings") or []:
        lines.append(f"\n> warning: {warning.get('message')}")
    return "\n".join(lines) + "\n"
