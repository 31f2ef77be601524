"""Sessions as JSON (the document as stored; an older run with the validity it is given
now), CSV and markdown: for a run, its per-interval series and its result; for a sweep, its
runs and points (report/sweep_export.py); for one point of a sweep, the sweep narrowed to it
(storage/sweep_doc.narrowed). `export` builds the text; `export_to_file` and `write_export`
write it where the user asked, never over an existing file unless forced
(storage/atomic.write_new).
"""

from __future__ import annotations

import shlex
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from tui_bench.errors import SessionError, UsageError
from tui_bench.formats import fmt_count
from tui_bench.histogram import LatencyHistogram
from tui_bench.printable import printable, printable_lines
from tui_bench.records.generator import GeneratorRun
from tui_bench.records.segment import Segment
from tui_bench.report.baseline import baseline_markdown
from tui_bench.report.csv_table import csv_of_columns, csv_text
from tui_bench.report.export_formats import RUN_ONLY
from tui_bench.report.md_tables import threshold_markdown
from tui_bench.report.text import generator_cells, resource_rows, result_rows
from tui_bench.result import percentile_key
from tui_bench.storage import store
from tui_bench.storage.atomic import write_new
from tui_bench.storage.refs import Selection
from tui_bench.storage.series_columns import SERIES_COLUMNS
from tui_bench.storage.session import Session


def export_to_file(
    source: Path, fmt: str, target: Path, directory: Path | None = None, *, force: bool = False
) -> Path:
    """Write the session in `source` as `fmt` into `target`; the absolute path written.
    TuibenchError (one line) when it cannot (see `write_export`)."""
    if not source.is_file():
        # Gone since it was listed (store.load would look it up as an id).
        raise SessionError(f"{source.name}: no such session file any more")
    return write_export(Selection(store.load(source, directory)), fmt, target, force=force)


def write_export(selection: Selection, fmt: str, target: Path, *, force: bool = False) -> Path:
    """Write a session, or one point of a sweep, as `fmt` into `target`; the absolute path
    written. Never over the session file itself, nor over another file unless `force`."""
    target = target.expanduser().absolute()
    source = selection.session.path
    if source is not None and target.resolve() == source.resolve():
        raise UsageError(f"{target} is the session file itself: choose another file")
    return write_new(target, export_chunks(selection.document(), fmt), force=force)


def export(session: Session, fmt: str) -> str:
    if fmt == "json":
        return _with_validity(session).to_json().decode()
    if session.is_sweep and fmt in RUN_ONLY:
        raise UsageError(
            f"{session.id} is a sweep: export it as csv, md, json or openmetrics ({fmt} is a run's)"
        )
    if fmt == "openmetrics":
        return "".join(export_chunks(session, fmt))
    if fmt == "hlog":
        # Imported here: what only this format needs stays out of the other exports.
        from tui_bench.metrics.hlog import hlog_text

        return hlog_text(session)
    if session.is_sweep:
        # Imported here: sweep_export builds on this module's formatters.
        from tui_bench.report.sweep_export import sweep_csv, sweep_markdown

        if fmt == "csv":
            return sweep_csv(session)
        return printable_lines(sweep_markdown(session) + baseline_markdown(session))
    if fmt == "csv":
        return series_csv(session.series_columns)
    if fmt == "minutes":
        return minutes_csv(session)
    if fmt == "segments":
        return segments_csv(session)
    return printable_lines(result_markdown(session) + baseline_markdown(session))


def export_chunks(session: Session, fmt: str) -> Iterable[str]:
    """The export as it is written: OpenMetrics a line at a time (a day's run is hundreds
    of MB), the others whole."""
    if fmt == "openmetrics":
        from tui_bench.metrics.openmetrics import openmetrics_lines

        return openmetrics_lines(session)
    return (export(session, fmt),)


def _validity_text(session: Session) -> str:
    """`invalid (connections-dying: 4 client(s) stopped mid-run …)`."""
    validity = session.validity
    if validity is None:
        return "–"
    reasons = "; ".join(f"{r.code}: {r.message}" for r in validity.reasons)
    return f"{validity.verdict} ({reasons})" if reasons else validity.verdict


def _with_validity(session: Session) -> Session:
    """A run saved before verdicts were kept is exported with the one it is given now."""
    if session.is_sweep or "validity" in session.doc:
        return session
    validity = session.validity
    return Session({**session.doc, "validity": validity.to_dict() if validity else None})


def series_csv(columns: Mapping[str, Sequence[Any]]) -> str:
    return csv_of_columns(SERIES_COLUMNS, columns)


MINUTE_QUANTILES = (50.0, 90.0, 99.0, 99.9)
MINUTE_COLUMNS = (
    "t_s",
    "requests",
    *(percentile_key(q) for q in MINUTE_QUANTILES),
    "max_s",
    # A fixed-rate run's, from when each request was sent (the others: from when it was due).
    "service_p50_s",
    "service_p99_s",
)


def minutes_csv(session: Session) -> str:
    """Each whole minute's latency from its own histogram: a minute's p99 is that of its
    requests, not a mean of its seconds'."""
    minutes = session.minutes
    if not minutes:
        raise SessionError(
            f"{session.id} keeps no minute histograms: its tool keeps no request log (only "
            "h2load does), or it was saved before they were kept"
        )

    def row(
        start_s: int, histogram: LatencyHistogram, service: LatencyHistogram | None
    ) -> list[Any]:
        due = histogram.distribution(MINUTE_QUANTILES)
        sent = service.percentiles_s((50, 99)) if service is not None else [None, None]
        quantiles = [due.percentiles.get(percentile_key(q)) for q in MINUTE_QUANTILES]
        return [start_s, histogram.count, *quantiles, due.max_s, *sent]

    return csv_text(MINUTE_COLUMNS, (row(m.start_s, m.histogram, m.service) for m in minutes))


SEGMENT_COLUMNS = tuple(Segment.__dataclass_fields__)


def segments_csv(session: Session) -> str:
    """Each segment as the session keeps it (`segments`), a row each."""
    return csv_text(
        SEGMENT_COLUMNS,
        ([getattr(s, c) for c in SEGMENT_COLUMNS] for s in session.segments),
    )


def result_markdown(session: Session) -> str:
    spec = session.spec
    lines = [
        f"# {printable(session.name or session.id)}",
        "",
        f"- status: {session.status}",
        f"- validity: {_validity_text(session)}",
        f"- url: {printable(' '.join(spec.urls))}",
        f"- started: {session.started_at or '–'}",
        _argv_line(session),
        "",
        "| metric | value |",
        "| --- | --- |",
    ]
    result = session.result
    if result is None:
        lines.append("| result | none: the tool printed no summary |")
    else:
        lines += [f"| {label} | {value} |" for label, value in result_rows(result, session.spec)]
    lines += [f"| {label} | {value} |" for label, value in resource_rows(session.kept_resources)]
    lines += _generators_markdown(session.generators)
    lines += _segments_markdown(session.segments)
    for warning in session.warnings:
        lines.append(f"\n> warning: {printable(warning.message)}")
    thresholds = threshold_markdown(session.thresholds)
    return "\n".join([*lines, *([""] if thresholds else []), *thresholds]) + "\n"


def _argv_line(session: Session) -> str:
    # A run of several has one argv per generator, each as it ran on its host.
    if session.generators:
        return "- argv: one per load generator, below"
    # Quoted as a shell reads it: pasted back, it runs the same.
    return f"- argv: `{printable(shlex.join(session.argv))}`"


def _segments_markdown(segments: Sequence[Segment]) -> list[str]:
    """A steered run's "Segments" section: each load, what it achieved and its verdict."""
    if len(segments) < 2:
        return []

    def cells(s: Segment) -> list[str]:
        target = "paused" if s.paused else fmt_count(s.target_rps)
        return [
            f"{s.start_s:.3f}–{s.end_s:.3f} s",
            s.cause,
            target,
            str(s.connections or "–"),
            fmt_count(s.achieved_rps),
            s.validity or "–",
        ]

    head = ("time", "cause", "target req/s", "connections", "achieved req/s", "validity")
    return [
        "",
        f"## Segments ({len(segments)})",
        "",
        "| " + " | ".join(head) + " |",
        "|" + " --- |" * len(head),
        *("| " + " | ".join(cells(s)) + " |" for s in segments),
    ]


_GENERATOR_COLUMNS = (
    "host",
    "tool",
    "requests",
    "req/s",
    "share",
    "cpu",
    "client-bound",
    "start skew",
    "lost",
)


def _generators_markdown(saved: Sequence[GeneratorRun]) -> list[str]:
    """A "Load generators" section: a row of figures and the argv as it ran, per generator."""
    if not saved:
        return []
    cells = [generator_cells(g) for g in saved]
    lines = [
        "",
        f"## Load generators ({len(cells)})",
        "",
        "| " + " | ".join(_GENERATOR_COLUMNS) + " |",
        "|" + " --- |" * len(_GENERATOR_COLUMNS),
    ]
    lines += ["| " + " | ".join(c[k] for k in _GENERATOR_COLUMNS) + " |" for c in cells]
    lines.append("")
    lines += [f"- {c['host']}: `{c['argv']}`" for c in cells]
    return lines
