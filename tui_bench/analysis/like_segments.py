"""Two runs' segments, like with like: those of the same load (rate and connections) paired
in the order they ran, what each achieved side by side. Pure."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tui_bench.records.segment import Segment


@dataclass(frozen=True)
class SegmentPair:
    target_rps: float | None
    connections: int
    a: Segment | None
    b: Segment | None

    @property
    def delta_pct(self) -> float | None:
        """B's achieved rate against A's, in %."""
        if self.a is None or self.b is None:
            return None
        a, b = self.a.achieved_rps, self.b.achieved_rps
        if a is None or b is None or a == 0:
            return None
        return (b - a) / a * 100

    def to_dict(self) -> dict[str, object]:
        def side(s: Segment | None) -> dict[str, object] | None:
            if s is None:
                return None
            return {"start_s": s.start_s, "achieved_rps": s.achieved_rps, "validity": s.validity}

        return {
            "target_rps": self.target_rps,
            "connections": self.connections,
            "a": side(self.a),
            "b": side(self.b),
            "delta_pct": self.delta_pct,
        }


def like_segments(a: Sequence[Segment], b: Sequence[Segment]) -> list[SegmentPair]:
    """Each load either run had (pauses left out), in A's order then B's others: the n-th
    segment of a load in A beside the n-th of that load in B. Empty where neither run was
    steered: the runs themselves are what compare."""
    if len(a) < 2 and len(b) < 2:
        return []

    def by_load(segments: Sequence[Segment]) -> dict[tuple[float | None, int], list[Segment]]:
        found: dict[tuple[float | None, int], list[Segment]] = {}
        for s in segments:
            if not s.paused:
                found.setdefault((s.target_rps, s.connections), []).append(s)
        return found

    of_a, of_b = by_load(a), by_load(b)
    pairs = []
    for load in [*of_a, *(k for k in of_b if k not in of_a)]:
        left, right = of_a.get(load, []), of_b.get(load, [])
        for index in range(max(len(left), len(right))):
            pairs.append(
                SegmentPair(
                    load[0],
                    load[1],
                    left[index] if index < len(left) else None,
                    right[index] if index < len(right) else None,
                )
            )
    return pairs
