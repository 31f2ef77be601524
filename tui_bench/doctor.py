"""`tuibench doctor`: is this machine set up to generate (or take) serious HTTP load?

Each check is a pure function of the text or number it judges, so it is tested without the
machine; `run_checks` reads the machine and skips what it cannot read (other kernels, VMs).
"""

from __future__ import annotations

import contextlib
import glob
import os
import resource
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from tui_bench.errors import ToolMissingError, UsageError
from tui_bench.remote.facts import read_facts
from tui_bench.remote.ssh import SshHost
from tui_bench.runners.tools import INSTALL_PACKAGES, VERSION_ARGS, find_tool, parse_version

TOOL_NAMES = ("h2load", "wrk", "ab", "nginx")
MISSING = "not found"
MIN_OPEN_FILES = 65536
MIN_SOMAXCONN = 4096
MIN_EPHEMERAL_PORTS = 28000


@dataclass(frozen=True)
class Check:
    name: str
    value: str
    ok: bool
    advice: str | None


GOVERNORS = "/sys/devices/system/cpu/cpu*/cpufreq/scaling_governor"


@dataclass(frozen=True)
class Facts:
    """What the checks judge, read on one machine (this one, or another over SSH)."""

    open_files: tuple[int, int]
    files: Mapping[str, str]  # the FILE_CHECKS paths that could be read, with their text
    governors: list[str]
    cpus: int


def run_checks() -> list[Check]:
    return [check_tool(name) for name in TOOL_NAMES] + checks_of(facts_here())


def facts_here() -> Facts:
    files = {}
    for path, _ in FILE_CHECKS:
        with contextlib.suppress(OSError):
            files[path] = Path(path).read_text()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    governors = _read_all(sorted(glob.glob(GOVERNORS)))
    return Facts((soft, hard), files, governors, os.cpu_count() or 1)


def checks_of(facts: Facts) -> list[Check]:
    checks = [check_open_files(*facts.open_files)]
    for path, check in FILE_CHECKS:
        # Not Linux, or a kernel without the knob: nothing to advise.
        with contextlib.suppress(KeyError, ValueError):
            checks.append(check(facts.files[path]))
    if facts.governors:
        checks.append(check_governors(facts.governors))
    checks.append(check_cpu_count(facts.cpus))
    return checks


def run_checks_on(host: SshHost) -> list[Check]:
    """The same checks, on another host over SSH; UsageError when it cannot be reached."""
    files = [path for path, _ in FILE_CHECKS]
    facts = read_facts(host, {n: list(VERSION_ARGS[n]) for n in TOOL_NAMES}, files, GOVERNORS)
    try:
        found = facts["tools"]
        soft, hard = facts["nofile"]
        checks = [check_remote_tool(n, str(host), found.get(n)) for n in TOOL_NAMES]
        there = Facts((int(soft), int(hard)), facts["files"], facts["governors"], facts["cpus"])
    except (KeyError, TypeError, ValueError):
        raise UsageError(f"{host}: its facts came back damaged") from None
    return checks + checks_of(there)


def check_remote_tool(name: str, host: str, found: tuple[str, str] | None) -> Check:
    """`found`: the tool's path there and what its version flag printed; None: not there."""
    if found is None:
        package = INSTALL_PACKAGES.get(name, name)
        return Check(name, MISSING, False, f"not on {host}: install the Debian package {package}")
    path, output = found
    return Check(name, f"{parse_version(name, output) or 'unknown version'} ({path})", True, None)


def check_tool(name: str) -> Check:
    try:
        tool = find_tool(name)
    except ToolMissingError as exc:
        return Check(name, MISSING, False, str(exc))
    return Check(name, f"{tool.version or 'unknown version'} ({tool.path})", True, None)


def check_open_files(soft: int, hard: int) -> Check:
    def show(limit: int) -> str:
        return "unlimited" if limit == resource.RLIM_INFINITY else str(limit)

    ok = soft == resource.RLIM_INFINITY or soft >= MIN_OPEN_FILES
    if ok:
        advice = None
    elif hard == resource.RLIM_INFINITY or hard >= MIN_OPEN_FILES:
        advice = f"each connection is a file: run `ulimit -n {MIN_OPEN_FILES}` first"
    else:
        advice = (
            f"each connection is a file: raise the hard limit (limits.conf or LimitNOFILE=), "
            f"then `ulimit -n {MIN_OPEN_FILES}`"
        )
    return Check("open files (ulimit -n)", f"{show(soft)} (hard {show(hard)})", ok, advice)


def check_somaxconn(text: str) -> Check:
    value = int(text)
    ok = value >= MIN_SOMAXCONN
    advice = (
        None
        if ok
        else f"caps the server's listen backlog: sysctl -w net.core.somaxconn={MIN_SOMAXCONN}"
    )
    return Check("net.core.somaxconn", str(value), ok, advice)


def check_port_range(text: str) -> Check:
    low, high = (int(part) for part in text.split())
    count = high - low + 1
    ok = count >= MIN_EPHEMERAL_PORTS
    advice = None if ok else "sysctl -w net.ipv4.ip_local_port_range='1024 65535'"
    return Check("ephemeral ports", f"{low}-{high} ({count} ports)", ok, advice)


def check_tw_reuse(text: str) -> Check:
    value = int(text)
    meaning = {0: "off", 1: "on", 2: "loopback only"}.get(value, "unknown")
    ok = value != 0
    advice = (
        None
        if ok
        else "runs without keep-alive can run out of ports: sysctl -w net.ipv4.tcp_tw_reuse=1"
    )
    return Check("net.ipv4.tcp_tw_reuse", f"{value} ({meaning})", ok, advice)


def check_governors(governors: list[str]) -> Check:
    counts = Counter(g.strip() for g in governors)
    value = ", ".join(f"{name} ({n} cpus)" for name, n in sorted(counts.items()))
    ok = set(counts) == {"performance"}
    advice = (
        None
        if ok
        else "frequency scaling adds run-to-run noise: cpupower frequency-set -g performance"
    )
    return Check("cpu governor", value, ok, advice)


def check_cpu_count(count: int) -> Check:
    ok = count >= 2
    advice = None if ok else "the load generator and the server will compete for one CPU"
    return Check("cpus", f"{count} logical", ok, advice)


# Read from these files, judged by these checks.
FILE_CHECKS: tuple[tuple[str, Callable[[str], Check]], ...] = (
    ("/proc/sys/net/core/somaxconn", check_somaxconn),
    ("/proc/sys/net/ipv4/ip_local_port_range", check_port_range),
    ("/proc/sys/net/ipv4/tcp_tw_reuse", check_tw_reuse),
)


def status(check: Check) -> str:
    if check.ok:
        return "ok"
    return "missing" if check.value == MISSING else "warn"


def format_checks(checks: list[Check]) -> str:
    """A plain-text table (status, check, value) with advice indented under its row."""
    rows = [(status(c), c.name, c.value) for c in checks]
    widths = [max((len(row[i]) for row in rows), default=0) for i in range(2)]
    lines = []
    for check, (state, name, value) in zip(checks, rows, strict=True):
        lines.append(f"{state:<{widths[0]}}  {name:<{widths[1]}}  {value}".rstrip())
        if check.advice:
            lines.append(f"{'':<{widths[0]}}  -> {check.advice}")
    return "\n".join(lines)


def _read_all(paths: list[str]) -> list[str]:
    texts = []
    for path in paths:
        try:
            texts.append(Path(path).read_text())
        except OSError:
            continue
    return texts
