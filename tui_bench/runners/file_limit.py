"""The open-file limit a run's tool needs: a connection is a file, and under a limit below
`-c` (`ulimit -n 1024` is the usual default) wrk opens what it can and counts the rest as
connect errors, h2load fails their requests (and in `-D` mode can abort). tuibench raises its
own soft limit, which the tool inherits, as far as the hard limit allows, and refuses a run
the hard limit cannot hold."""

from __future__ import annotations

import resource
from collections.abc import Callable, Iterable

from tui_bench.errors import UsageError
from tui_bench.spec import RunSpec

# Besides its connections a tool holds a few files of its own: standard streams, its request
# log, and per thread an epoll and an event descriptor (h2load, wrk).
BASE_FILES = 16
FILES_PER_THREAD = 4

Limits = tuple[int, int]


def files_needed(spec: RunSpec) -> int:
    return spec.connections + BASE_FILES + FILES_PER_THREAD * spec.threads


def fit_file_limit(
    specs: Iterable[RunSpec],
    get: Callable[[], Limits] = lambda: resource.getrlimit(resource.RLIMIT_NOFILE),
    set_to: Callable[[Limits], None] = lambda limits: resource.setrlimit(
        resource.RLIMIT_NOFILE, limits
    ),
) -> str | None:
    """Raise the soft open-file limit to what the largest of `specs` needs; a line saying
    so, or None when it was enough. UsageError when the hard limit is below it."""
    widest = max(specs, key=files_needed)
    needed = files_needed(widest)
    soft, hard = get()
    if soft == resource.RLIM_INFINITY or needed <= soft:
        return None
    if hard != resource.RLIM_INFINITY and needed > hard:
        raise UsageError(refusal(widest.connections, needed, f"{hard:,}"))
    set_to((needed, hard))
    return (
        f"open-file limit raised from {soft:,} to {needed:,} for -c {widest.connections:,} "
        f"(the hard limit is {'unlimited' if hard == resource.RLIM_INFINITY else f'{hard:,}'})"
    )


def refusal(connections: int, needed: int, hard: str, where: str = "") -> str:
    """Why a run the hard limit `hard` cannot hold is refused, with the fix; `where` names
    another host's limit."""
    return (
        f"-c {connections:,} needs about {needed:,} open files and the hard limit{where} "
        f"is {hard}: lower -c, or raise the limit (`ulimit -Hn {needed}` as root, "
        "or nofile in /etc/security/limits.conf)"
    )
