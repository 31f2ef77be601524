"""What a live view shows, folded from the engine's events. Pure: no Textual, no clock.

`apply` runs at event rate (thousands of output lines a second), so it only stores and adds;
everything a painter derives from the state is computed when it asks, at paint rate.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import replace
from itertools import islice
from pathlib import Path
from statistics import fmean
from typing import Any

from tui_bench.analysis.stalls import CountMoves, stalled_live
from tui_bench.engine.events import (
    Event,
    GeneratorsSeen,
    GeneratorView,
    OutputLine,
    Progress,
    ResourcesSampled,
    RunFinished,
    RunStarted,
    SecondClosed,
    SegmentStarted,
)
from tui_bench.engine.folded_series import ChartPoint, FoldedSeries
from tui_bench.printable import printable, printable_line
from tui_bench.records.verdict import CUT_SHORT, SERVER_LOST
from tui_bench.records.warning import Warning
from tui_bench.redaction import redact_text
from tui_bench.result import STATUS_CLASSES, Distribution, Result
from tui_bench.runners.durations import whole_at
from tui_bench.sampling.samples import ResourceSample
from tui_bench.spec import RunSpec
from tui_bench.storage.series_columns import OVERALL_LATENCY_COLUMNS, shown_window, window_end

MAX_ROWS = 600
# A request count's time left is at the mean rate of this many last seconds.
ETA_SECONDS = 10
MAX_LINES = 500
# A ramp of a day starts a segment a second: the chart marks the latest this many.
MAX_MARKS = 600
LATENCY_KEYS = ("p50_s", "p90_s", "p99_s", "max_s")
# The busiest generator thread at this share of a core means the generator, not the server,
# may be what limits the run.
CLIENT_BOUND_PCT = 90.0


class LiveState:
    def __init__(self, spec: RunSpec, *, max_rows: int = MAX_ROWS, max_lines: int = MAX_LINES):
        self.spec = spec
        self.version = 0
        self.session_id: str | None = None
        self.argv: tuple[str, ...] = ()
        self.pid: int | None = None
        # The sampled server ({"pid", "name", "host"?, ...}); None when none is sampled.
        self.server: Mapping[str, Any] | None = None
        self.elapsed_s = 0.0
        self.fraction: float | None = None
        self.done: int | None = None
        self.phase: str | None = None
        # What the connection negotiated, once the tool says (h2load at the start, the
        # others in their summary).
        self.protocol: str | None = None
        self.tls_version: str | None = None
        self.rows: deque[Mapping[str, Any]] = deque(maxlen=max_rows)
        # The whole run's req/s and p99 for the chart, older seconds folded (bounded).
        self.whole = FoldedSeries()
        # Bumped only by new rows, so a chart can skip frames where only text changed.
        self.rows_version = 0
        self.status_totals: dict[str, int] = dict.fromkeys(STATUS_CLASSES, 0)
        # Whether the rows tell status codes at all: wrk's live counts do not.
        self.status_known = False
        self.error_total = 0
        self.sample: ResourceSample | None = None
        self.warnings: list[Warning] = []
        # Why the run was ended early on the server's account (lost, or answering nothing
        # for the stall timeout), from the moment it is said.
        self.cut_short: Warning | None = None
        self.output: deque[OutputLine] = deque(maxlen=max_lines)
        # Counts every line ever seen, so a log pane knows how many of `output` are new.
        self.lines_seen = 0
        self.finished: RunFinished | None = None
        # Each generator of a run of several; empty for a run of one.
        self.generators: tuple[GeneratorView, ...] = ()
        # The load going now (a steered run's changes it), and how many there were.
        self.segment: SegmentStarted | None = None
        self.segments_seen = 0
        # When each segment after the first began, for the chart's marks (the latest kept).
        self.segment_starts: deque[float] = deque(maxlen=MAX_MARKS)
        self._requests_seen = 0.0
        # The count of requests done and when it last moved, by which a stall is told; no
        # silence is counted before it first moves.
        self._count = CountMoves()
        self._seconds_seen = 0.0

    def apply(self, event: Event) -> None:
        if isinstance(event, OutputLine):
            self.output.append(event)
            self.lines_seen += 1
            live = event.live
            if live is not None:
                self.protocol = live.protocol or self.protocol
                self.tls_version = live.tls or self.tls_version
        elif isinstance(event, Progress):
            self.elapsed_s = event.elapsed_s
            if event.done:
                self._count.see(event.done, event.elapsed_s)
            self.fraction = event.fraction
            self.done = event.done
            self.phase = event.phase
        elif isinstance(event, SecondClosed):
            self._add_row(event.row)
        elif isinstance(event, ResourcesSampled):
            self.sample = event.sample
        elif isinstance(event, Warning):
            # Shown as it is saved: a message may quote the URL or a line of output.
            warning = replace(event, message=printable(redact_text(event.message)))
            self.warnings.append(warning)
            if warning.code in CUT_SHORT and self.cut_short is None:
                self.cut_short = warning
        elif isinstance(event, SegmentStarted):
            self.segment = event
            self.segments_seen += 1
            if event.index:
                self.segment_starts.append(event.start_s)
        elif isinstance(event, GeneratorsSeen):
            self.generators = event.generators
        elif isinstance(event, RunStarted):
            self.session_id = event.session_id
            self.argv = event.argv
            self.pid = event.pid
            self.server = event.server
        elif isinstance(event, RunFinished):
            message = event.message and printable(redact_text(event.message))
            self.finished = event = replace(event, message=message)
            if event.result is not None:
                self.protocol = event.result.protocol or self.protocol
                if event.result.tls is not None:
                    self.tls_version = event.result.tls.protocol or self.tls_version
            # The last progress report comes up to a tick before the end of a full run.
            if event.status == "completed":
                self.fraction = 1.0
        self.version += 1

    def _add_row(self, row: Mapping[str, Any]) -> None:
        self.rows.append(row)
        self.rows_version += 1
        point = _chart_point(row)
        if point is not None:
            self.whole.add(point)
        if row.get("rps") is not None:
            # Requests over seconds, so a partial last second weighs what it lasted (a
            # row saved before windows were kept is a whole second of `rps` requests).
            window = row.get("window_s") or 1.0
            requests = row.get("requests")
            self._requests_seen += requests if requests is not None else row["rps"] * window
            self._seconds_seen += window
        self.error_total += row.get("errors") or 0
        for key in STATUS_CLASSES:
            self.status_totals[key] += row.get(key) or 0
        if any(row.get(key) is not None for key in STATUS_CLASSES):
            self.status_known = True

    @property
    def load_spec(self) -> RunSpec:
        """The spec under the load going now: a steered run's rate and connections."""
        segment = self.segment
        if segment is None or segment.paused:
            return self.spec
        return replace(self.spec, rate=segment.target_rps, connections=segment.connections)

    @property
    def target_rps(self) -> float | None:
        """The rate asked for now; 0 while a fixed-rate run's load is paused."""
        segment = self.segment
        if segment is None or self.spec.rate is None:
            return self.spec.asked_rate
        return segment.running_rps

    @property
    def status_counts(self) -> Mapping[str, int] | None:
        """Responses by status class: the tool's summary once it has one, else the rows'
        sums; None while nothing tells them (wrk before its summary): unknown, not 0."""
        result = self.result
        if result is not None and result.status:
            return {key: result.status.get(key, 0) for key in STATUS_CLASSES}
        return self.status_totals if self.status_known else None

    @property
    def errors_seen(self) -> int | None:
        """Requests that failed or got 4xx/5xx so far; None while unknown."""
        result = self.result
        if result is not None and result.error_count is not None:
            return result.error_count
        return self.error_total if self.status_known else None

    @property
    def running(self) -> bool:
        return self.finished is None

    @property
    def status(self) -> str:
        if self.finished is not None:
            return self.finished.status
        return "running" if self.session_id is not None else "starting"

    @property
    def result(self) -> Result | None:
        return self.finished.result if self.finished else None

    @property
    def session_path(self) -> Path | None:
        """Where the run is saved; None while it goes, or when it could not be saved."""
        if self.finished is None or self.finished.unsaved:
            return None
        return self.finished.session_path

    @property
    def last_row(self) -> Mapping[str, Any]:
        return self.rows[-1] if self.rows else {}

    @property
    def server_lost(self) -> bool:
        cut = self.cut_short
        return cut is not None and cut.code == SERVER_LOST

    @property
    def rps_now(self) -> float | None:
        # What a tool counts against a lost server (wrk: its sends) is no server's rate.
        value: float | None = None if self.server_lost else self.last_row.get("rps")
        return value

    @property
    def good_rps_now(self) -> float | None:
        value: float | None = None if self.server_lost else self.last_row.get("good_rps")
        return value

    @property
    def rps_overall(self) -> float | None:
        """The rows' requests over their seconds while it runs; the result's once it ended
        (timed by the tool itself, as every other view of the run shows it)."""
        result = self.result
        if result is not None and result.rps is not None:
            return result.rps
        return self._requests_seen / self._seconds_seen if self._seconds_seen else None

    @property
    def latency(self) -> dict[str, float | None]:
        """Percentiles of the last closed second (a window, never the whole run so far)."""
        row = self.last_row
        return {key: row.get(key) for key in LATENCY_KEYS}

    @property
    def latency_overall(self) -> dict[str, float | None]:
        """p50/p90/p99 of the whole run so far: from the merged histogram of every closed
        second while it runs (the tools with a request log), from the result once it ended."""
        result = self.result
        if result is not None and result.latency is not None:
            percentiles = result.latency.percentiles
            return {key: percentiles.get(key) for key in OVERALL_LATENCY_COLUMNS}
        row = self.last_row
        return {key: row.get(column) for key, column in OVERALL_LATENCY_COLUMNS.items()}

    @property
    def latency_approx(self) -> bool:
        """Whether the whole run's percentiles were merged from quantile tables."""
        result = self.result
        return result is not None and result.latency is not None and result.latency.approx

    @property
    def good_rps_overall(self) -> float | None:
        """Requests that succeeded per second of the run, once it ended (the result's)."""
        result = self.result
        return result.good_rps if result is not None else None

    @property
    def latency_run(self) -> dict[str, float | None]:
        """The ended run's p50, p90, p99 and max, from its result (at a fixed rate, from
        when each request was due); None each while it runs or where the tool said none."""
        return _distribution(self.result.latency if self.result else None, LATENCY_KEYS)

    @property
    def service_latency_run(self) -> dict[str, float | None]:
        """The ended fixed-rate run's p50 and p99 from the send, from its result."""
        result = self.result
        return _distribution(result.service_latency if result else None, ("p50_s", "p99_s"))

    @property
    def resources(self) -> Mapping[str, float | None]:
        """What the run cost the server and the generator over all its samples, once it
        ended (`sampling.summaries.summarize`); empty while it runs."""
        return self.finished.resources if self.finished else {}

    @property
    def service_latency(self) -> dict[str, float | None]:
        """A fixed-rate run's p50 and p99 of the last closed second from the send (`latency`
        is then from when each request was due)."""
        row = self.last_row
        return {key: row.get(f"service_{key}") for key in ("p50_s", "p99_s")}

    @property
    def backlog_now(self) -> int | None:
        """Requests due but not sent at the end of the last closed second (fixed rate)."""
        value: int | None = self.last_row.get("backlog")
        return value

    @property
    def achieved_now(self) -> float | None:
        """Requests sent per second in the last closed second (fixed rate)."""
        value: float | None = self.last_row.get("achieved_rps")
        return value

    @property
    def latency_n(self) -> int | None:
        """How many requests the percentiles shown rest on: the last closed second's while
        it runs, the run's once it ended."""
        result = self.result
        if result is not None:
            requests = result.requests
            return requests.done if requests.done is not None else requests.total
        value: int | None = self.last_row.get("n")
        return value

    @property
    def client_bound(self) -> bool:
        """The generator's busiest thread saturates a core (any generator's, of several)."""
        if self.generators:
            busiest = [g.busiest_thread_pct for g in self.generators if not g.ended]
        else:
            busiest = [self.sample.client_thread_max_pct if self.sample else None]
        return any(b is not None and b >= CLIENT_BOUND_PCT for b in busiest)

    @property
    def stalled(self) -> bool:
        """Nothing has completed for a while although the run still sends (closed loop)."""
        return self.running and stalled_live(self.spec, self.elapsed_s, self._count)

    @property
    def so_far(self) -> tuple[int, float] | None:
        """Until the first second closes: the requests done so far and their rate over the
        run so far, what can be shown at once; None once a second has closed, or while no
        request is known to be done."""
        if self.rows or not self.done or self.elapsed_s <= 0:
            return None
        return self.done, self.done / self.elapsed_s

    @property
    def silent_s(self) -> float | None:
        """How long nothing has completed: the age of the oldest request in flight, at
        least, while the run is stalled; None otherwise."""
        return self._count.silent_s(self.elapsed_s) if self.stalled else None

    @property
    def waiting(self) -> int:
        """Requests in flight while a closed loop is stalled: one per connection and
        stream, each waiting on its answer."""
        return self.spec.connections * (self.spec.streams or 1)

    @property
    def whole_fraction(self) -> float | None:
        """How far the whole run is, warm-up and all: it only grows (a sweep's bar adds it
        to the runs done), where `fraction` fills the warm-up, then the measured window."""
        whole = whole_at(self.spec, self.elapsed_s)
        return self.fraction if whole is None else whole

    @property
    def eta_s(self) -> float | None:
        spec = self.spec
        if self.finished is not None:
            return 0.0
        if spec.planned_s is not None:
            return max(0.0, spec.planned_s - self.elapsed_s)
        # A request count: what is left at the rate of the last seconds (a server that
        # slowed down an hour in is not finished at the pace of its first minutes).
        recent = [r["rps"] for r in islice(reversed(self.rows), ETA_SECONDS) if r.get("rps")]
        if spec.requests and self.done is not None and recent:
            return max(0, spec.requests - self.done) / fmean(recent)
        if self.fraction:
            return self.elapsed_s * (1 - self.fraction) / self.fraction
        return None

    def chart_points(self, span_s: float | None = None) -> list[ChartPoint]:
        """req/s and p99 for the chart: the whole run (older seconds folded), or each
        second of the last `span_s` seconds."""
        if span_s is None:
            return self.whole.shown()
        points = [p for p in map(_chart_point, self.rows) if p is not None]
        start = points[-1].t_s - span_s if points else 0.0
        return [p for p in points if p.t_s > start]

    def series(self, key: str) -> list[float]:
        """One column of the kept rows, without the seconds that have no value."""
        return [row[key] for row in self.rows if row.get(key) is not None]

    def new_lines(self, seen: int) -> Sequence[OutputLine]:
        """Lines after the first `seen` ever received (those still kept)."""
        fresh = min(self.lines_seen - seen, len(self.output))
        lines = islice(self.output, len(self.output) - fresh, None) if fresh > 0 else ()
        # Redacted and escaped here, as they are shown, not where they arrive at event rate:
        # a server's own text (ab's Server Software) may hold ESC sequences.
        return [replace(line, text=printable_line(redact_text(line.text))) for line in lines]


def _distribution(dist: Distribution | None, keys: Sequence[str]) -> dict[str, float | None]:
    if dist is None:
        return dict.fromkeys(keys)
    figures = {**dist.percentiles, "max_s": dist.max_s}
    return {key: figures.get(key) for key in keys}


def _chart_point(row: Mapping[str, Any]) -> ChartPoint | None:
    """A second as the chart draws it; None for one it leaves out (no req/s, a sliver)."""
    if row.get("rps") is None or not shown_window(row):
        return None
    return ChartPoint(
        window_end(row), float(row["rps"]), row.get("p99_s"), row.get("window_s") or 1.0
    )
