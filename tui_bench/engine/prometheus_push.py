"""A run's seconds pushed to Prometheus (remote write) as they close, by a thread of their
own: a receiver that is down or slow never holds the event loop, the load or the session.
What cannot be sent waits (at most PENDING_S seconds of it, the oldest dropped first) and
goes once the receiver answers again; each change of its state is told once, as a warning
the front ends show (not kept in the session: it says nothing of the run)."""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Sequence

from tui_bench.engine.events import Event, Listener, RunStarted, SecondClosed, SegmentStarted
from tui_bench.histogram import LatencyHistogram
from tui_bench.metrics.catalogue import (
    SERIES,
    Load,
    RunLabels,
    SeriesTotals,
    histogram_points,
    load_at,
    started_s,
)
from tui_bench.metrics.remote_write import PushRefused, TimeSeries, compressed, post
from tui_bench.records.warning import Warning
from tui_bench.redaction import redact_text
from tui_bench.spec import RunSpec

# The warnings it tells, each once per change of the receiver's state.
FAILED, REFUSED, BACK = "prometheus-push-failed", "prometheus-push-refused", "prometheus-push-back"
TIMEOUT_S = 5.0
# How long an unanswered push waits before it is tried again.
RETRY_S = 2.0
# At most this many seconds of a run wait for a receiver that is down (ten minutes': some
# 12 MB); the session keeps them all, for `export --format openmetrics`.
PENDING_S = 600
# At most this many seconds go in one request.
BATCH_S = 60


class RemoteWrite:
    """Pushes the seconds of every run a command makes (a sweep's each under its own
    `session`) to one receiver."""

    def __init__(self, url: str, *, timeout_s: float = TIMEOUT_S, retry_s: float = RETRY_S):
        self.url = url
        self._timeout_s = timeout_s
        self._retry_s = retry_s
        self._pending: deque[list[TimeSeries]] = deque()
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._drained = threading.Condition(self._lock)
        self._sending = False
        self._thread: threading.Thread | None = None
        self._news: deque[tuple[str, str]] = deque()
        # The receiver as last heard of: None when it takes what is sent, else the code of
        # what went wrong (FAILED, REFUSED) and why.
        self._trouble: tuple[str, str] | None = None
        self.sent = 0
        self.dropped = 0
        self.refused = 0

    def listener(self, inner: Listener, spec: RunSpec, name: str, generator: str) -> Listener:
        return _RunPush(self, inner, spec, name, generator)

    def put(self, second: list[TimeSeries]) -> None:
        with self._lock:
            if len(self._pending) >= PENDING_S:
                self._pending.popleft()
                self.dropped += 1
            self._pending.append(second)
            if self._thread is None:
                self._thread = threading.Thread(target=self._loop, name="remote-write")
                self._thread.daemon = True
                self._thread.start()
        self._wake.set()

    def news(self) -> list[tuple[str, str]]:
        """(code, line) of each change since last asked: it stopped answering, it refuses
        what it is sent, it takes them again."""
        told: list[tuple[str, str]] = []
        while self._news:
            told.append(self._news.popleft())
        return told

    def close(self, wait_s: float) -> str | None:
        """Wait up to `wait_s` for what is pending to go; a line saying what did not."""
        with self._lock:
            # A receiver known to be down is not waited for.
            self._drained.wait_for(
                lambda: self._trouble is not None or not (self._pending or self._sending), wait_s
            )
            unsent, refused, trouble = (
                len(self._pending) + self.dropped,
                self.refused,
                self._trouble,
            )
        if not unsent and not refused:
            return None
        counts = [f"{unsent:,} second(s) of figures not sent"] if unsent else []
        counts += [f"{refused:,} second(s) refused"] if refused else []
        why = f" ({trouble[1]})" if trouble else ""
        return (
            f"prometheus remote write to {redact_text(self.url)}: {', '.join(counts)}{why}; "
            "the session keeps them all (tuibench export SESSION --format openmetrics)"
        )

    def _loop(self) -> None:
        while True:
            self._wake.wait()
            self._wake.clear()
            while True:
                with self._lock:
                    batch = [self._pending[i] for i in range(min(BATCH_S, len(self._pending)))]
                    self._sending = bool(batch)
                    if not batch:
                        self._drained.notify_all()
                        break
                if not self._send(batch):
                    self._wake.wait(self._retry_s)
                    self._wake.clear()

    def _send(self, batch: list[list[TimeSeries]]) -> bool:
        """True when the batch is done with (sent, or refused for good)."""
        url = redact_text(self.url)
        try:
            post(self.url, compressed(_merged(batch)), self._timeout_s)
        except PushRefused as exc:
            self.refused += len(batch)
            self._heard(
                (REFUSED, str(exc)),
                f"prometheus remote write: {url} refuses what it is sent ({exc}): the run "
                "goes on, its session keeps every second",
            )
        # Whatever else went wrong (a receiver down, slow, or not speaking HTTP) is tried
        # again: the sending thread never ends while the run goes on.
        except Exception as exc:
            reason = _why(exc)
            self._heard(
                (FAILED, reason),
                f"prometheus remote write to {url} failed ({reason}): the run goes on, its "
                "session keeps every second, and they are sent once it answers",
            )
            with self._lock:
                self._sending = False
                # Whoever waits to close is not kept waiting for a receiver that is down.
                self._drained.notify_all()
            return False
        else:
            self.sent += len(batch)
            self._heard(None, f"prometheus remote write: {url} takes the seconds again")
        with self._lock:
            # What was sent, unless dropped meanwhile (the oldest go first when too many wait).
            for second in batch:
                if self._pending and self._pending[0] is second:
                    self._pending.popleft()
        return True

    def _heard(self, trouble: tuple[str, str] | None, line: str) -> None:
        """Tell `line` when the receiver's state changed (not once a second)."""
        before, self._trouble = self._trouble, trouble
        if (before[0] if before else None) != (trouble[0] if trouble else None):
            self._news.append((trouble[0] if trouble else BACK, line))


def _why(exc: Exception) -> str:
    """`connection refused`, `timed out`, `HTTP 503: …`: what went wrong, in a few words."""
    cause = getattr(exc, "reason", None) or exc
    if isinstance(cause, OSError) and cause.strerror:
        return cause.strerror.lower()
    return str(cause) or type(cause).__name__


def _merged(batch: Sequence[Sequence[TimeSeries]]) -> list[TimeSeries]:
    """Seconds in order into one series per label set (each series' samples in order)."""
    samples: dict[tuple[tuple[str, str], ...], list[tuple[int, float]]] = {}
    for second in batch:
        for series in second:
            samples.setdefault(series.labels, []).extend(series.samples)
    return [TimeSeries(labels, tuple(s)) for labels, s in samples.items()]


class _RunPush:
    """One run's listener: its seconds to the sender, every event on to `inner`."""

    def __init__(
        self, push: RemoteWrite, inner: Listener, spec: RunSpec, name: str, generator: str
    ):
        self._push = push
        self._inner = inner
        self._spec = spec
        self._name = name
        self._generator = generator
        self._labels: RunLabels | None = None
        self._totals = SeriesTotals()
        # The loads begun lately: a second is pushed once it closes, after the loads of
        # its seconds began.
        self._loads: deque[tuple[float, Load]] = deque(maxlen=16)
        # The run's latency so far: one histogram, whatever the run's length.
        self._latency = LatencyHistogram()

    def __call__(self, event: Event) -> None:
        if isinstance(event, RunStarted):
            # The run's own load until a segment says otherwise (several generators tell
            # none: their load is the run's from start to end).
            self._loads.append((0.0, Load(self._spec.asked_rate, self._spec.connections)))
            self._labels = RunLabels(
                session=event.session_id,
                name=self._name,
                tool=self._spec.tool,
                protocol=self._spec.expected_protocol,
                generator=self._generator,
                started_s=started_s(event.started_at) if event.started_at else time.time(),
            )
        elif isinstance(event, SegmentStarted):
            load = Load(event.running_rps, event.running_connections)
            self._loads.append((event.start_s, load))
        elif isinstance(event, SecondClosed) and self._labels is not None:
            self._push.put(self._second(self._labels, event))
        self._inner(event)
        for code, line in self._push.news():
            self._inner(Warning(code, line))

    def _second(self, labels: RunLabels, event: SecondClosed) -> list[TimeSeries]:
        row = event.row
        load = load_at(self._loads, row)
        stamp = labels.stamp_ms(row)
        named = labels.labels()
        second: list[TimeSeries] = []
        for series in SERIES:
            value = self._totals.value(series, row, load)
            if value is not None:
                name = (("__name__", series.family.sample_name),)
                second.append(TimeSeries(name + named + series.labels, ((stamp, value),)))
        if event.histogram is not None:
            self._latency.merge(event.histogram)
            for sample, bucket, value in histogram_points(self._latency):
                name = (("__name__", sample),)
                second.append(TimeSeries(name + named + bucket, ((stamp, value),)))
        return second
