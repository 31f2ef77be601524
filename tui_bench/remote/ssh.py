"""Reaching other hosts with the OpenSSH client: the operator's own `~/.ssh/config`, agent and
known_hosts, and nothing of ours to install or trust.

The client is run with options that keep it honest: no prompt (BatchMode), an unknown or
changed host key refused (StrictHostKeyChecking=yes, whatever the config says), a dead
connection noticed within seconds (ServerAlive*), and its reasons said (LogLevel=INFO: a host
that closes the connection, or stops answering, after the banner is told at INFO only; below
it ssh exits 255 without a word). A remote command is an argv list, quoted with `shlex.join`:
no user value reaches the remote shell unquoted.
"""

from __future__ import annotations

import os
import re
import shlex
import signal
import subprocess
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from tui_bench.errors import UsageError

# A config file to use instead of ~/.ssh/config (`ssh -F`).
CONFIG_ENV = "TUIBENCH_SSH_CONFIG"
CONNECT_TIMEOUT_S = 5
# A connection that answers no keep-alive for this long is dropped.
ALIVE_INTERVAL_S = 2
ALIVE_COUNT = 3
# What ssh exits with when the connection itself failed (the remote command's own otherwise).
SSH_FAILED = 255

_HOST = re.compile(
    r"(?:ssh://)?(?:(?P<user>[A-Za-z0-9._-]+)@)?"
    r"(?P<host>\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+)(?::(?P<port>\d{1,5}))?"
)


@dataclass(frozen=True)
class SshHost:
    """`[ssh://][user@]host[:port]`, as the user wrote it; the rest comes from ssh_config."""

    host: str
    user: str | None = None
    port: int | None = None

    @classmethod
    def parse(cls, text: str) -> SshHost:
        match = _HOST.fullmatch(text.strip())
        # A leading '-' would be read by ssh as an option.
        if match is None or match["host"].startswith("-"):
            raise UsageError(f"bad host {text!r}: expected [ssh://][user@]host[:port]")
        port = int(match["port"]) if match["port"] else None
        if port is not None and not 0 < port < 65536:
            raise UsageError(f"bad host {text!r}: port out of range")
        return cls(match["host"].strip("[]"), match["user"], port)

    def __str__(self) -> str:
        user = f"{self.user}@" if self.user else ""
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{user}{host}" + (f":{self.port}" if self.port else "")

    def argv(self, command: Sequence[str]) -> list[str]:
        """The ssh client's argv that runs `command` (an argv list) on this host."""
        argv = [
            "ssh",
            *_config(),
            "-o", "BatchMode=yes",
            "-o", "StrictHostKeyChecking=yes",
            "-o", f"ConnectTimeout={CONNECT_TIMEOUT_S}",
            "-o", f"ServerAliveInterval={ALIVE_INTERVAL_S}",
            "-o", f"ServerAliveCountMax={ALIVE_COUNT}",
            "-o", "LogLevel=INFO",
            "-T",
            *self._login(),
        ]  # fmt: skip
        return [*argv, "--", self.host, shlex.join(command)]

    def _login(self) -> list[str]:
        return [*(["-l", self.user] if self.user else []), *self._port()]

    def _port(self) -> list[str]:
        return ["-p", str(self.port)] if self.port else []

    def settings(self) -> dict[str, str]:
        """What ssh makes of this host with its config (`ssh -G`): `hostname`, `port`,
        `userknownhostsfile` ...; empty when it cannot tell. Runs no remote command."""
        try:
            done = subprocess.run(
                ["ssh", *_config(), "-G", *self._login(), "--", self.host],
                stdin=subprocess.DEVNULL,
                capture_output=True,
                text=True,
                timeout=CONNECT_TIMEOUT_S,
                check=False,
            )
        except (OSError, subprocess.TimeoutExpired):
            return {}
        if done.returncode != 0:
            return {}
        pairs = (line.split(" ", 1) for line in done.stdout.splitlines())
        return {pair[0]: pair[1] for pair in pairs if len(pair) == 2}


def _config() -> list[str]:
    config = os.environ.get(CONFIG_ENV)
    return ["-F", config] if config else []


def keyscan_hint(host: SshHost, settings: Mapping[str, str]) -> str:
    """The command that trusts `host`'s key, for the host and port ssh connects to (an
    ssh_config alias names neither) and into the known_hosts file ssh reads."""
    name = settings.get("hostname") or host.host
    port = settings.get("port") or (str(host.port) if host.port else "22")
    scan = shlex.join(["ssh-keyscan", *(["-p", port] if port != "22" else []), name])
    files = settings.get("userknownhostsfile", "").split()
    return f"{scan} >> {_home_relative(files[0] if files else '~/.ssh/known_hosts')}"


def _home_relative(path: str) -> str:
    # `~/…` unquoted, or the shell would not expand it.
    home = str(Path.home())
    if path.startswith("~/"):
        return "~/" + shlex.quote(path[2:])
    if path.startswith(home + "/"):
        return "~/" + shlex.quote(path[len(home) + 1 :])
    return shlex.quote(path)


def failure(host: SshHost, stderr: str, code: int) -> str:
    """What went wrong reaching `host` (ssh's `stderr` and exit `code`), in one line that
    says what to do about it. For an unknown host key it asks ssh how it reads the host (a
    local process, no connection): from a coroutine, call it in a thread."""
    if code < 0:
        # Killed from outside: ssh had no chance to say anything, and what it said is moot.
        return f"{host}: ssh was killed ({_signal_name(-code)})"
    text = " ".join(stderr.split())
    if "REMOTE HOST IDENTIFICATION HAS CHANGED" in text:
        return (
            f"{host}: its host key has changed since it was trusted: if that is expected, "
            f"remove the old one with `ssh-keygen -R {host.host}`"
        )
    if "Host key verification failed" in text or "No ED25519 host key is known" in text:
        return (
            f"{host}: its host key is not known: check its fingerprint, then trust it with "
            f"`{keyscan_hint(host, host.settings())}` (or log in once with ssh)"
        )
    if "Permission denied" in text:
        return f"{host}: the login was refused: load a key the host accepts into the ssh agent"
    if "Could not resolve hostname" in text:
        return f"{host}: cannot resolve the host name"
    for cause in ("Connection refused", "timed out", "No route to host", "Network is unreachable"):
        if cause in text:
            return f"{host}: cannot connect ({cause.lower()})"
    if any(cause in text for cause in ("closed by", "reset by", "Broken pipe")):
        return f"{host}: the host closed the connection"
    last = stderr.strip().splitlines()[-1] if stderr.strip() else "ssh failed"
    return f"{host}: {last.strip()}"


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"
