"""Runs of several generators (sshd on 127.0.0.2 and 127.0.0.3, and here) against a real
nginx: the first generator lost mid-run (the run's rates are its requests over its window,
the lost host's counted up to its loss, and the server's series goes on without it), and the
server sampled on its host by the run, not by a generator."""

from __future__ import annotations

from pathlib import Path

import orjson
import psutil
import pytest

from tests.conftest import need
from tests.fakes import A_SECOND, wait_for_run
from tests.integration.test_cli_real_tools import run_json
from tests.integration.test_generators import start, tools_for, wait_until
from tests.integration.test_server_host import wait_no_probes
from tests.sshd import SshServer
from tui_bench.demo.nginx_target import DemoTarget
from tui_bench.report.text import generator_lines, result_rows
from tui_bench.result import Result
from tui_bench.storage import store
from tui_bench.storage.generator_codec import generator_of

pytestmark = pytest.mark.real


def test_losing_the_first_generator_keeps_rates_and_the_server_whole(
    nginx: DemoTarget, sessions: Path, ssh_config: Path, ssh_hosts: tuple[Path, list[SshServer]]
) -> None:
    need("h2load")
    _, (c, d) = ssh_hosts
    url = nginx.urls["h2c"]
    proc = start(
        url, "-d", "3", "-c", "2", "--server-pid", str(nginx.pid),
        "--generator", c.alias, "--generator", d.alias,
    )  # fmt: skip
    wait_until(lambda: tools_for(url).count("h2load") == 2)
    # Once a second is measured, so the host to lose has measured and sent back some.
    wait_for_run(sessions, output=A_SECOND)
    for ssh in psutil.Process(proc.pid).children(recursive=True):
        if ssh.name() == "ssh" and c.alias in ssh.cmdline():
            ssh.kill()
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    shown = orjson.loads(out)
    doc = store.load(shown["session_path"]).doc
    # The others ran on: the run completed, suspect for the host it lost.
    assert doc["status"] == "completed"
    assert doc["validity"]["verdict"] == "suspect"
    assert "generator-lost" in {r["code"] for r in doc["validity"]["reasons"]}
    lost, kept = doc["generators"]
    assert lost["lost"] and c.alias in lost["lost"] and not kept["lost"]
    assert lost["session"]["result"]["requests"]["total"] > 0, "what the lost host measured"
    result = Result.from_dict(doc["result"])
    window = result.duration_s
    done = result.requests.done
    assert window and done and result.rps
    # The merged requests over the merged window, in the session and in --json alike.
    assert result.rps == pytest.approx(done / window)
    assert shown["rps"] == result.rps
    assert done == sum(g["session"]["result"]["requests"]["done"] for g in (lost, kept))
    assert result.requests.started is not None and result.requests.started >= done
    # Each generator's req/s is its requests over that window: the lost one's up to its loss.
    for g, json_g in zip(doc["generators"], shown["generators"], strict=True):
        own = g["session"]["result"]["requests"]["done"]
        assert g["rps"] == json_g["rps"] == pytest.approx(own / window)
    assert sum(g["rps"] for g in doc["generators"]) == pytest.approx(result.rps)
    assert sum(g["share"] for g in doc["generators"]) == pytest.approx(1.0)
    assert f"{result.rps:,.2f}" in dict(result_rows(result))["req/s"]
    (line,) = generator_lines([generator_of(kept)])
    assert f"generator {kept['host']}  {kept['rps']:,.0f} req/s" in line
    # The server was sampled to the end, though the generator lost was the first.
    rows = store.load(shown["session_path"]).series
    # Every whole second after the loss, some 1.3 s in (the last may hold only a reading too
    # short to tell CPU: unknown).
    assert len(rows) >= 3
    assert all(r.get("server_cpu_pct") is not None for r in rows[1:-1]), rows
    assert doc["resources"]["server_cpu_mean_pct"] is not None
    wait_until(lambda: not tools_for(url))


def test_the_server_on_its_host_is_sampled_by_the_run_of_several(
    nginx: DemoTarget, sessions: Path, ssh_config: Path, ssh_hosts: tuple[Path, list[SshServer]]
) -> None:
    need("h2load")
    _, (server_host, d) = ssh_hosts
    code, result, stderr = run_json(
        "--server-host", server_host.alias, "-d", "2", "-c", "4",
        "--generator", "local", "--generator", d.alias, nginx.urls["h2c"],
    )  # fmt: skip
    assert code == 0, stderr
    doc = store.load(result["session_path"]).doc
    assert doc["server"]["host"] == server_host.alias and doc["server"]["name"] == "nginx"
    rows = store.load(result["session_path"]).series
    cpu = [row.get("server_cpu_pct") for row in rows]
    assert any(c is not None for c in cpu), rows
    assert all(c is not None for c in cpu[1:-1]), rows
    resources = doc["resources"]
    assert resources["server_cpu_mean_pct"] > 5
    assert resources["server_probe_cpu_mean_pct"] is not None
    # Beside the server, the busiest generator's CPU, as the series' rows have it.
    assert resources["client_cpu_mean_pct"] is not None
    assert [g["start_skew_s"] is not None for g in doc["generators"]] == [True, True]
    wait_no_probes(ssh_hosts[1])
