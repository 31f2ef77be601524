"""What a finished run or sweep is judged on beside its validity: its thresholds and its
baseline. Judged once, when it ends, and kept in its session; every view (the live result,
the sweep view, a replay, the headless summary, `--json`, the md export) shows these."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from tui_bench.analysis.regression import Judgement
from tui_bench.analysis.sweep_points import latency_keys, point_verdicts, run_values
from tui_bench.analysis.thresholds import Threshold, evaluate
from tui_bench.records.sweep_point import SweepPoint
from tui_bench.records.threshold import ThresholdVerdict
from tui_bench.storage.session import Session
from tui_bench.storage.threshold_codec import threshold_record


@dataclass(frozen=True)
class BaselineVerdict:
    """The judgement against the baseline as the session keeps it (`Judgement.to_dict`)
    with the lines that say it, so that a saved one reads as it did when it was made."""

    record: Mapping[str, Any]

    @classmethod
    def of(cls, judgement: Judgement, *, sweep: bool) -> BaselineVerdict:
        return cls(judgement.to_dict(sweep=sweep) | {"lines": judgement.lines()})

    @property
    def failed(self) -> bool:
        """The gated metric regressed beyond the tolerance."""
        return bool(self.record.get("failed"))

    @property
    def refused(self) -> tuple[str, ...]:
        return tuple(str(line) for line in self.record.get("refused") or ())

    @property
    def lines(self) -> tuple[str, ...]:
        return tuple(str(line) for line in self.record.get("lines") or ())


@dataclass(frozen=True)
class Verdicts:
    """Each threshold's verdict (a sweep's: one per point that ran, with `point` and
    `name`), and the judgement against the baseline (None: no baseline asked)."""

    thresholds: tuple[ThresholdVerdict, ...] = ()
    baseline: BaselineVerdict | None = None

    @property
    def failed(self) -> bool:
        """A threshold failed or the gated metric regressed (exit status 99)."""
        failed_threshold = any(not v.passed for v in self.thresholds)
        return failed_threshold or bool(self.baseline and self.baseline.failed)

    def end_fields(self) -> dict[str, Any]:
        """What the session keeps of them."""
        fields: dict[str, Any] = {}
        if self.thresholds:
            fields["thresholds"] = [threshold_record(v) for v in self.thresholds]
        if self.baseline is not None:
            fields["baseline"] = dict(self.baseline.record)
        return fields

    @classmethod
    def of_session(cls, session: Session) -> Verdicts:
        """What a saved session says of them (an older one's baseline has no lines)."""
        baseline = session.baseline
        return cls(session.thresholds, BaselineVerdict(baseline) if baseline else None)


def run_thresholds(thresholds: Sequence[Threshold], run: Session) -> tuple[ThresholdVerdict, ...]:
    """Every threshold against one run's session."""
    if not thresholds:
        return ()
    values = run_values(run, latency_keys(thresholds))
    # A percentile of a histogram merged from quantile tables is said to be approximate.
    approx = run.approx
    return tuple(
        replace(v, approx=True)
        if approx and v.actual is not None and v.metric.startswith("p")
        else v
        for v in evaluate(thresholds, values)
    )


def sweep_thresholds(
    thresholds: Sequence[Threshold], points: Sequence[SweepPoint]
) -> tuple[ThresholdVerdict, ...]:
    """Every threshold against every point of a sweep that ran."""
    return tuple(point_verdicts(points, thresholds))
