"""The header's words for the connection: asked for, negotiated, TLS."""

from __future__ import annotations

import pytest

from tui_bench.engine.events import OutputLine
from tui_bench.engine.live_state import LiveState
from tui_bench.spec import RunSpec
from tui_bench.ui import render


@pytest.mark.parametrize(
    ("url", "lines", "shown"),
    [
        ("http://127.0.0.1:8080/", [], "h2c"),
        ("https://127.0.0.1:8443/", [], "h2 TLS"),
        (
            "https://127.0.0.1:8443/",
            ["TLS Protocol: TLSv1.3", "Application protocol: h2"],
            "h2 TLSv1.3",
        ),
        (
            "https://127.0.0.1:8443/",
            ["TLS Protocol: TLSv1.2", "Application protocol: http/1.1"],
            "h2 (negotiated http/1.1) TLSv1.2",
        ),
    ],
)
def test_connection(url: str, lines: list[str], shown: str) -> None:
    state = LiveState(RunSpec(urls=(url,)))
    for line in lines:
        state.apply(OutputLine("stdout", line + "\n"))
    assert render.connection(state) == shown
    header = render.header(state, "h2load 1.52.0", paused=False, stopping=False)
    assert f"h2load 1.52.0  {shown}  {url}" in header.plain
