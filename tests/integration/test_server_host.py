"""The server's metrics from its own host, over real SSH (sshd on 127.0.0.2 and .3)."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
from collections.abc import Sequence
from pathlib import Path

import orjson
import psutil
import pytest

from tests.conftest import need
from tests.fakes import wait_for_run
from tests.integration.test_cli_real_tools import TUIBENCH, run_json, tuibench
from tests.sshd import SshServer, refused_config
from tui_bench.demo.nginx_target import DemoTarget
from tui_bench.storage import store

pytestmark = pytest.mark.real


def probes(hosts: Sequence[SshServer]) -> list[psutil.Process]:
    """The probes still running on `hosts` (their program's text is on their command line):
    only those under these hosts' sshd, never those of another run on this machine."""
    found = []
    for host in hosts:
        try:
            below = psutil.Process(host.pid).children(recursive=True)
        except psutil.NoSuchProcess:
            continue
        for proc in below:
            with contextlib.suppress(psutil.Error):
                if any("def answer_pings" in arg for arg in proc.cmdline()):
                    found.append(proc)
    return found


def run_with_config(config: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*TUIBENCH, "run", "--headless", *args],
        capture_output=True, text=True, timeout=60, check=False,
        env={**os.environ, "TUIBENCH_SSH_CONFIG": str(config)},
    )  # fmt: skip


def wait_no_probes(hosts: Sequence[SshServer], timeout_s: float = 10.0) -> None:
    deadline = time.monotonic() + timeout_s
    while probes(hosts) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert probes(hosts) == [], "a probe was left behind"


def test_server_metrics_come_from_its_host(
    nginx: DemoTarget, sessions: Path, ssh_config: Path, ssh_hosts: tuple[Path, list[SshServer]]
) -> None:
    need("h2load")
    _, (server_host, _) = ssh_hosts
    code, result, stderr = run_json(
        "--server-host", server_host.alias, "-d", "2", "-c", "4", nginx.urls["h2c"]
    )
    assert code == 0, stderr
    session = store.load(result["session_path"])
    server = session.doc["server"]
    assert server["host"] == server_host.alias and server["name"] == "nginx"
    assert abs(server["clock_offset_s"]) < 0.5 and 0 < server["rtt_s"] < 1
    cpu = [row["server_cpu_pct"] for row in session.series if row["server_cpu_pct"] is not None]
    assert cpu and max(cpu) > 5, session.series
    assert all(s["server_procs"] >= 2 for s in session.samples or [] if s.get("server_procs"))
    resources = session.doc["resources"]
    assert resources["server_cpu_mean_pct"] > 5 and resources["client_cpu_mean_pct"] is not None
    probe_cpu = resources["server_probe_cpu_mean_pct"]
    # 0.5 % of a core measured at the default interval: a probe gone busy shows far above.
    assert probe_cpu is not None and probe_cpu < 10
    wait_no_probes(ssh_hosts[1])


def test_an_unknown_host_key_is_refused_before_any_load(
    nginx: DemoTarget, sessions: Path, ssh_hosts: tuple[Path, list[SshServer]], tmp_path: Path
) -> None:
    config, (server_host, _) = ssh_hosts
    strict = tmp_path / "ssh_config"
    empty = tmp_path / "known_hosts"
    empty.write_text("")
    strict.write_text(config.read_text().replace(str(config.parent / "known_hosts"), str(empty)))
    proc = run_with_config(
        strict, "--server-host", server_host.target, "-d", "5", nginx.urls["h2c"]
    )
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1, proc.stderr
    port = str(server_host.port)
    assert f"ssh-keyscan -p {port} {server_host.address}" in proc.stderr
    assert not sessions.exists() or not list(sessions.iterdir()), "no load started"


def test_a_hostile_name_reaches_the_probe_as_text(
    nginx: DemoTarget, sessions: Path, ssh_config: Path, tmp_path: Path,
    ssh_hosts: tuple[Path, list[SshServer]],
) -> None:  # fmt: skip
    _, (server_host, _) = ssh_hosts
    witness = tmp_path / "pwned"
    hostile = f"nginx'; touch {witness}; echo '$(touch {witness})"
    proc = tuibench(
        "run", "--headless", "--server-host", server_host.alias, "--server-name", hostile,
        "-d", "1", nginx.urls["h2c"],
    )  # fmt: skip
    assert proc.returncode == 2
    assert "no process named" in proc.stderr and not witness.exists()


def test_killed_tuibench_leaves_no_probe_behind(
    nginx: DemoTarget, sessions: Path, ssh_config: Path, ssh_hosts: tuple[Path, list[SshServer]]
) -> None:
    need("h2load")
    _, (server_host, _) = ssh_hosts
    proc = subprocess.Popen(
        [*TUIBENCH, "run", "--headless", "--server-host", server_host.alias, "-d", "20",
         nginx.urls["h2c"]],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
    )  # fmt: skip
    try:
        wait_for_run(sessions)
        assert probes(ssh_hosts[1]), "the probe runs while the run does"
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    wait_no_probes(ssh_hosts[1])


def test_the_server_host_lost_mid_run_is_a_warning(
    nginx: DemoTarget, sessions: Path, ssh_config: Path, ssh_hosts: tuple[Path, list[SshServer]]
) -> None:
    need("h2load")
    _, (server_host, _) = ssh_hosts
    proc = subprocess.Popen(
        [*TUIBENCH, "run", "--headless", "--json", "--server-host", server_host.alias,
         "-d", "8", nginx.urls["h2c"]],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    wait_for_run(sessions)
    deadline = time.monotonic() + 60
    while not probes(ssh_hosts[1]):
        assert time.monotonic() < deadline, "no probe on the server's host"
        time.sleep(0.1)
    for probe in probes(ssh_hosts[1]):
        probe.kill()
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    assert "no more server metrics" in err

    session = store.load(orjson.loads(out)["session_path"])
    assert "server-host-lost" in {w["code"] for w in session.doc["warnings"]}
    # The load was measured all the same: losing the server's host is a note, not a reason
    # (a saturated generator on a busy machine may still make the run suspect).
    codes = {r["code"] for r in session.doc["validity"]["reasons"]}
    assert session.doc["validity"]["verdict"] != "invalid" and not codes & {
        "server-host",
        "server-host-lost",
    }


def test_doctor_checks_another_host_as_it_checks_this_one(
    ssh_config: Path, ssh_hosts: tuple[Path, list[SshServer]]
) -> None:
    _, (server_host, _) = ssh_hosts
    here = tuibench("doctor")
    there = tuibench("doctor", "--host", server_host.alias)
    assert there.returncode == 0, there.stderr
    assert there.stdout.splitlines()[0] == f"{server_host.alias}:"
    # The same machine under both names: the same checks, the same findings.
    assert there.stdout.splitlines()[1:] == here.stdout.splitlines()


def test_doctor_on_an_unreachable_host_is_one_line(ssh_config: Path) -> None:
    proc = tuibench("doctor", "--host", "root@127.0.0.9:1")
    assert proc.returncode == 2
    assert proc.stderr.strip() == (
        "tuibench: error: root@127.0.0.9:1: cannot connect (connection refused)"
    )


def test_a_refused_login_is_one_line_before_any_load(
    nginx: DemoTarget, sessions: Path, ssh_hosts: tuple[Path, list[SshServer]], tmp_path: Path
) -> None:
    config, (server_host, _) = ssh_hosts
    proc = run_with_config(
        refused_config(config, tmp_path),
        "--server-host",
        server_host.alias,
        "-d",
        "5",
        nginx.urls["h2c"],
    )
    assert proc.returncode == 2
    assert proc.stderr == (
        f"tuibench: error: {server_host.alias}: the login was refused: load a key the host "
        "accepts into the ssh agent\n"
    )
    assert not sessions.exists() or not list(sessions.iterdir()), "no load started"
