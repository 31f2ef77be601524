"""The demo target never limits the demo, and a demo that ends invalid exits 1 as any run."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from tests.conftest import need
from tui_bench.cli.main import main
from tui_bench.demo import nginx_target
from tui_bench.demo.nginx_conf import NginxPorts, render_nginx_conf
from tui_bench.demo.nginx_target import DemoTarget

pytestmark = pytest.mark.real

PORTS = NginxPorts(h1=1, h2c=2, closing=3, closing_h2c=4, h2=5)


def test_the_demo_ports_keep_connections_past_any_run() -> None:
    conf = render_nginx_conf(Path("/p"), PORTS)
    http_block = conf.split("server {")[0]
    # The largest count nginx accepts, and a connection age of 68 years.
    assert "keepalive_requests 9223372036854775807;" in http_block
    assert "keepalive_time 24855d;" in http_block
    demo_server = conf.split("server {")[1]
    assert "keepalive_requests" not in demo_server and "keepalive_time" not in demo_server


def test_one_h2c_connection_outlives_the_old_limit(nginx: DemoTarget) -> None:
    """100,000 requests per connection ended the 30 s demo at ~27 s."""
    need("h2load")
    argv = ["h2load", "-n", "100001", "-c", "1", "-m", "100", nginx.urls["h2c"]]
    out = subprocess.run(argv, capture_output=True, text=True, timeout=60, check=True).stdout
    assert re.search(r"\b100001 succeeded, 0 failed, 0 errored", out), out


def test_an_invalid_demo_exits_1(
    monkeypatch: pytest.MonkeyPatch, sessions: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The demo pointed at the port that closes connections after 100 requests."""
    need("nginx", "h2load")
    start = nginx_target.start_demo_target

    async def closing_target() -> DemoTarget:
        target = await start()
        target.urls = {**target.urls, "h2c": target.urls["closing_h2c"]}
        return target

    monkeypatch.setattr(nginx_target, "start_demo_target", closing_target)
    code = main(["demo", "--headless", "--duration", "2"])
    out = capsys.readouterr().out
    assert "invalid" in out and code == 1
