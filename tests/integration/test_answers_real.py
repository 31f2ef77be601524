"""Servers whose answers are not all the same 200: half of them 500, pages whose length
varies, a redirect. Every tool's figures add up (good + failed + answers outside 2xx/3xx =
all), ab's "Length" failures (an answer longer or shorter than the first) are not failed
requests, and a redirect is a good answer for every tool, the run saying what it measured."""

from __future__ import annotations

import socket
import subprocess
from collections.abc import Iterator
from pathlib import Path

import orjson
import pytest

from tests.conftest import need
from tests.integration.test_cli_real_tools import HANG_S, run_json, tuibench
from tests.integration.tool_counts import assert_good, said_bad
from tests.own_nginx import free_ports, own_server

pytestmark = pytest.mark.real

HTTP = """
    split_clients "${request_id}" $answer { 50% 200; * 500; }
"""
SERVER = """
        listen 127.0.0.1:{port};
        keepalive_requests 100000;
        location /mixed {{
            if ($answer = 500) {{ return 500 "failed\\n"; }}
            return 200 "answered\\n";
        }}
        location /vary {{ return 200 "served $connection_requests\\n"; }}
        location /moved {{ return 301 /page; }}
"""
LOADS = [
    ("h2load", ("--h1", "-n", "600", "-c", "2")),
    ("wrk", ("-d", "1", "-c", "2", "-t", "1")),
    ("ab", ("-n", "600", "-c", "2", "-k")),
]


@pytest.fixture(scope="module")
def url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    need("nginx")
    (port,) = free_ports(socket.AF_INET, "127.0.0.1", 1)
    server = SERVER.format(port=port)
    with own_server(tmp_path_factory.mktemp("answers"), server, [("127.0.0.1", port)], HTTP):
        yield f"http://127.0.0.1:{port}"


@pytest.mark.parametrize(("tool", "load"), LOADS)
def test_half_500s_add_up_and_are_said_as_errors(
    url: str, sessions: Path, tool: str, load: tuple[str, ...]
) -> None:
    need(tool)
    code, result, stderr = run_json("--tool", tool, *load, f"{url}/mixed")
    requests = result["requests"]
    total, good = requests["total"], requests["succeeded"]
    bad = said_bad("4xx, 5xx", tool, result, "5xx", "500")
    assert total and good and bad, result
    assert good + bad == total, result
    assert 0.3 < bad / total < 0.7
    reasons = {r["code"] for r in result["validity"]["reasons"]}
    assert code == 1 and "errors" in reasons and "tool-failed" not in reasons, stderr


@pytest.mark.parametrize(("tool", "load"), LOADS)
def test_pages_of_varying_length_are_all_good(
    url: str, sessions: Path, tool: str, load: tuple[str, ...]
) -> None:
    need(tool)
    _, result, stderr = run_json("--tool", tool, *load, f"{url}/vary")
    assert_good("answers of varying length", tool, result, "2xx", "200")
    assert "errors" not in {r["code"] for r in result["validity"]["reasons"]}, stderr


@pytest.mark.parametrize(("tool", "load"), LOADS)
def test_a_redirect_is_a_good_answer_and_said_to_be_what_was_measured(
    url: str, sessions: Path, tool: str, load: tuple[str, ...]
) -> None:
    need(tool)
    code, result, stderr = run_json("--tool", tool, *load, f"{url}/moved")
    assert_good("3xx", tool, result, "3xx", "301")
    reasons = {r["code"]: r["message"] for r in result["validity"]["reasons"]}
    # A short run's p99 rests on few requests: that reason may stand beside it.
    assert set(reasons) - {"few-samples"} == {"redirected"}, reasons
    assert result["validity"]["verdict"] == "suspect" and code == 0, stderr
    assert "301 Moved Permanently" in reasons["redirected"], reasons
    assert "the redirect, not the page" in reasons["redirected"]


def test_ab_s_output_of_a_redirect_imported_adds_up_and_says_what_it_cannot_tell(
    url: str, sessions: Path, tmp_path: Path
) -> None:
    """An import has no run of ours to ask the URL after: ab's non-2xx answers stay what ab
    says, beside good and failed, and the verdict says they may be redirects."""
    need("ab")
    done = subprocess.run(
        ["ab", "-n", "200", "-c", "4", f"{url}/moved"],
        capture_output=True,
        text=True,
        timeout=HANG_S,
        check=True,
    )
    output = tmp_path / "ab-moved.txt"
    output.write_text(done.stdout)
    proc = tuibench("import", str(output))
    assert proc.returncode == 0, proc.stderr
    saved = orjson.loads(tuibench("sessions", "--json").stdout)[0]
    assert (saved["status"], saved["url"], saved["c"]) == ("imported", f"{url}/moved", 4)
    result = orjson.loads(tuibench("import", str(output), "--json").stdout)
    requests, errors = result["requests"], result["errors"]
    assert requests["total"] == 200 and errors["non_2xx"] == 200, result
    assert requests["succeeded"] + requests["failed"] + errors["non_2xx"] == 200
    verdict = proc.stdout.splitlines()[-1]
    assert verdict.startswith("invalid: 200 of 200 requests"), proc.stdout
    assert "ab counts redirects (3xx) among its non-2xx answers" in verdict
    assert "an import cannot ask whether the URL redirects" in verdict
