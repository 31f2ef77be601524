"""A saved run (or each run of a sweep) as an OpenMetrics text file, which
`promtool tsdb create-blocks-from openmetrics` loads into Prometheus at the run's own time:
the same series, labels and stamps as the live push."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from tui_bench.errors import SessionError
from tui_bench.histogram import LatencyHistogram
from tui_bench.metrics.catalogue import (
    FAMILIES,
    LATENCY_HISTOGRAM,
    SERIES,
    Family,
    Labels,
    RunLabels,
    SeriesTotals,
    generator_label,
    histogram_points,
    load_at,
    segment_loads,
    started_s,
)
from tui_bench.storage.minutes import MINUTE_S
from tui_bench.storage.session import Session


def run_labels(session: Session) -> RunLabels:
    started = session.started_at
    if started is None:
        raise SessionError(f"{session.id} keeps no start time: its seconds cannot be dated")
    hosts = session.doc.get("generator_hosts") or ()
    spec = session.spec
    return RunLabels(
        session=session.id,
        name=session.name,
        tool=spec.tool,
        protocol=spec.expected_protocol,
        generator=generator_label(str(h) for h in hosts),
        started_s=started_s(started),
    )


class _ColumnRow(Mapping[str, Any]):
    """Row `index` of a session's columns, read in place: a day's export builds no dict
    per second per series."""

    def __init__(self, columns: Mapping[str, Sequence[Any]], index: int) -> None:
        self._columns = columns
        self._index = index

    def __getitem__(self, name: str) -> Any:
        return self._columns[name][self._index]

    def __iter__(self) -> Iterator[str]:
        return iter(self._columns)

    def __len__(self) -> int:
        return len(self._columns)


def _rows(columns: Mapping[str, Sequence[Any]]) -> Iterator[Mapping[str, Any]]:
    for index in range(len(columns.get("t_s") or ())):
        yield _ColumnRow(columns, index)


def label_text(labels: Labels) -> str:
    def escaped(value: str) -> str:
        return value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")

    return ",".join(f'{k}="{escaped(v)}"' for k, v in labels)


def _number(value: float) -> str:
    return str(int(value)) if value.is_integer() and abs(value) < 2**53 else repr(value)


def _family_lines(family: Family, runs: Sequence[Session]) -> Iterator[str]:
    yield f"# TYPE {family.name} {family.kind}\n"
    if family.unit:
        yield f"# UNIT {family.name} {family.unit}\n"
    yield f"# HELP {family.name} {family.help}\n"
    for run in runs:
        named = run_labels(run)
        if family == LATENCY_HISTOGRAM:
            yield from _histogram_lines(run, named)
            continue
        loads = segment_loads(run.segments)
        for series in (s for s in SERIES if s.family == family):
            labels = label_text(named.labels() + series.labels)
            totals = SeriesTotals()
            for row in _rows(run.series_columns):
                value = totals.value(series, row, load_at(loads, row))
                if value is not None:
                    stamp = named.stamp_ms(row) / 1000
                    yield f"{family.sample_name}{{{labels}}} {_number(value)} {stamp:.3f}\n"


def _histogram_lines(run: Session, named: RunLabels) -> Iterator[str]:
    """The run's latency so far at the end of each minute it keeps a histogram of (the
    last one: at the end of its last second), as the live push says it then."""
    last = run.measured_end_s
    if last is None:
        return
    so_far = LatencyHistogram()
    for minute in run.minutes:
        so_far.merge(minute.histogram)
        stamp = named.at_ms(min(minute.start_s + MINUTE_S, last))
        for name, labels, value in histogram_points(so_far):
            text = label_text(named.labels() + labels)
            yield f"{name}{{{text}}} {_number(value)} {stamp / 1000:.3f}\n"


def openmetrics_lines(session: Session) -> Iterator[str]:
    """Every family in turn (OpenMetrics keeps a family's samples together), each series'
    samples in time order, a line at a time (a day's run is hundreds of MB of them); a
    sweep's runs each under their own `session` label. SessionError at once for a run
    with nothing to export."""
    runs = session.runs if session.is_sweep else [session]
    if not any(run.series_columns.get("t_s") for run in runs):
        raise SessionError(f"{session.id} has no second measured: nothing to export")
    for run in runs:
        run_labels(run)

    def lines() -> Iterator[str]:
        for family in FAMILIES:
            yield from _family_lines(family, runs)
        yield "# EOF\n"

    return lines()
