"""The demo nginx configuration, as a pure function of its directory and ports."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from tui_bench.demo.content import STATUS_PATHS

# nginx closes a connection after `keepalive_requests` requests (1000 by default, HTTP/2
# included) or `keepalive_time` (1 h), and h2load does not reconnect in -D mode: the demo
# target must never be what ends or limits a run (100,000 requests per connection were
# reached at ~27 s of the 30 s demo): both are set past any run (the largest count nginx
# accepts, 68 years)...
KEEPALIVE_REQUESTS = 2**63 - 1
KEEPALIVE_TIME = "24855d"
# ...except on the "closing" port, which shows what the default-like limit does to a run.
CLOSING_KEEPALIVE_REQUESTS = 100


@dataclass(frozen=True)
class NginxPorts:
    h1: int
    h2c: int
    closing: int
    closing_h2c: int
    h2: int | None  # TLS; None without openssl to make a certificate


def render_nginx_conf(prefix: Path, ports: NginxPorts) -> str:
    """nginx.conf for `nginx -p PREFIX`: everything it writes stays inside PREFIX."""
    status_locations = "".join(
        f"        location = {path} {{ return {code}; }}\n" for path, code in STATUS_PATHS.items()
    )
    tls = ""
    if ports.h2 is not None:
        tls = (
            f"        listen 127.0.0.1:{ports.h2} ssl http2;\n"
            f"        ssl_certificate {prefix}/cert.pem;\n"
            f"        ssl_certificate_key {prefix}/key.pem;\n"
        )
    temp_paths = "".join(
        f"    {kind}_temp_path {prefix}/{kind}_temp;\n"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    return f"""\
daemon off;
worker_processes 2;
pid {prefix}/nginx.pid;
error_log {prefix}/error.log warn;

events {{
    worker_connections 4096;
}}

http {{
    access_log off;
    default_type text/plain;
    keepalive_requests {KEEPALIVE_REQUESTS};
    keepalive_time {KEEPALIVE_TIME};
{temp_paths}
    server {{
        listen 127.0.0.1:{ports.h1};
        listen 127.0.0.1:{ports.h2c} http2;
{tls}        root {prefix}/www;
        index index.txt;
{status_locations}    }}

    server {{
        listen 127.0.0.1:{ports.closing};
        listen 127.0.0.1:{ports.closing_h2c} http2;
        keepalive_requests {CLOSING_KEEPALIVE_REQUESTS};
        root {prefix}/www;
        index index.txt;
        location = /close {{ try_files /index.txt =404; }}
{status_locations}    }}
}}
"""
