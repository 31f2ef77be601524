"""The session document: one self-contained, versioned JSON file per run or per sweep.

Loading only parses JSON and checks its shape: nothing in a session is ever executed.

Schema version 2 keeps `series` and `samples` as columns (storage/columns.py: `{name:
[value per row]}`, rounded to what each figure means, a column unknown everywhere left
out), the samples whole for the first 10 minutes then one every 10 s, and adds `minutes`:
`[{"t_s", "histogram", "service_histogram"?}]`, each whole minute's latency histogram packed
(storage/histogram_codec.py). Version 1 (rows, every sample) reads as before.

Keys added within schema version 1, each optional (a document without them stays valid):

- `histogram`: the run's whole latency histogram (`LatencyHistogram.to_dict()`), warm-up
  excluded, for runs whose every request time is known (h2load's request log). Points of a
  sweep merge these; percentiles are never averaged.
- `service_histogram`: a fixed-rate run's (`spec.rate`, h2load `--rps`) request times from
  when each was sent, beside `histogram`, which then holds them from when each was due (the
  run's `latency`; `result.service_latency` is from this one). `result.rate`: the target
  (`target_rps`, `per_client_rps`: what h2load was given), `backlog_end` and, when the rate
  was not held, `backlog_from_s`.
- `message`: why the run did not complete, in one line.
- `validity`: whether the run's figures can be trusted, `{"verdict": "valid" | "suspect" |
  "invalid", "reasons": [{"code", "message"}]}` (`validity`); `max_errors`, the
  share of failed requests it allowed. Sessions without them are judged again when read.
- `raw_times`: when each line of `raw` came, in seconds since the run started (the clock of
  `samples`, to the ms): `{"stdout": [t, ...], "stderr": [t, ...]}`, one time per line of
  that stream (lines end at "\n"), in order. Absent from older sessions and imported ones;
  replay shows the output of those from the start.
- `thresholds`: the verdicts of `--threshold`, each `{"text", "metric", "op", "limit",
  "actual", "passed", "reason"}` (in a sweep also the `point` and its `name`).
- `kind`: `"sweep"` for a sweep; absent for a single run. A sweep holds every run it made:
  `sweep` (the plan: varied parameters, labels, repeat, cool-down, points and run order, SLO,
  thresholds), `runs` (`[{"slot", "point", "repeat", "session": <the run's own session
  document>}]`, in the order they ran), `points` (per-point aggregates of the completed
  runs), `knee` (with `--slo`: the point with the most req/s that meets it). `spec` is the
  first point's, `result` is null (a sweep has no single result) and `series` is empty.
  While a sweep goes, its runs are journaled in `<id>.runs/` beside its journal.
- `generator_hosts` and `generators`: a run of several load generators (`--generator`).
  The document is the merged run (spec with the whole load, the merged series, result and
  histogram; `argv` and `server` are the first generator's); `generators` holds, for each,
  `{"host", "tool", "spec"` (its share of the load)`, "argv", "rps", "share"` (of the req/s)`,
  "client_cpu_mean_pct", "client_bound", "start_skew_s", "clock_offset_s", "stream_bytes"`
  (what came back over ssh)`, "lost"` (why the connection dropped, or null)`, "session"}`,
  the last its own session document. Its runs are journaled in `<id>.runs/` while it goes.
- `redacted`: true when the file was written with its secrets redacted (every file from the
  version that added it on); a file without it is redacted as it is read.
- `redaction`: the version of the rules it was redacted by (none: 1); a file redacted by
  older rules is redacted again as it is read (version 2 found a password ab prints as
  `user:password@host`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

import orjson

from tui_bench.errors import SessionError
from tui_bench.histogram import LatencyHistogram
from tui_bench.records.generator import GeneratorRun
from tui_bench.records.plan import Plan
from tui_bench.records.segment import START, Segment
from tui_bench.records.sweep_point import Knee, SweepPoint, SweepSummary
from tui_bench.records.threshold import ThresholdVerdict
from tui_bench.records.verdict import Validity
from tui_bench.records.warning import Warning
from tui_bench.redaction import RULES, redact
from tui_bench.result import Result
from tui_bench.spec import RunSpec
from tui_bench.storage.columns import columns_of, json_default, last_value, rows_of
from tui_bench.storage.generator_codec import generator_of
from tui_bench.storage.minutes import MinuteHistogram, minutes_of
from tui_bench.storage.segment_codec import segment_of
from tui_bench.storage.series_columns import window_end
from tui_bench.storage.sweep_codec import plan_of, summary_of
from tui_bench.storage.threshold_codec import threshold_of
from tui_bench.validity import judge_run
from tui_bench.validity_defaults import DEFAULT_MAX_ERRORS

SCHEMA = "tuibench.session"
SCHEMA_VERSION = 2
# True in a document whose secrets were redacted as it was written; by which rules.
REDACTED = "redacted"
REDACTION = "redaction"
SWEEP = "sweep"
# The parts of a run's document that are its measured figures, as the journal wrote them.
MEASURED = ("series", "samples", "minutes")


@dataclass(frozen=True)
class Session:
    """A run as stored. `doc` is the JSON document; accessors read the common parts."""

    doc: Mapping[str, Any]
    # Where it was read from; None for a document built in memory.
    path: Path | None = field(default=None, compare=False)

    @property
    def id(self) -> str:
        return str(self.doc["id"])

    @property
    def name(self) -> str:
        return str(self.doc.get("name") or "")

    @property
    def status(self) -> str:
        return str(self.doc.get("status") or "")

    @property
    def tags(self) -> tuple[str, ...]:
        return tuple(str(t) for t in self.doc.get("tags") or ())

    @property
    def notes(self) -> str:
        return str(self.doc.get("notes") or "")

    @property
    def message(self) -> str | None:
        """Why it ended as it did, in one line; None when it completed."""
        message = self.doc.get("message")
        return message if isinstance(message, str) else None

    @property
    def exit_code(self) -> int | None:
        code = self.doc.get("exit_code")
        return code if isinstance(code, int) and not isinstance(code, bool) else None

    @property
    def started_at(self) -> str | None:
        """When it started, as ISO 8601; None when unknown."""
        return _text(self.doc.get("started_at"))

    @property
    def ended_at(self) -> str | None:
        return _text(self.doc.get("ended_at"))

    @property
    def argv(self) -> tuple[str, ...]:
        """The tool's command line as it ran (its secrets redacted once saved)."""
        return tuple(str(a) for a in self.doc.get("argv") or ())

    @property
    def warnings(self) -> tuple[Warning, ...]:
        """Its warnings, each as its record; what a damaged file holds that is none, left out."""
        found = (Warning.of(w) for w in self.doc.get("warnings") or () if isinstance(w, Mapping))
        return tuple(w for w in found if w is not None)

    @property
    def generators(self) -> tuple[GeneratorRun, ...]:
        """The generators of a run of several; empty for one."""
        saved = self.doc.get("generators") or ()
        return tuple(generator_of(g) for g in saved if isinstance(g, Mapping))

    @property
    def thresholds(self) -> tuple[ThresholdVerdict, ...]:
        """Each threshold as it was judged when the run or sweep ended."""
        saved = self.doc.get("thresholds") or ()
        return tuple(threshold_of(v) for v in saved if isinstance(v, Mapping))

    @property
    def baseline(self) -> Mapping[str, Any] | None:
        """Its baseline gate's judgement, as kept; None without a gate."""
        kept = self.doc.get("baseline")
        return kept if isinstance(kept, Mapping) else None

    @property
    def max_errors(self) -> float | None:
        value = self.doc.get("max_errors")
        return float(value) if isinstance(value, int | float) else None

    def listed(self, key: str) -> Sequence[Any] | None:
        """A list it keeps (`samples`, `warnings`), empty when it has none; None when what
        is there is no list (a damaged file)."""
        items: Any = self.doc.get(key) or []
        return list(items) if isinstance(items, list) else None

    def part_text(self, key: str) -> str | None:
        """One of its words as kept (`source`, the file an imported run came from)."""
        return _text(self.doc.get(key))

    def part(self, key: str) -> Mapping[str, Any]:
        """One of its descriptive parts as kept (`tool`, `host`, `server`, `raw`); empty
        when it has none."""
        value = self.doc.get(key)
        return value if isinstance(value, Mapping) else {}

    @property
    def spec(self) -> RunSpec:
        return RunSpec.from_dict(dict(self.doc["spec"]))

    @cached_property
    def result(self) -> Result | None:
        data = self.doc.get("result")
        return Result.from_dict(data) if data else None

    @cached_property
    def series(self) -> list[Mapping[str, Any]]:
        """One row per second (the last one often partial)."""
        rows = rows_of(self.doc.get("series") or [])
        if rows is None:
            raise SessionError(f"session {self.id} is damaged (bad 'series')")
        return rows

    @cached_property
    def series_columns(self) -> dict[str, list[Any]]:
        """The series as columns (as this format keeps it; an older session's rows turned)."""
        columns = columns_of(self.doc.get("series") or [])
        if columns is None:
            raise SessionError(f"session {self.id} is damaged (bad 'series')")
        return columns

    @cached_property
    def samples(self) -> list[Mapping[str, Any]] | None:
        """The resource samples kept (journal.kept_sample); None when what is there is
        neither rows nor columns (a damaged file)."""
        return rows_of(self.doc.get("samples") or [])

    @cached_property
    def minutes(self) -> tuple[MinuteHistogram, ...]:
        """The run's latency a minute at a time (none in a session older than them, or of
        a tool without a request log)."""
        kept = self.doc.get("minutes")
        return minutes_of(kept, self.id) if isinstance(kept, list) else ()

    @property
    def resources(self) -> dict[str, float | None]:
        """The run's resource figures (`sampling.summaries.summarize`) that are numbers:
        anything else in a damaged file is unknown."""
        saved = self.doc.get("resources")
        if not isinstance(saved, Mapping):
            return {}
        return {
            str(k): float(v)
            for k, v in saved.items()
            if isinstance(v, int | float) and not isinstance(v, bool)
        }

    @property
    def kept_resources(self) -> dict[str, float | None] | None:
        """`resources`, or None for a session saved before they were kept (no rows for
        them, rather than rows of unknowns)."""
        return self.resources if isinstance(self.doc.get("resources"), Mapping) else None

    @property
    def validity(self) -> Validity | None:
        """A saved run's verdict: the one it keeps, else judged again from what it recorded;
        None for a sweep (its points have theirs) or a document too damaged to judge."""
        if self.is_sweep:
            return None
        kept = self.doc.get("validity")
        if isinstance(kept, Mapping):
            try:
                return Validity.from_dict(kept)
            except (KeyError, TypeError, ValueError):
                pass
        try:
            spec, result = self.spec, self.result
        except (KeyError, TypeError, ValueError):
            return None
        return judge_run(
            spec,
            self.status,
            self.message,
            result,
            [w.to_dict() for w in self.warnings],
            str(self.part("raw").get("stdout") or ""),
            max_errors=self.max_errors or DEFAULT_MAX_ERRORS,
        )

    @property
    def kind(self) -> str:
        """Either "run" or "sweep"."""
        return str(self.doc.get("kind") or "run")

    @property
    def is_sweep(self) -> bool:
        return self.kind == SWEEP

    @cached_property
    def segments(self) -> tuple[Segment, ...]:
        """The run's stretches under one load; a run never steered (and every session
        saved before segments were kept) is one, its whole. A sweep has none of its own."""
        kept = self.doc.get("segments")
        if isinstance(kept, list):
            try:
                return tuple(segment_of(s) for s in kept)
            except (TypeError, ValueError):
                raise SessionError(f"session {self.id} is damaged (bad 'segments')") from None
        if self.is_sweep:
            return ()
        spec, result, validity = self.spec, self.result, self.validity
        end = self.measured_end_s
        if end is None and result is not None:
            end = result.duration_s
        return (
            Segment(
                start_s=0.0,
                end_s=float(end or 0.0),
                target_rps=spec.asked_rate,
                connections=spec.connections,
                cause=START,
                achieved_rps=result.rps if result else None,
                validity=validity.verdict if validity else None,
            ),
        )

    @property
    def measured_end_s(self) -> float | None:
        """When its last measured second's window ended, in seconds into the run; None
        without a second measured."""
        kept = self.doc.get("series")
        last_t, window = last_value(kept, "t_s"), last_value(kept, "window_s")
        return window_end({"t_s": last_t, "window_s": window}) if last_t is not None else None

    @property
    def approx(self) -> bool:
        """Whether the whole-run histogram was merged from quantile tables."""
        histogram = self.doc.get("histogram")
        return isinstance(histogram, Mapping) and histogram.get(APPROX) is True

    @cached_property
    def histogram(self) -> LatencyHistogram | None:
        """Every request time of the run merged (warm-up excluded); None when unknown."""
        data = self.doc.get("histogram")
        return histogram_of(data, self.id) if data else None

    @cached_property
    def service_histogram(self) -> LatencyHistogram | None:
        """A fixed-rate run's request times from the send; None for any other run."""
        data = self.doc.get("service_histogram")
        return histogram_of(data, self.id) if data else None

    @property
    def runs(self) -> list[Session]:
        """The runs of a sweep, in the order they ran; empty for a single run."""
        return [entry.session for entry in self.entries]

    @cached_property
    def entries(self) -> tuple[SweepEntry, ...]:
        """The runs of a sweep with the point each ran, in the order they ran."""
        return tuple(
            SweepEntry(
                int(run.get("slot", slot)),
                int(run["point"]),
                int(run.get("repeat") or 0),
                Session(run["session"]),
            )
            for slot, run in enumerate(self.doc.get("runs") or [])
        )

    def point_entries(self, index: int) -> list[SweepEntry]:
        """The runs of point `index`, in repeat order."""
        return sorted((e for e in self.entries if e.point == index), key=lambda e: e.repeat)

    @cached_property
    def plan(self) -> Plan:
        """A sweep's plan; empty for a single run."""
        return plan_of(self.doc.get("sweep"))

    @cached_property
    def summary(self) -> SweepSummary:
        """A sweep's points aggregated over its runs, and its knee."""
        return summary_of(self.doc)

    @property
    def points(self) -> tuple[SweepPoint, ...]:
        return self.summary.points

    @property
    def knee(self) -> Knee | None:
        return self.summary.knee

    def to_json(self) -> bytes:
        """The document as saved and exported: its secrets redacted (redaction). Not
        indented: in a day's columns, indenting was over half the file (`jq .` shows it
        indented)."""
        described, figures = self._saved_parts()
        return _dumps({**described, **figures})

    def as_saved(self) -> Session:
        """The session exactly as its file holds it (redacted, plain JSON values), without
        reading the file back. Its figures are this one's own: a day's are 2 million
        values, and its end would otherwise hold them twice."""
        described, figures = self._saved_parts()
        return Session({**orjson.loads(_dumps(described)), **figures}, self.path)

    def _saved_parts(self) -> tuple[dict[str, Any], dict[str, Any]]:
        """What describes the run, redacted, and what it measured: numbers (and packed
        histograms), with nothing to redact."""
        described = redact({k: v for k, v in self.doc.items() if k not in MEASURED})
        figures = {k: self.doc[k] for k in MEASURED if k in self.doc}
        return {**described, REDACTED: True, REDACTION: RULES}, figures


@dataclass(frozen=True)
class SweepEntry:
    """One run of a sweep: the `repeat`-th (from 0) of point `point`, `slot`-th in order."""

    slot: int
    point: int
    repeat: int
    session: Session

    def to_record(self) -> dict[str, Any]:
        return {
            "slot": self.slot,
            "point": self.point,
            "repeat": self.repeat,
            "session": dict(self.session.doc),
        }


# The session's histogram says so of itself when it was merged from the quantile tables of
# several generators' tools (which keep none): its percentiles are approximate.
APPROX = "approx"


def _dumps(doc: Mapping[str, Any]) -> bytes:
    return orjson.dumps(doc, default=json_default, option=orjson.OPT_SERIALIZE_NUMPY)


def histogram_of(data: Any, origin: str) -> LatencyHistogram:
    try:
        return LatencyHistogram.from_dict(data)
    except (KeyError, TypeError, ValueError, AttributeError):
        raise SessionError(f"{origin}: session file is damaged (bad 'histogram')") from None


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None
