"""The generators of a run, found before any load starts: each host reached over SSH and
its tool found there (one round trip per host, all at once), or a one-line UsageError that
names the host and what to do."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor

from tui_bench.engine.generators import Generator
from tui_bench.errors import UsageError
from tui_bench.remote.facts import read_facts
from tui_bench.remote.ssh import SshHost
from tui_bench.request.run import parse_generators
from tui_bench.runners.tools import INSTALL_PACKAGES, VERSION_ARGS, Tool, parse_version


def remote_only(texts: Sequence[str]) -> bool:
    """Whether every generator is another host: then this machine need not have the tool."""
    hosts = parse_generators(texts)
    return bool(hosts) and None not in hosts


def tools_of(generators: Sequence[Generator]) -> dict[str, Tool]:
    """Each tool's first generator's: its path and version label a run on other hosts only
    and check its argv."""
    tools: dict[str, Tool] = {}
    for generator in generators:
        tools.setdefault(generator.tool.name, generator.tool)
    return tools


def find_fleet(
    texts: Sequence[str], names: Sequence[str], find_here: Callable[[str], Tool]
) -> tuple[dict[str, Tool], tuple[Generator, ...]]:
    """The tool of each name in `names` (found here unless `remote_only`) and the
    generators of `texts`."""
    here = {} if remote_only(texts) else {name: find_here(name) for name in names}
    generators = find_generators(texts, names, here) if texts else ()
    return {**tools_of(generators), **here}, generators


def find_generators(
    texts: Sequence[str], tools: Sequence[str], local: dict[str, Tool]
) -> tuple[Generator, ...]:
    """A generator per host and tool named in `tools` (a sweep may vary the tool); `local`
    holds the tools already found here."""
    hosts = parse_generators(texts)
    remote = list(dict.fromkeys(h for h in hosts if h is not None))
    with ThreadPoolExecutor(max_workers=max(1, min(8, len(remote)))) as pool:
        found = dict(zip(remote, pool.map(lambda h: _tools_on(h, tools), remote), strict=True))
    return tuple(
        Generator(host, local[name] if host is None else found[host][name])
        for name in tools
        for host in hosts
    )


def _tools_on(host: SshHost, names: Sequence[str]) -> dict[str, Tool]:
    facts = read_facts(host, {n: list(VERSION_ARGS[n]) for n in names}, [], "")
    tools: dict[str, Tool] = {}
    for name in names:
        entry = (facts.get("tools") or {}).get(name)
        if not entry:
            package = INSTALL_PACKAGES.get(name, name)
            raise UsageError(f"{host}: {name} is not installed there (Debian: {package})")
        path, output = entry
        tools[name] = Tool(name, str(path), parse_version(name, str(output)))
    return tools
