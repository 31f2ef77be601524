"""Finding the external programs tuibench drives (and nginx), and their versions.

The lookup order is the `--<name> PATH` flag, then `TUIBENCH_<NAME>`, then `$PATH`.
Version parsing is pure and shared by the blocking and the asyncio lookup.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import shutil
import subprocess
from dataclasses import dataclass

from tui_bench.errors import ToolMissingError

VERSION_TIMEOUT_S = 2.0

# Debian package that ships each tool, for the one-line "not found" message.
INSTALL_PACKAGES = {
    "h2load": "nghttp2-client",
    "wrk": "wrk",
    "ab": "apache2-utils",
    "nginx": "nginx",
    "openssl": "openssl",
}

VERSION_ARGS = {
    "h2load": ("--version",),
    "wrk": ("-v",),
    "ab": ("-V",),
    "nginx": ("-v",),
}

_NUMBER = r"(\d+(?:\.\d+)+)"
VERSION_PATTERNS = {
    "h2load": re.compile(r"nghttp2/" + _NUMBER),
    # Upstream prints "wrk 4.2.0 [epoll]", Debian "wrk debian/4.1.0-3+b2 [epoll]".
    "wrk": re.compile(r"^wrk\s+(?:\S*/)?" + _NUMBER, re.MULTILINE),
    "ab": re.compile(r"ApacheBench, Version " + _NUMBER),
    "nginx": re.compile(r"nginx/" + _NUMBER),
}


def tool_label(name: str | None, version: str | None) -> str:
    """`h2load 1.52.0`: how a tool is named wherever a run is shown; what is not known is left
    out (empty when neither is)."""
    return " ".join(part for part in (name, version) if part)


@dataclass(frozen=True)
class Tool:
    name: str
    path: str
    version: str | None

    @property
    def label(self) -> str:
        return tool_label(self.name, self.version)


def parse_version(name: str, text: str) -> str | None:
    """The version number in the output of the tool's version flag, or None."""
    pattern = VERSION_PATTERNS.get(name)
    match = pattern.search(text) if pattern else None
    return match.group(1) if match else None


def find_tool(name: str, path: str | None = None) -> Tool:
    """Locate `name` and read its version; raise ToolMissingError if it cannot be run."""
    resolved = resolve_path(name, path)
    return Tool(name, resolved, tool_version(name, resolved))


async def find_tool_async(name: str, path: str | None = None) -> Tool:
    """`find_tool` without blocking the event loop on the version call."""
    resolved = resolve_path(name, path)
    return Tool(name, resolved, await tool_version_async(name, resolved))


def resolve_path(name: str, path: str | None = None) -> str:
    """The executable for `name`: the explicit path, the environment override or $PATH."""
    env_var = f"TUIBENCH_{name.upper()}"
    candidate = path or os.environ.get(env_var)
    found = shutil.which(candidate or name)
    if found is None:
        raise ToolMissingError(_missing_message(name, candidate, env_var if not path else None))
    return found


def tool_version(name: str, path: str) -> str | None:
    args = VERSION_ARGS.get(name)
    if args is None:
        return None
    try:
        # wrk -v exits 1 and nginx -v writes to stderr: read both, ignore the status.
        done = subprocess.run(
            [path, *args],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            timeout=VERSION_TIMEOUT_S,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    return parse_version(name, done.stdout.decode(errors="replace"))


async def tool_version_async(name: str, path: str) -> str | None:
    args = VERSION_ARGS.get(name)
    if args is None:
        return None
    try:
        proc = await asyncio.create_subprocess_exec(
            path,
            *args,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
        )
    except OSError:
        return None
    try:
        out, _ = await asyncio.wait_for(proc.communicate(), VERSION_TIMEOUT_S)
    except TimeoutError:
        with contextlib.suppress(ProcessLookupError):
            proc.kill()
        await proc.wait()
        return None
    return parse_version(name, out.decode(errors="replace"))


def _missing_message(name: str, candidate: str | None, env_var: str | None) -> str:
    where = ""
    if candidate:
        source = f" (from {env_var})" if env_var else ""
        where = f" at {candidate}{source}"
    package = INSTALL_PACKAGES.get(name)
    install = f"install it with `apt-get install {package}` or " if package else ""
    return f"{name} not found{where}: {install}pass --{name} PATH"
