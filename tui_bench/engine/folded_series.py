"""A whole run's req/s and p99 for its chart, in bounded memory: a point a second until
there are POINTS of them, then every two neighbours folded into one (a point per 2 s, then
4 s, …), so a run of a day keeps as many points as one of ten minutes. A folded point's
req/s is its seconds' requests over their time; its p99 the worst of theirs (a chart of a
long run must not smooth a bad minute away). Pure."""

from __future__ import annotations

from dataclasses import dataclass

POINTS = 600


@dataclass(frozen=True)
class ChartPoint:
    t_s: float  # the end of the time it covers, into the run
    rps: float
    p99_s: float | None
    span_s: float = 1.0  # how long it covers


def _fold(a: ChartPoint, b: ChartPoint) -> ChartPoint:
    span = a.span_s + b.span_s
    worst = [p for p in (a.p99_s, b.p99_s) if p is not None]
    return ChartPoint(
        b.t_s, (a.rps * a.span_s + b.rps * b.span_s) / span, max(worst, default=None), span
    )


class FoldedSeries:
    def __init__(self, points: int = POINTS) -> None:
        self._most = points
        self.points: list[ChartPoint] = []
        # A point waiting for its neighbour at the current resolution.
        self._pending: ChartPoint | None = None
        self.resolution = 1

    def add(self, point: ChartPoint) -> None:
        self._pending = point if self._pending is None else _fold(self._pending, point)
        if self._pending is None or self._count(self._pending) < self.resolution:
            return
        self.points.append(self._pending)
        self._pending = None
        if len(self.points) > self._most:
            self.points = [
                _fold(*self.points[i : i + 2]) if i + 1 < len(self.points) else self.points[i]
                for i in range(0, len(self.points), 2)
            ]
            self.resolution *= 2

    def _count(self, point: ChartPoint) -> int:
        """How many seconds a point holds (a partial last second counts as one)."""
        return max(1, round(point.span_s))

    def shown(self) -> list[ChartPoint]:
        """The points, the one still folding last (the chart reaches the run's end)."""
        return self.points + ([self._pending] if self._pending is not None else [])
