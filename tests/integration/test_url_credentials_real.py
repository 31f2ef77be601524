"""A server that asks for credentials, loaded by every tool with them in the URL
(`http://user:password@host/`): each tool is given them as the Authorization header a
browser sends, so every request is answered 200; without them every one is a 401."""

from __future__ import annotations

import base64
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import need
from tests.integration.test_cli_real_tools import run_json
from tests.own_nginx import free_ports, own_server
from tui_bench.storage import store

pytestmark = pytest.mark.real

USER, PASSWORD = "bench", "p@ss:word"
BASIC = base64.b64encode(f"{USER}:{PASSWORD}".encode()).decode()
SERVER = f"""
        listen 127.0.0.1:{{h1}};
        listen 127.0.0.1:{{h2c}} http2;
        location / {{{{
            if ($http_authorization != "Basic {BASIC}") {{{{ return 401; }}}}
            return 200 "ok\\n";
        }}}}
"""


@pytest.fixture(scope="module")
def urls(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    """h1 and h2c URLs of an nginx of this module's own that asks for Basic credentials."""
    need("nginx")
    h1, h2c = free_ports(socket.AF_INET, "127.0.0.1", 2)
    server = SERVER.format(h1=h1, h2c=h2c)
    listening = [("127.0.0.1", h1), ("127.0.0.1", h2c)]
    with own_server(tmp_path_factory.mktemp("nginx-auth"), server, listening):
        yield {"h1": f"http://127.0.0.1:{h1}/", "h2c": f"http://127.0.0.1:{h2c}/"}


def with_credentials(url: str) -> str:
    # As a URL holds them: the `@` and `:` of the password percent-encoded.
    return url.replace("http://", f"http://{USER}:p%40ss%3Aword@", 1)


@pytest.mark.parametrize(
    ("tool", "protocol", "flags"),
    [
        ("h2load", "h2c", ("-n", "300", "-c", "2")),
        ("wrk", "h1", ("-d", "1", "-c", "2", "-t", "1")),
        ("ab", "h1", ("-n", "300", "-c", "2")),
    ],
)
def test_credentials_in_the_url_reach_the_server(
    urls: dict[str, str], sessions: Path, tool: str, protocol: str, flags: tuple[str, ...]
) -> None:
    need(tool)
    code, result, stderr = run_json("--tool", tool, *flags, with_credentials(urls[protocol]))
    assert code == 0, stderr
    requests = result["requests"]
    assert requests["total"] > 0 and requests["succeeded"] == requests["total"], requests
    assert not any(n for kind, n in result["errors"].items() if kind.startswith("non_2xx"))
    # What the tool was given is kept without the credentials.
    saved = store.load(result["session_path"]).doc
    assert BASIC not in str(saved["argv"]) and "p%40ss" not in str(saved["argv"])
    assert any("Authorization: redacted:" in word for word in saved["argv"])


def test_without_them_every_request_is_refused(urls: dict[str, str], sessions: Path) -> None:
    need("h2load")
    code, result, _ = run_json("-n", "100", "-c", "1", urls["h2c"])
    assert code == 1
    assert result["status"].get("4xx") == 100, result["status"]
