"""What `tuibench sweep` takes beside the run options, as the user typed it: the run form
keeps and offers it again, and turns it into the same plan the command line makes."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from tui_bench.request.run import RunRequest

# The plan and the SLO are read when a sweep is prepared, not when its flags are.
if TYPE_CHECKING:
    from tui_bench.analysis.thresholds import Threshold
    from tui_bench.request.sweep_plan import SweepPlan

DEFAULT_COOL_DOWN_S = 2.0


@dataclass(frozen=True)
class SweepSettings:
    """What `tuibench sweep` takes beside the run options, as typed: each `--vary` and
    `--ramp` clause, `--repeat`, `--cool-down` and `--slo`. Checked when a plan is made."""

    vary: tuple[str, ...] = ()
    ramp: tuple[str, ...] = ()
    repeat: int = 1
    cool_down_s: float = DEFAULT_COOL_DOWN_S
    slo: str | None = None
    # A capacity search (`tuibench capacity`): the rate varied by the search, within the SLO.
    capacity: bool = False

    @property
    def is_sweep(self) -> bool:
        """False when nothing varies nor repeats: that is a single run."""
        return bool(self.vary or self.ramp) or self.repeat > 1 or self.capacity

    def plan(
        self, request: RunRequest, tool_paths: Mapping[str, str | None] | None = None
    ) -> SweepPlan:
        """`request` swept so; UsageError for the first clause or point that cannot run."""
        from tui_bench.request.sweep_plan import Variant, build_plan, parse_ramp, parse_vary

        dimensions = [*map(parse_vary, self.vary), *map(parse_ramp, self.ramp)]
        return build_plan([Variant(None, request, tool_paths or {})], dimensions, self.repeat)

    def slo_clauses(self) -> tuple[Threshold, ...]:
        from tui_bench.analysis.thresholds import parse_slo

        return tuple(parse_slo(self.slo)) if self.slo else ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "vary": list(self.vary),
            "ramp": list(self.ramp),
            "repeat": self.repeat,
            "cool_down_s": self.cool_down_s,
            "slo": self.slo,
            "capacity": self.capacity,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SweepSettings:
        return cls(
            vary=_strings(data.get("vary", [])),
            ramp=_strings(data.get("ramp", [])),
            repeat=int(data.get("repeat", 1)),
            cool_down_s=float(data.get("cool_down_s", DEFAULT_COOL_DOWN_S)),
            slo=str(data["slo"]) if data.get("slo") else None,
            capacity=data.get("capacity") is True,
        )


def _strings(value: Any) -> tuple[str, ...]:
    if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
        raise TypeError(f"expected a list of strings, got {value!r}")
    return tuple(value)
