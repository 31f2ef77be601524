"""Several load generators at once: real h2load and wrk on pretend hosts (sshd on 127.0.0.2
and 127.0.0.3) and here, against a real nginx, all on loopback."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import psutil
import pytest

from tests.conftest import need
from tests.fakes import A_SECOND, wait_for_run
from tests.integration.test_cli_real_tools import TUIBENCH, run_json
from tests.sshd import SshServer, refused_config, ssh_servers
from tui_bench.demo.nginx_target import DemoTarget
from tui_bench.jobs.settings import JobSettings
from tui_bench.parsers.detect import parse_output
from tui_bench.request.run import RunRequest
from tui_bench.spec import RunSpec
from tui_bench.storage import store
from tui_bench.ui.launch import JobLauncher

pytestmark = pytest.mark.real

# A phrase of the program that runs a tool on its host (remote/streamed_tool.py).
PROGRAM_MARK = "def send_log"


def tools_for(url: str) -> list[str]:
    """The names of the load tools, and the programs around them, still running against
    `url` (read in one pass: a process may end at any moment)."""
    found = []
    for proc in psutil.process_iter(["name", "cmdline"]):
        cmdline = proc.info["cmdline"] or []
        if url in " ".join(cmdline) and (
            proc.info["name"] in ("h2load", "wrk") or any(PROGRAM_MARK in a for a in cmdline)
        ):
            found.append(str(proc.info["name"]))
    return found


def wait_until(what: Any, timeout_s: float = 15.0) -> None:
    deadline = time.monotonic() + timeout_s
    while not what():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.1)


def start(url: str, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [*TUIBENCH, "run", "--headless", "--json", "--interval", "0.2", *args, url],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
    )  # fmt: skip


def own_summary(generator: dict[str, Any]) -> Any:
    """What the generator's tool itself printed, parsed from its raw output."""
    raw = generator["session"]["raw"]
    return parse_output(raw["stdout"] + raw["stderr"], generator["tool"]["name"])


def test_the_load_splits_and_merges_exactly(
    nginx: DemoTarget, sessions: Path, ssh_config: Path, ssh_hosts: tuple[Path, list[SshServer]]
) -> None:
    need("h2load")
    _, (c, d) = ssh_hosts
    code, result, stderr = run_json(
        "-n", "3001", "-c", "5", "-m", "4",
        "--generator", c.alias, "--generator", f"ssh://{d.target}", "--generator", "local",
        nginx.urls["h2c"],
    )  # fmt: skip
    assert code == 0, stderr
    doc = store.load(result["session_path"]).doc
    generators = doc["generators"]
    assert [g["host"] for g in generators] == [c.alias, d.target, "local"]
    assert [g["host"] for g in result["generators"]] == [c.alias, d.target, "local"]
    # As h2load splits -c and -n across -t: total // n each, the first total % n one more.
    assert [g["spec"]["connections"] for g in generators] == [2, 2, 1]
    assert [g["spec"]["requests"] for g in generators] == [1001, 1000, 1000]
    summaries = [own_summary(g) for g in generators]
    assert result["requests"]["total"] == sum(s.requests.total for s in summaries) == 3001
    assert result["requests"]["succeeded"] == sum(s.requests.succeeded for s in summaries)
    for cls in ("2xx", "3xx", "4xx", "5xx"):
        assert result["status"][cls] == sum(s.status[cls] for s in summaries)
    assert result["traffic"]["total_bytes"] == sum(s.traffic.total_bytes for s in summaries)
    # Every request's time, merged: the histogram counts each generator's requests once.
    assert store.load(result["session_path"]).histogram.count == 3001
    assert sum(row["requests"] for row in store.load(result["session_path"]).series) == 3001
    assert sum(g["share"] for g in generators) == pytest.approx(1.0)
    remote = generators[:2]
    assert all(g["start_skew_s"] is not None and abs(g["start_skew_s"]) < 2 for g in remote)
    assert all(g["stream_bytes"] > 26 * 1000 for g in remote), "the request log came back"
    # There, the log was a temporary file of the program's own, handed over as /dev/fd/N.
    assert all(any(a.startswith("--log-file=/dev/fd/") for a in g["argv"]) for g in remote)
    assert all(g["session"]["raw"]["stdout"].startswith("starting benchmark") for g in generators)


def test_wrk_splits_its_connections_too(
    nginx: DemoTarget, sessions: Path, ssh_config: Path, ssh_hosts: tuple[Path, list[SshServer]]
) -> None:
    need("wrk")
    _, (c, d) = ssh_hosts
    code, result, stderr = run_json(
        "--tool", "wrk", "-d", "1", "-c", "3", "-t", "2",
        "--generator", c.alias, "--generator", d.alias, nginx.urls["h1"],
    )  # fmt: skip
    assert code == 0, stderr
    generators = store.load(result["session_path"]).doc["generators"]
    assert [(g["spec"]["connections"], g["spec"]["threads"]) for g in generators] == [
        (2, 2),
        (1, 1),
    ]
    summaries = [own_summary(g) for g in generators]
    assert result["requests"]["total"] == sum(s.requests.total for s in summaries) > 0
    # wrk gives quantiles but no histogram: the merged run's percentiles come from its hosts'
    # quantile tables merged (never averaged), marked approximate.
    assert result["latency"]["approx"] is True
    own = [s.latency.percentiles["p99_s"] for s in summaries if s.latency]
    assert min(own) * 0.9 <= result["latency"]["p99_s"] <= max(own) * 1.1
    assert all(g["client_cpu_mean_pct"] is not None for g in generators), "CPU read there"


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP, signal.SIGKILL])
def test_stopping_tuibench_leaves_no_tool_on_any_host(
    sig: signal.Signals,
    nginx: DemoTarget,
    sessions: Path,
    ssh_config: Path,
    ssh_hosts: tuple[Path, list[SshServer]],
) -> None:
    need("h2load")
    _, (c, d) = ssh_hosts
    url = nginx.urls["h2c"]
    proc = start(url, "-d", "30", "-c", "3", "--generator", c.alias, "--generator", d.alias,
                 "--generator", "local")  # fmt: skip
    try:
        wait_for_run(sessions)
        wait_until(lambda: tools_for(url).count("h2load") == 3)
        # Once every generator measured a second (the run's seconds merge theirs): an h2load
        # signalled as it starts, before it handles SIGINT, ends at once with nothing
        # written (a busy machine did so). A journal is flushed once a second (what a kill -9
        # loses at most), and at once with a second measured.
        wait_for_run(sessions, output=A_SECOND)
        if sig == signal.SIGKILL:
            os.killpg(proc.pid, sig)
        else:
            proc.send_signal(sig)
        out, _ = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    wait_until(lambda: not tools_for(url))
    if sig != signal.SIGKILL:
        doc = store.load(orjson.loads(out)["session_path"]).doc
        assert doc["status"] == "interrupted"
    else:
        # Killed outright: the next start recovers what every generator had measured.
        [recovered] = store.recover_abandoned(sessions)
        doc = store.load(recovered).doc
    assert [g["host"] for g in doc["generators"]] == [c.alias, d.alias, "local"]
    assert all(g["session"]["raw"]["stdout"] for g in doc["generators"])


def bin_without_h2load(root: Path) -> Path:
    """A PATH directory with everything /usr/bin has but h2load."""
    bin_dir = root / "bin"
    bin_dir.mkdir()
    for program in Path("/usr/bin").iterdir():
        if program.name != "h2load":
            (bin_dir / program.name).symlink_to(program)
    return bin_dir


@pytest.fixture(scope="module")
def bare_host(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, SshServer]]:
    """A host whose PATH has everything /usr/bin has but h2load."""
    root = tmp_path_factory.mktemp("bare")
    bin_dir = bin_without_h2load(root)
    with ssh_servers(root, ["127.0.0.4"], extra=f"SetEnv PATH={bin_dir}\n") as (config, hosts):
        yield config, hosts[0]


def test_a_sweep_on_other_hosts_only_needs_no_tool_here(
    nginx: DemoTarget,
    sessions: Path,
    ssh_config: Path,
    ssh_hosts: tuple[Path, list[SshServer]],
    tmp_path: Path,
) -> None:
    need("h2load")
    _, (c, d) = ssh_hosts
    proc = subprocess.run(
        [*TUIBENCH, "sweep", "--headless", "--json", "--interval", "0.2", "--cool-down", "0",
         "--vary", "c=2,4", "-n", "400", "--generator", c.alias, "--generator", d.alias,
         nginx.urls["h2c"]],
        capture_output=True, text=True, timeout=90, check=False,
        env={**os.environ, "PATH": str(bin_without_h2load(tmp_path))},
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    doc = store.load(Path(orjson.loads(proc.stdout)["session_path"])).doc
    runs = [r["session"] for r in doc["runs"]]
    assert [r["result"]["requests"]["total"] for r in runs] == [400, 400]
    assert all([g["host"] for g in r["generators"]] == [c.alias, d.alias] for r in runs)
    # Labelled with the tool the generators ran: the first one's, there.
    assert doc["tool"]["path"] == runs[0]["generators"][0]["tool"]["path"]


async def test_the_run_form_on_other_hosts_only_needs_no_tool_here(
    nginx: DemoTarget, ssh_config: Path, ssh_hosts: tuple[Path, list[SshServer]]
) -> None:
    _, (c, d) = ssh_hosts
    spec = RunSpec(urls=(nginx.urls["h2c"],), connections=2, requests=10)
    request = RunRequest(spec, server_mode="none", generators=(c.alias, d.alias))
    launcher = JobLauncher(JobSettings(tool_paths={"h2load": "/nonexistent/h2load"}))
    label = (await launcher(request)).label
    assert label.startswith("h2load "), "the generators' h2load, found there"


def test_a_host_without_the_tool_is_one_line_before_any_load(
    nginx: DemoTarget, sessions: Path, bare_host: tuple[Path, SshServer]
) -> None:
    config, host = bare_host
    proc = subprocess.run(
        [*TUIBENCH, "run", "--headless", "-d", "2", "--generator", host.alias, nginx.urls["h2c"]],
        capture_output=True, text=True, timeout=60, check=False,
        env={**os.environ, "TUIBENCH_SSH_CONFIG": str(config)},
    )  # fmt: skip
    assert proc.returncode == 2
    assert proc.stderr == (
        f"tuibench: error: {host.alias}: h2load is not installed there (Debian: nghttp2-client)\n"
    )
    assert not sessions.exists() or not list(sessions.iterdir()), "no load started"


def test_an_unreachable_generator_is_one_line_before_any_load(
    nginx: DemoTarget, sessions: Path, ssh_config: Path
) -> None:
    proc = subprocess.run(
        [*TUIBENCH, "run", "--headless", "-d", "2", "--generator", "local",
         "--generator", "root@127.0.0.9:1", nginx.urls["h2c"]],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert proc.returncode == 2
    assert proc.stderr == (
        "tuibench: error: root@127.0.0.9:1: cannot connect (connection refused)\n"
    )
    assert not sessions.exists() or not list(sessions.iterdir()), "no load started"


def test_hostile_values_reach_the_remote_tool_as_text(
    nginx: DemoTarget,
    sessions: Path,
    ssh_config: Path,
    ssh_hosts: tuple[Path, list[SshServer]],
    tmp_path: Path,
) -> None:
    need("h2load")
    _, (c, _) = ssh_hosts
    witness = tmp_path / "pwned"
    header = f"X-Test: $(touch {witness}); touch {witness} '\"` touch {witness}`"
    code, result, stderr = run_json(
        "-n", "10", "-c", "1", "-H", header, "--generator", c.alias, nginx.urls["h2c"]
    )  # fmt: skip
    assert code == 0, stderr
    [generator] = store.load(result["session_path"]).doc["generators"]
    assert header in generator["argv"]
    # No space (a URL with one is refused here): the shell's own word separator instead.
    url = nginx.urls["h2c"] + f"?q=';touch${{IFS}}{witness};'"
    code, result, stderr = run_json("-n", "10", "-c", "1", "--generator", c.alias, url)
    # h2load there got the URL as it was written, no shell ran any of it.
    assert code == 0, stderr
    [generator] = store.load(result["session_path"]).doc["generators"]
    assert url in generator["argv"]
    assert not witness.exists()


def test_a_refused_login_on_a_generator_is_one_line_before_any_load(
    nginx: DemoTarget, sessions: Path, ssh_hosts: tuple[Path, list[SshServer]], tmp_path: Path
) -> None:
    config, (_, d) = ssh_hosts
    proc = subprocess.run(
        [*TUIBENCH, "run", "--headless", "-d", "2", "--generator", d.alias, nginx.urls["h2c"]],
        capture_output=True, text=True, timeout=60, check=False,
        env={**os.environ, "TUIBENCH_SSH_CONFIG": str(refused_config(config, tmp_path))},
    )  # fmt: skip
    assert proc.returncode == 2
    assert proc.stderr == (
        f"tuibench: error: {d.alias}: the login was refused: load a key the host accepts "
        "into the ssh agent\n"
    )
    assert not sessions.exists() or not list(sessions.iterdir()), "no load started"
