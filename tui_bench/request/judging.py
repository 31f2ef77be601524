"""What a run or a sweep is judged on beside its validity, as the user asks for it: the
CLI's `--threshold`, `--max-errors`, `--baseline`, `--fail-on-regression`, `--verdict`,
`--gate-metric` and `--allow-setup-change`, and the run form's fields of the same names."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from tui_bench.analysis.names import DEFAULT_PRIMARY, TIERS, Tier
from tui_bench.errors import UsageError
from tui_bench.validity_defaults import DEFAULT_MAX_ERRORS

# The threshold grammar is read when a run is judged, not when its flags are.
if TYPE_CHECKING:
    from tui_bench.analysis.thresholds import Threshold


@dataclass(frozen=True)
class Judging:
    thresholds: tuple[str, ...] = ()
    max_errors: float = DEFAULT_MAX_ERRORS
    # A reference to the baseline (`NAME@latest`, an id, `ID@POINT` ...); None: none.
    baseline: str | None = None
    # Gate on the baseline: fail when worse by more than this many percent.
    fail_on_regression: float | None = None
    # The tier that fails; None: `tested` when the run counts allow it, else `likely`.
    tier: Tier | None = None
    # The metric a baseline gate tests first (and alone unadjusted).
    gate_metric: str = DEFAULT_PRIMARY
    allow_setup_change: bool = False

    def parsed_thresholds(self) -> tuple[Threshold, ...]:
        """UsageError (one line) for the first that cannot be read."""
        from tui_bench.analysis.thresholds import parse_threshold

        return tuple(parse_threshold(text) for text in self.thresholds)

    def check(self) -> None:
        """UsageError for what needs no store or tool to refuse."""
        self.parsed_thresholds()
        if self.fail_on_regression is not None and self.baseline is None:
            raise UsageError(
                "a gate (--fail-on-regression, the form's fail if worse) needs a baseline "
                "(--baseline REF)"
            )

    def to_dict(self) -> dict[str, Any]:
        return {
            "thresholds": list(self.thresholds),
            "max_errors": self.max_errors,
            "baseline": self.baseline,
            "fail_on_regression": self.fail_on_regression,
            "tier": self.tier,
            "gate_metric": self.gate_metric,
            "allow_setup_change": self.allow_setup_change,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Judging:
        tier = data.get("tier")
        tolerance = data.get("fail_on_regression")
        return cls(
            thresholds=tuple(str(t) for t in data.get("thresholds") or ()),
            max_errors=float(data.get("max_errors", DEFAULT_MAX_ERRORS)),
            baseline=data.get("baseline") or None,
            fail_on_regression=None if tolerance is None else float(tolerance),
            tier=tier if tier in TIERS else None,
            gate_metric=str(data.get("gate_metric") or DEFAULT_PRIMARY),
            allow_setup_change=bool(data.get("allow_setup_change")),
        )
