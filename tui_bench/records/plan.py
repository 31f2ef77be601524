"""What a saved sweep planned: its points and what each varied, the order of its runs, its
SLO and thresholds; a search's (capacity) settings."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

LABEL = "label"
RATE = "rate"


@dataclass(frozen=True)
class PlannedPoint:
    index: int
    name: str | None
    label: str | None
    # Its value of each varied parameter (`{"c": 10}`).
    values: Mapping[str, Any]
    urls: tuple[str, ...] = ()

    def parameters(self) -> dict[str, Any]:
        """Its value of each parameter, its label under `label`."""
        return {LABEL: self.label, **self.values}


@dataclass(frozen=True)
class Varied:
    name: str
    values: tuple[Any, ...]


@dataclass(frozen=True)
class Plan:
    points: tuple[PlannedPoint, ...] = ()
    vary: tuple[Varied, ...] = ()
    labels: tuple[str, ...] = ()
    repeat: int = 1
    # (point, repeat) of each run, in the order they run.
    order: tuple[tuple[int, int], ...] = ()
    slo: str | None = None
    thresholds: tuple[str, ...] = ()
    # A search's settings (`{"kind": "capacity", "resolution": 0.05, ...}`).
    search: Mapping[str, Any] | None = None

    def parameters(self) -> list[str]:
        """The names of what the sweep varied: `label` first when it has labelled commands."""
        names = [dim.name for dim in self.vary]
        return [LABEL, *names] if self.labels else names

    def values_of(self, name: str) -> list[Any]:
        """The values `name` took, in the plan's order."""
        if name == LABEL:
            return list(self.labels)
        return next((list(d.values) for d in self.vary if d.name == name), [])

    def target(self) -> str:
        """The URL every point runs on, or how many URLs when the points differ."""
        urls = [p.urls for p in self.points]
        distinct = list(dict.fromkeys(url for point in urls for url in point))
        return " ".join(urls[0]) if len(set(urls)) == 1 else f"{len(distinct)} URLs"

    def urls(self) -> list[str]:
        return list(dict.fromkeys(url for p in self.points for url in p.urls))

    def names(self) -> list[str]:
        """Each point's name as the sweep prints it (empty for the one point of a plain
        `--repeat N`), in the plan's order."""
        return [p.name or "" for p in self.points]

    @property
    def varies_rate(self) -> bool:
        return RATE in self.parameters()
