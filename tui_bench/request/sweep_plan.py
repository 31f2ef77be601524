"""What a sweep runs: every point of the grid of varied parameters, and in what order. Pure.

A point is one configuration (a RunRequest with a valid spec) with its label and the values
that make it differ from its neighbours. `--vary NAME=V1,V2` and `--ramp NAME=MAX/STEPS`
(MAX/STEPS, 2*MAX/STEPS, … MAX) each add a dimension; several dimensions and labelled
commands (`--label NAME=ARGS`) make the cartesian product. `--repeat N` runs the whole grid
N times, interleaved (round 1 runs every point, then round 2 backwards …), so a drift of the
machine during the sweep spreads over every point instead of biasing the last ones.
"""

from __future__ import annotations

import itertools
import shlex
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from tui_bench.body import STDIN, read_body
from tui_bench.errors import UsageError
from tui_bench.parameter_text import shown
from tui_bench.records.plan import Plan, PlannedPoint, Varied
from tui_bench.request.run import RunRequest
from tui_bench.spec import (
    COMPRESSIONS,
    PROTOCOLS,
    TOOLS,
    RunSpec,
    read_connections,
    read_method,
    read_threads,
    with_scheme,
)
from tui_bench.typed_values import parse_duration, parse_positive_int, parse_rate

Value = int | float | str


@dataclass(frozen=True)
class Parameter:
    name: str
    parse: Callable[[str], Value]
    apply: Callable[[RunSpec, Any], RunSpec]
    # "whole": ramped in whole steps; "any": in any steps; None: not rampable.
    ramp: str | None = None


def _choice(choices: Sequence[str]) -> Callable[[str], str]:
    def parse(text: str) -> str:
        if text not in choices:
            raise UsageError(f"{text!r} is not one of {', '.join(choices)}")
        return text

    return parse


def _url(text: str) -> str:
    if not text:
        raise UsageError("empty URL")
    return text


def _body_file(text: str) -> str:
    if text == STDIN:
        raise UsageError(f"standard input is read once: vary body over files, not {STDIN}")
    # Read to refuse a missing or too large file before anything runs; each point reads it
    # again as it is built (payload files, a few MiB at most).
    read_body(text)
    return text


def _with_protocol(spec: RunSpec, protocol: str) -> RunSpec:
    if protocol == "h1":
        return replace(spec, h1=True)
    scheme = "https" if protocol == "h2" else "http"
    return replace(spec, h1=False, urls=tuple(with_scheme(url, scheme) for url in spec.urls))


_PARAMETERS = (
    Parameter("c", read_connections, lambda s, v: replace(s, connections=v), ramp="whole"),
    Parameter("t", read_threads, lambda s, v: replace(s, threads=v), ramp="whole"),
    Parameter("m", parse_positive_int, lambda s, v: replace(s, streams=v), ramp="whole"),
    # -n and -d are the two run modes: setting one clears the other.
    Parameter(
        "n", parse_positive_int, lambda s, v: replace(s, requests=v, duration_s=None), ramp="whole"
    ),
    Parameter(
        "d",
        parse_duration,
        lambda s, v: replace(s, duration_s=v, requests=None),
        ramp="any",
    ),
    Parameter(
        "warm-up",
        parse_duration,
        lambda s, v: replace(s, warm_up_s=v or None),
        ramp="any",
    ),
    # An open loop at each rate: the knee of a rate sweep is the highest rate held.
    Parameter("rate", parse_rate, lambda s, v: replace(s, rate=v), ramp="any"),
    Parameter("tool", _choice(TOOLS), lambda s, v: replace(s, tool=v)),
    Parameter("url", _url, lambda s, v: replace(s, urls=(v,))),
    Parameter("protocol", _choice(PROTOCOLS), lambda s, v: _with_protocol(s, v)),
    Parameter("method", read_method, lambda s, v: replace(s, method=v)),
    # Payload size is a classic sweep: the content type of each follows its file's name.
    Parameter("body", _body_file, lambda s, v: s.with_body(read_body(v))),
    Parameter(
        "compress",
        _choice((*COMPRESSIONS, "none")),
        lambda s, v: replace(s, compress=None if v == "none" else v),
    ),
)
PARAMETERS: Mapping[str, Parameter] = {p.name: p for p in _PARAMETERS}
ALIASES = {
    "connections": "c",
    "threads": "t",
    "streams": "m",
    "requests": "n",
    "duration": "d",
    "warm_up": "warm-up",
    "h1": "protocol",
    "rps": "rate",
}


@dataclass(frozen=True)
class Dimension:
    """One varied parameter and its values, in the order they run."""

    name: str
    values: tuple[Value, ...]


@dataclass(frozen=True)
class Variant:
    """The configuration every point starts from: the command line's own (label None), or
    one labelled command (`--label NAME=ARGS`). The spec is checked only once varied."""

    label: str | None
    request: RunRequest
    tool_paths: Mapping[str, str | None]


@dataclass(frozen=True)
class Point:
    index: int
    label: str | None
    values: Mapping[str, Value | None]
    request: RunRequest
    tool_paths: Mapping[str, str | None]

    @property
    def spec(self) -> RunSpec:
        return self.request.spec

    @property
    def name(self) -> str:
        """`legacy c=200 m=10`; empty for the single point of a plain `--repeat N`."""
        values = [f"{k}={shown(k, v)}" for k, v in self.values.items()]
        return " ".join([self.label, *values] if self.label else values)

    def usage_error(self, error: UsageError) -> UsageError:
        """`error`, saying which point it is about."""
        return UsageError(f"point {self.name}: {error}" if self.name else str(error))

    @property
    def tool_path(self) -> str | None:
        return self.tool_paths.get(self.spec.tool)

    def planned(self) -> PlannedPoint:
        """The point as the sweep's session keeps it."""
        return PlannedPoint(self.index, self.name, self.label, self.values, self.spec.urls)

    def to_dict(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "name": self.name,
            "label": self.label,
            "values": dict(self.values),
            "request": self.request.to_dict(),
        }


@dataclass(frozen=True)
class Slot:
    """One run of the sweep: the `repeat`-th run (from 0) of point `point`."""

    point: int
    repeat: int


@dataclass(frozen=True)
class SweepPlan:
    points: tuple[Point, ...]
    dimensions: tuple[Dimension, ...]
    repeat: int
    # A search's plan (capacity) grows a point at a time, each chosen from the runs of the
    # ones before: its points run in steps, every repeat of one before the next.
    in_steps: bool = False

    @property
    def order(self) -> tuple[Slot, ...]:
        """Round by round, every other round backwards: A B B A A B …, never A A B B (in
        steps: A A B B). Whatever slows the second run of a pair (a server's caches filling,
        a machine warming) then falls on each point alike, not always on the later one."""
        if self.in_steps:
            return tuple(Slot(p.index, r) for p in self.points for r in range(self.repeat))
        return tuple(
            Slot(p.index, r)
            for r in range(self.repeat)
            for p in (self.points if r % 2 == 0 else reversed(self.points))
        )

    @property
    def labels(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(p.label for p in self.points if p.label))

    def record(self) -> Plan:
        """The plan as its sweep's session keeps it."""
        return Plan(
            points=tuple(p.planned() for p in self.points),
            vary=tuple(Varied(d.name, tuple(d.values)) for d in self.dimensions),
            labels=self.labels,
            repeat=self.repeat,
            order=tuple((s.point, s.repeat) for s in self.order),
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "vary": [{"name": d.name, "values": list(d.values)} for d in self.dimensions],
            "labels": list(self.labels),
            "repeat": self.repeat,
            "points": [p.to_dict() for p in self.points],
            "order": [[s.point, s.repeat] for s in self.order],
        }


def parameter(name: str, flag: str, text: str) -> Parameter:
    found = PARAMETERS.get(ALIASES.get(name, name))
    if found is None:
        raise UsageError(
            f"{flag} {text}: unknown parameter {name!r} (one of {', '.join(PARAMETERS)})"
        )
    return found


def _split(flag: str, text: str, shape: str) -> tuple[str, str]:
    name, sep, rest = text.partition("=")
    if not sep or not name.strip() or not rest.strip():
        raise UsageError(f"{flag} {text!r}: expected {shape}")
    return name.strip(), rest.strip()


def parse_vary(text: str) -> Dimension:
    """`c=100,200,300` -> Dimension("c", (100, 200, 300))."""
    name, rest = _split("--vary", text, "NAME=V1,V2,...")
    param = parameter(name, "--vary", text)
    values: list[Value] = []
    for item in rest.split(","):
        try:
            value = param.parse(item.strip())
        except UsageError as exc:
            raise UsageError(f"--vary {text}: {exc}") from None
        if value in values:
            raise UsageError(f"--vary {text}: {item.strip()!r} is given twice")
        values.append(value)
    return Dimension(param.name, tuple(values))


def parse_ramp(text: str) -> Dimension:
    """`c=400/4` -> Dimension("c", (100, 200, 300, 400)): STEPS equal steps up to MAX."""
    name, rest = _split("--ramp", text, "NAME=MAX/STEPS")
    param = parameter(name, "--ramp", text)
    top_text, sep, steps_text = rest.partition("/")
    if not sep:
        raise UsageError(f"--ramp {text}: expected NAME=MAX/STEPS")
    if param.ramp is None:
        raise UsageError(f"--ramp {text}: {param.name} is not a number; use --vary")
    try:
        top = param.parse(top_text.strip())
        steps = parse_positive_int(steps_text.strip())
    except UsageError as exc:
        raise UsageError(f"--ramp {text}: {exc}") from None
    assert isinstance(top, int | float)
    if param.ramp == "whole":
        assert isinstance(top, int)
        if top % steps:
            raise UsageError(f"--ramp {text}: {top} is not a multiple of {steps}")
        return Dimension(param.name, tuple(top // steps * i for i in range(1, steps + 1)))
    if top <= 0:
        raise UsageError(f"--ramp {text}: the top value must be more than 0")
    return Dimension(param.name, tuple(round(top * i / steps, 6) for i in range(1, steps + 1)))


def parse_label(text: str) -> tuple[str, list[str]]:
    """`legacy=http://127.0.0.1:8080/ -c 50` -> ("legacy", [URL, "-c", "50"]): the name and
    the run options of a labelled command, split as a shell would."""
    name, sep, rest = text.partition("=")
    name = name.strip()
    if not sep or not name or any(c.isspace() for c in name):
        raise UsageError(f"--label {text!r}: expected NAME=ARGS (e.g. new=http://127.0.0.1/)")
    try:
        return name, shlex.split(rest)
    except ValueError as exc:
        raise UsageError(f"--label {text!r}: {exc}") from None


def build_plan(
    variants: Sequence[Variant], dimensions: Sequence[Dimension], repeat: int = 1
) -> SweepPlan:
    """Every combination of a variant and one value per dimension, each spec validated;
    UsageError (naming the point) for the first that cannot run."""
    if not variants:
        raise UsageError("nothing to sweep")
    if repeat < 1:
        raise UsageError("--repeat must be at least 1")
    names = [d.name for d in dimensions]
    for name in names:
        if names.count(name) > 1:
            raise UsageError(f"{name} is varied twice")
    labels = [v.label for v in variants]
    for label in labels:
        if labels.count(label) > 1:
            raise UsageError(f"--label {label} is given twice")
    points: list[Point] = []
    for variant, combo in itertools.product(
        variants, itertools.product(*(d.values for d in dimensions))
    ):
        values = dict(zip(names, combo, strict=True))
        spec = variant.request.spec
        for name, value in values.items():
            spec = PARAMETERS[name].apply(spec, value)
        point = Point(
            len(points),
            variant.label,
            values,
            replace(variant.request, spec=spec),
            variant.tool_paths,
        )
        try:
            spec.validate()
        except UsageError as exc:
            raise point.usage_error(exc) from None
        points.append(point)
    return SweepPlan(tuple(points), tuple(dimensions), repeat)


def planned_s(plan: SweepPlan, cool_down_s: float) -> float | None:
    """How long the sweep should take: every run's duration and warm-up, and the cool-downs
    between runs; None when a point runs a request count, which takes as long as it takes."""
    planned = [plan.points[slot.point].spec.planned_s for slot in plan.order]
    if any(p is None for p in planned):
        return None
    return sum(p for p in planned if p is not None) + cool_down_s * (len(planned) - 1)


def about(seconds: float) -> str:
    if seconds < 60:
        return f"about {max(1, round(seconds))} s"
    return f"about {round(seconds / 60)} min"


def sweep_summary(plan: SweepPlan, cool_down_s: float) -> str:
    """`sweep of 6 points × 3 = 18 runs, about 4 min · c=10,50,100 × m=1,10`."""
    points = len(plan.points)
    text = f"sweep of {points} point" + "s" * (points != 1)
    if plan.repeat > 1:
        text += f" × {plan.repeat} = {len(plan.order)} runs"
    seconds = planned_s(plan, cool_down_s)
    if seconds is not None:
        text += f", {about(seconds)}"
    varied = " × ".join(
        f"{d.name}={','.join(shown(d.name, v) for v in d.values)}" for d in plan.dimensions
    )
    return f"{text} · {varied}" if varied else text
