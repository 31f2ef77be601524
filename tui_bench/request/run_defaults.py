"""What the user asked for, made a RunRequest the one way: `tuibench run`'s flags and the run
form's fields both come here, so they take the same defaults and refuse the same things."""

from __future__ import annotations

from dataclasses import replace

from tui_bench.errors import UsageError
from tui_bench.request.run import DEFAULT_DURATION_S, RunRequest, parse_generators
from tui_bench.spec import RunSpec
from tui_bench.stages import total_s

# As `tuibench run` defaults: h2load, -c 10 -t 1 -d 10.
DEFAULT_REQUEST = RunRequest(RunSpec(urls=(), duration_s=DEFAULT_DURATION_S))


def server_mode_of(pid: int | None, name: str | None, none: bool) -> str:
    """The command line's server flags as the form's server choice."""
    if pid is not None:
        return "pid"
    if name is not None:
        return "name"
    return "none" if none else "auto"


def run_request(asked: RunRequest, *, check: bool = True) -> RunRequest:
    """`asked` (its values read, nothing defaulted or checked yet) as it runs: ten seconds
    when neither -n nor -d was given; UsageError with the first reason it cannot run.
    Unchecked (`check=False`) as the base of a sweep, whose points are checked once varied."""
    spec = asked.spec
    if spec.stages:
        spec = _staged(spec, remote=bool(asked.generators))
    elif spec.requests is None and spec.duration_s is None:
        spec = replace(spec, duration_s=DEFAULT_DURATION_S)
    parse_generators(asked.generators)
    return replace(
        asked, spec=spec.validate() if check else spec, server_host=asked.server_host or None
    )


def _staged(spec: RunSpec, *, remote: bool) -> RunSpec:
    """A run of stages lasts as long as they do, from `--rate` or its first stage's rate."""
    if spec.requests is not None or spec.duration_s is not None:
        raise UsageError("--stages sets the run's length: drop -n and -d")
    if remote:
        raise UsageError("--stages runs h2load on this machine: drop --generator")
    return replace(spec, duration_s=total_s(spec.stages), rate=spec.rate or spec.stages[0].rate)
