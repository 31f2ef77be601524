"""A server that listens on IPv6 only ([::1]), loaded by every tool end to end: h2load would
send `Host: ::1:PORT` unbracketed and get 400 for every request, so the run names the host
bracketed; an `:authority` given by hand is taken as h2load's, never as a credential."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import need
from tests.integration.test_cli_real_tools import run_json
from tests.own_nginx import free_ports, own_server
from tui_bench.redaction import MARK
from tui_bench.storage import store

pytestmark = pytest.mark.real

SERVER = """
        listen [::1]:{h1};
        listen [::1]:{h2c} http2;
        # An answer that says which Host it was asked for, refused when it is not bracketed.
        location / {{
            if ($http_host !~ "^\\[::1\\]") {{ return 400; }}
            return 200 "ok\\n";
        }}
"""


@pytest.fixture(scope="module")
def ipv6_urls(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    """An nginx of this module's own on [::1] only: its h1 and h2c URLs."""
    need("nginx")
    try:
        socket.socket(socket.AF_INET6).bind(("::1", 0))
    except OSError:
        pytest.skip("no IPv6 loopback here")
    h1, h2c = free_ports(socket.AF_INET6, "::1", 2)
    server = SERVER.format(h1=h1, h2c=h2c)
    with own_server(tmp_path_factory.mktemp("nginx6"), server, [("::1", h1), ("::1", h2c)]):
        yield {"h1": f"http://[::1]:{h1}/", "h2c": f"http://[::1]:{h2c}/"}


@pytest.mark.parametrize(
    ("tool", "protocol", "flags"),
    [
        ("h2load", "h2c", ("-n", "400", "-c", "2")),
        ("h2load", "h1", ("-n", "400", "-c", "2", "--h1")),
        ("wrk", "h1", ("-d", "1", "-c", "2", "-t", "1")),
        ("ab", "h1", ("-n", "400", "-c", "2")),
    ],
)
def test_every_tool_loads_an_ipv6_server(
    ipv6_urls: dict[str, str], sessions: Path, tool: str, protocol: str, flags: tuple[str, ...]
) -> None:
    need(tool)
    code, result, stderr = run_json("--tool", tool, *flags, ipv6_urls[protocol])
    assert code == 0, stderr
    requests = result["requests"]
    # Every answer good: the server saw its host bracketed (it answers 400 otherwise).
    assert requests["total"] > 0 and requests["succeeded"] == requests["total"], requests
    assert not result["status"].get("4xx") and requests["failed"] == 0, result["status"]
    assert not any(n for kind, n in result["errors"].items() if kind.startswith("non_2xx"))
    assert result["validity"]["verdict"] != "invalid", result["validity"]
    assert "tool-failed" not in {r["code"] for r in result["validity"]["reasons"]}


def test_an_authority_given_by_hand_is_sent_and_kept_as_given(
    ipv6_urls: dict[str, str], sessions: Path
) -> None:
    need("h2load")
    authority = ipv6_urls["h2c"].removeprefix("http://").rstrip("/")
    code, result, stderr = run_json(
        "-n", "200", "-c", "1", "-H", f":authority: {authority}", ipv6_urls["h2c"]
    )
    assert code == 0, stderr
    assert result["status"].get("2xx") == 200, result["status"]
    saved = store.load(result["session_path"])
    assert f":authority: {authority}" in saved.spec.headers
    assert MARK not in " ".join(saved.doc["argv"])
