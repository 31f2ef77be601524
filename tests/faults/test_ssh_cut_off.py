"""An SSH login cut off before it is done, met by the real ssh client: the host hangs up in
the middle of it, or the client is killed. Each is one line that says which, never a bare
"ssh failed" (ssh says the first at its INFO log level only, and nothing for the second)."""

from __future__ import annotations

import os
import signal
import socket
import threading
from collections.abc import Callable
from pathlib import Path

import psutil
import pytest

from tests.conftest import need
from tests.faults.conftest import in_process

Answer = Callable[[socket.socket, int], None]


def hang_up_after_the_banner(connection: socket.socket, port: int) -> None:
    """As an sshd whose login process dies."""
    connection.sendall(b"SSH-2.0-OpenSSH_9.2\r\n")


def kill_the_client(connection: socket.socket, port: int) -> None:
    """As anything that kills ssh from outside while it waits on the host."""
    for proc in psutil.Process().children(recursive=True):
        if proc.name() == "ssh" and str(port) in proc.cmdline():
            os.kill(proc.pid, signal.SIGKILL)


def doctor_against(
    answer: Answer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> tuple[str, str]:
    """`tuibench doctor --host` against a port whose first connection gets `answer`: the
    host as named and what tuibench said."""
    need("ssh")
    config = tmp_path / "ssh_config"
    config.write_text(
        "Host *\n    UserKnownHostsFile /dev/null\n    GlobalKnownHostsFile /dev/null\n"
    )
    monkeypatch.setenv("TUIBENCH_SSH_CONFIG", str(config))
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(1)
        listener.settimeout(10)
        port = int(listener.getsockname()[1])

        def answer_once() -> None:
            connection, _ = listener.accept()
            with connection:
                answer(connection, port)

        server = threading.Thread(target=answer_once, daemon=True)
        server.start()
        host = f"root@127.0.0.1:{port}"
        proc = in_process(capsys, "doctor", "--host", host)
        server.join(10)
    assert proc.returncode == 2
    return host, proc.stderr


@pytest.mark.real
def test_a_host_that_hangs_up_during_the_login_is_said(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    host, said = doctor_against(hang_up_after_the_banner, tmp_path, monkeypatch, capsys)
    assert said == f"tuibench: error: {host}: the host closed the connection\n"


@pytest.mark.real
def test_a_killed_ssh_is_said(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    host, said = doctor_against(kill_the_client, tmp_path, monkeypatch, capsys)
    assert said == f"tuibench: error: {host}: ssh was killed (SIGKILL)\n"
