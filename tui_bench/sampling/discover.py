"""Finding the server process whose resources are sampled, and whether it shares our machine."""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Iterable
from urllib.parse import urlsplit

import psutil

from tui_bench.errors import UsageError
from tui_bench.spec import is_loopback

_WILDCARDS = ("0.0.0.0", "::")
_DEFAULT_PORTS = {"http": 80, "https": 443}


def find_server(
    pid: int | None = None, name: str | None = None, url: str | None = None
) -> psutil.Process | None:
    """The server's root process: by pid, else by process name, else by the URL's local port.

    A pid or name that matches nothing is the user's mistake (UsageError); a URL whose port
    no local process listens on just means the server is elsewhere (None).
    """
    if pid is not None:
        try:
            return psutil.Process(pid)
        except (psutil.NoSuchProcess, ValueError):
            raise UsageError(f"no process with pid {pid}") from None
    if name is not None:
        roots = _roots(p for p in psutil.process_iter(["name"]) if p.info["name"] == name)
        if not roots:
            raise UsageError(f"no process named {name!r}")
        return _only(roots, f"named {name!r}")
    if url is not None and same_machine(url):
        roots = _roots(_listeners(url))
        return _only(roots, f"listen on {url}") if roots else None
    return None


def same_machine(url: str) -> bool:
    """True when the URL's host is loopback or one of this machine's own addresses."""
    if is_loopback(url):
        return True
    host = urlsplit(url).hostname
    if not host:
        return False
    local = {
        addr.address.split("%")[0]
        for addrs in psutil.net_if_addrs().values()
        for addr in addrs
        if addr.family in (socket.AF_INET, socket.AF_INET6)
    }
    return bool(_addresses(host) & local)


def _addresses(host: str) -> set[str]:
    try:
        infos = socket.getaddrinfo(host, None, proto=socket.IPPROTO_TCP)
    except (socket.gaierror, UnicodeError):
        return set()
    return {str(info[4][0]).split("%")[0] for info in infos}


def url_port(url: str) -> int:
    parts = urlsplit(url)
    return parts.port or _DEFAULT_PORTS.get(parts.scheme, 80)


def _listeners(url: str) -> list[psutil.Process]:
    parts = urlsplit(url)
    port = url_port(url)
    wanted = _addresses(parts.hostname or "") | set(_WILDCARDS)
    try:
        conns = psutil.net_connections(kind="tcp")
    except psutil.AccessDenied:
        return []
    procs = []
    for conn in conns:
        if conn.status != psutil.CONN_LISTEN or conn.laddr.port != port or conn.pid is None:
            continue
        if _unmapped(conn.laddr.ip) not in wanted:
            continue
        try:
            procs.append(psutil.Process(conn.pid))
        except psutil.NoSuchProcess:
            continue
    return procs


def _unmapped(ip: str) -> str:
    """'::ffff:127.0.0.1' -> '127.0.0.1', so IPv4 clients match dual-stack listeners."""
    addr = ipaddress.ip_address(ip.split("%")[0])
    mapped = addr.ipv4_mapped if isinstance(addr, ipaddress.IPv6Address) else None
    return str(mapped or addr)


def _roots(procs: Iterable[psutil.Process]) -> list[psutil.Process]:
    """Each process climbed to the top of its same-named tree (nginx worker -> master)."""
    me = psutil.Process()
    # A Python server started by tuibench (the demo fallback) has a parent of the same name:
    # climbing into ourselves would count the load generator as part of the server.
    ours = {me.pid, *(p.pid for p in me.parents())}
    roots: dict[int, psutil.Process] = {}
    for proc in procs:
        if proc.pid in ours:
            continue
        try:
            root = _climb(proc, ours)
        except psutil.NoSuchProcess:
            continue
        roots.setdefault(root.pid, root)
    return list(roots.values())


def _climb(proc: psutil.Process, ours: set[int]) -> psutil.Process:
    name = proc.name()
    while True:
        try:
            parent = proc.parent()
            if parent is None or parent.pid in ours or parent.name() != name:
                return proc
        except (psutil.AccessDenied, psutil.NoSuchProcess):
            return proc
        proc = parent


def _only(roots: list[psutil.Process], what: str) -> psutil.Process:
    if len(roots) > 1:
        pids = ", ".join(str(p.pid) for p in sorted(roots, key=lambda p: p.pid))
        raise UsageError(f"several processes {what} (pids {pids}): give the server's pid instead")
    return roots[0]
