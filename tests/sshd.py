"""Real OpenSSH servers for the tests: one non-daemon `sshd -D` per pretend host on a
loopback address of its own (127.0.0.2, 127.0.0.3, ...), with generated host and user keys,
and an ssh_config naming each host. Nothing listens beyond this machine's loopback.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

SSHD = "/usr/sbin/sshd"
START_TIMEOUT_S = 10.0


@dataclass(frozen=True)
class SshServer:
    alias: str  # its Host entry in `config`
    address: str
    port: int
    pid: int
    host_key_line: str  # as known_hosts holds it

    @property
    def target(self) -> str:
        """How a user names it beside the config: `root@127.0.0.2:PORT`."""
        return f"root@{self.address}:{self.port}"


def _free_port(address: str) -> int:
    with socket.socket() as sock:
        sock.bind((address, 0))
        return int(sock.getsockname()[1])


def _keygen(path: Path) -> str:
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(path)], check=True)
    return path.with_suffix(".pub").read_text().strip()


@contextmanager
def ssh_servers(
    root: Path, addresses: list[str], extra: str = ""
) -> Iterator[tuple[Path, list[SshServer]]]:
    """The servers, and the ssh_config (to pass as `ssh -F`) that knows them all; `extra`:
    lines added to each server's sshd_config."""
    if not (os.path.exists(SSHD) and shutil.which("ssh")):
        pytest.skip("openssh-server and openssh-client are not installed")
    # sshd insists on its privilege separation directory.
    Path("/run/sshd").mkdir(mode=0o755, exist_ok=True)
    user_key = root / "id_ed25519"
    user_pub = _keygen(user_key)
    (root / "authorized_keys").write_text(user_pub + "\n")
    servers: list[SshServer] = []
    procs: list[subprocess.Popen[bytes]] = []
    known: list[str] = []
    config: list[str] = []
    try:
        for i, address in enumerate(addresses):
            home = root / f"host{i}"
            home.mkdir()
            host_pub = _keygen(home / "host_key")
            port = _free_port(address)
            (home / "sshd_config").write_text(
                f"ListenAddress {address}:{port}\n"
                f"HostKey {home / 'host_key'}\n"
                f"PidFile {home / 'sshd.pid'}\n"
                f"AuthorizedKeysFile {root / 'authorized_keys'}\n"
                "PermitRootLogin prohibit-password\n"
                "PasswordAuthentication no\n"
                "KbdInteractiveAuthentication no\n"
                "UsePAM no\n"
                "StrictModes no\n" + extra
            )
            proc = subprocess.Popen(
                [SSHD, "-D", "-e", "-f", str(home / "sshd_config")],
                stdout=subprocess.DEVNULL,
                stderr=(home / "sshd.log").open("wb"),
            )
            procs.append(proc)
            line = f"[{address}]:{port} {' '.join(host_pub.split()[:2])}"
            known.append(line)
            alias = f"host{i}"
            config.append(
                f"Host {alias} {address}\n    HostName {address}\n    Port {port}\n    User root\n"
            )
            servers.append(SshServer(alias, address, port, proc.pid, line))
        (root / "known_hosts").write_text("\n".join(known) + "\n")
        config.append(
            "Host *\n"
            f"    IdentityFile {user_key}\n    IdentitiesOnly yes\n"
            f"    UserKnownHostsFile {root / 'known_hosts'}\n"
            "    GlobalKnownHostsFile /dev/null\n"
        )
        (root / "ssh_config").write_text("".join(config))
        for server in servers:
            _wait_listening(server.address, server.port)
        yield root / "ssh_config", servers
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            try:
                proc.wait(5)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def _wait_listening(address: str, port: int) -> None:
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        with socket.socket() as sock:
            if sock.connect_ex((address, port)) == 0:
                return
        time.sleep(0.05)
    raise RuntimeError(f"sshd on {address}:{port} did not start")


def refused_config(config: Path, directory: Path) -> Path:
    """`config` with a key the hosts do not accept: every login is refused."""
    stranger = directory / "stranger"
    _keygen(stranger)
    refused = directory / "ssh_config"
    refused.write_text(config.read_text().replace(str(config.parent / "id_ed25519"), str(stranger)))
    return refused
