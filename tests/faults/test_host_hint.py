"""An unknown host key named through an ssh_config alias: the hint trusts the host ssh
really connects to (its HostName and Port) in the known_hosts file ssh really reads, and
running it as printed lets the next connection in."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from tests.integration.test_server_host import run_with_config
from tests.sshd import SshServer
from tui_bench.demo.nginx_target import DemoTarget

pytestmark = pytest.mark.real


def test_the_hint_for_an_alias_is_a_command_that_works(
    nginx: DemoTarget, sessions: Path, ssh_hosts: tuple[Path, list[SshServer]], tmp_path: Path
) -> None:
    fixture_config, (server, _) = ssh_hosts
    identity = fixture_config.parent / "id_ed25519"
    known = tmp_path / "known_hosts"
    known.write_text("")
    config = tmp_path / "ssh_config"
    # An alias that names neither the address nor the port: only HostName and Port do.
    config.write_text(
        "Host bench-target\n"
        f"    HostName {server.address}\n    Port {server.port}\n    User root\n"
        f"    IdentityFile {identity}\n    IdentitiesOnly yes\n"
        f"    UserKnownHostsFile {known}\n    GlobalKnownHostsFile /dev/null\n"
    )
    proc = run_with_config(config, "--server-host", "bench-target", "-d", "1", nginx.urls["h2c"])
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.count("\n") == 1, proc.stderr
    assert "bench-target: its host key is not known" in proc.stderr
    hint = re.search(r"`(ssh-keyscan [^`]*)`", proc.stderr)
    assert hint, proc.stderr
    assert hint[1] == f"ssh-keyscan -p {server.port} {server.address} >> {known}"
    assert not sessions.exists() or not list(sessions.iterdir()), "no load started"

    # As a user would: pasted into a shell.
    subprocess.run(["sh", "-c", hint[1]], check=True, capture_output=True, timeout=10)
    assert server.host_key_line.split()[-1] in known.read_text()
    login = subprocess.run(
        ["ssh", "-F", str(config), "-o", "BatchMode=yes", "-o", "StrictHostKeyChecking=yes",
         "bench-target", "true"],
        capture_output=True, text=True, timeout=10, check=False,
    )  # fmt: skip
    assert login.returncode == 0, login.stderr
