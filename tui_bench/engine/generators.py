"""One load generator of a run of several: where it runs and its tool there; and how the
generators of a saved run are shown."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from tui_bench.engine.events import GeneratorsSeen, GeneratorView
from tui_bench.records.generator import GeneratorRun
from tui_bench.remote.ssh import SshHost
from tui_bench.result import Result
from tui_bench.runners.tools import Tool
from tui_bench.storage.session import Session


@dataclass(frozen=True)
class Generator:
    """One load generator: this machine (`host` None) or a host over SSH, with the tool as
    found there."""

    host: SshHost | None
    tool: Tool

    @property
    def label(self) -> str:
        return str(self.host) if self.host is not None else "local"


def labels(generators: Sequence[Generator]) -> list[str]:
    """Each generator's name in every view: its host, and `host#2`, `host#3`… for the second
    and later generators on one host, so that no two read the same."""
    seen: dict[str, int] = {}
    named = []
    for generator in generators:
        count = seen[generator.label] = seen.get(generator.label, 0) + 1
        named.append(generator.label if count == 1 else f"{generator.label}#{count}")
    return named


def version_warning(generators: Sequence[Generator]) -> str | None:
    """A note when the generators of one tool run different versions of it."""
    by_tool: dict[str, dict[str, str]] = {}
    for generator, label in zip(generators, labels(generators), strict=True):
        version = generator.tool.version or "unknown"
        by_tool.setdefault(generator.tool.name, {})[label] = version
    for name, versions in by_tool.items():
        if len(set(versions.values())) > 1:
            each = ", ".join(f"{label} {version}" for label, version in versions.items())
            return f"the generators run different versions of {name} ({each}): figures may differ"
    return None


def shares_of_run(
    generators: Sequence[GeneratorRun], done: Sequence[int | None], merged: Result
) -> list[GeneratorRun]:
    """Each generator with its req/s and share as of the whole run: its requests (`done`)
    over the merged window (a generator lost mid-run counted up to when it was lost), so
    that they add up to the merged run's req/s and to 1."""
    window = merged.duration_s
    total = sum(c for c in done if c is not None)
    shared = []
    for generator, count in zip(generators, done, strict=True):
        if window and total and count is not None:
            generator = replace(generator, rps=count / window, share=count / total)
        elif merged.rps and generator.rps is not None:
            generator = replace(generator, share=generator.rps / merged.rps)
        shared.append(generator)
    return shared


def saved_views(session: Session) -> GeneratorsSeen | None:
    """A saved run's generators as a live view shows them at its end; None for one."""
    saved = session.generators
    if not saved:
        return None
    views = []
    for g in saved:
        views.append(
            GeneratorView(
                label=g.host,
                tool=str(g.tool),
                version=g.tool_version,
                rps=g.rps,
                share=g.share,
                cpu_pct=g.client_cpu_mean_pct,
                lost=g.lost,
                ended=True,
            )
        )
    return GeneratorsSeen(tuple(views))
