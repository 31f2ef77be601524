"""What a finished run or sweep is judged on beside its validity: its thresholds and its
baseline. Judged once, when it ends, and kept in its session's end record; every view (the
live result, the sweep view, the headless summary, `--json`, the md export) shows these."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from tui_bench.analysis.regression import Judgement
from tui_bench.analysis.sweep_points import latency_keys, point_verdicts, run_values
from tui_bench.analysis.thresholds import Threshold, evaluate


@dataclass(frozen=True)
class Verdicts:
    """Each threshold's verdict (a sweep's: one per point that ran, with `point` and
    `name`), and the judgement against the baseline (None: no baseline asked)."""

    thresholds: tuple[Mapping[str, Any], ...] = ()
    baseline: Judgement | None = None
    sweep: bool = False

    @property
    def threshold_failed(self) -> bool:
        return any(not v["passed"] for v in self.thresholds)

    @property
    def gate_failed(self) -> bool:
        """A threshold failed or a gated metric regressed: the run is not one to build on."""
        return self.threshold_failed or bool(self.baseline and self.baseline.failed)

    def end_fields(self) -> dict[str, Any]:
        """What the session's end record keeps of them."""
        fields: dict[str, Any] = {}
        if self.thresholds:
            fields["thresholds"] = [dict(v) for v in self.thresholds]
        if self.baseline is not None:
            fields["baseline"] = self.baseline.to_dict(sweep=self.sweep)
        return fields


def run_thresholds(
    thresholds: Sequence[Threshold], doc: Mapping[str, Any]
) -> tuple[dict[str, Any], ...]:
    """Every threshold against one run's session document."""
    if not thresholds:
        return ()
    values = run_values(doc, latency_keys(thresholds))
    return tuple(asdict(v) for v in evaluate(thresholds, values))


def sweep_thresholds(
    thresholds: Sequence[Threshold], points: Sequence[Mapping[str, Any]]
) -> tuple[dict[str, Any], ...]:
    """Every threshold against every point of a sweep that ran."""
    return tuple(point_verdicts(points, thresholds))
