import shutil
import time
from pathlib import Path

import pytest

from tui_bench.errors import ToolMissingError
from tui_bench.runners import tools
from tui_bench.runners.tools import find_tool, find_tool_async, parse_version, tool_version


@pytest.mark.parametrize(
    ("name", "text", "expected"),
    [
        ("h2load", "h2load nghttp2/1.52.0\n", "1.52.0"),
        ("h2load", "h2load nghttp2/1.69.0-DEV\n", "1.69.0"),
        (
            "wrk",
            "wrk debian/4.1.0-3+b2 [epoll] Copyright (C) 2012 Will Glozer\nUsage: wrk",
            "4.1.0",
        ),
        ("wrk", "wrk 4.2.0 [epoll] Copyright (C) 2012 Will Glozer\n", "4.2.0"),
        ("ab", "This is ApacheBench, Version 2.3 <$Revision$>\nCopyright 1996", "2.3"),
        ("nginx", "nginx version: nginx/1.22.1\n", "1.22.1"),
        ("h2load", "command not found", None),
        ("curl", "curl 8.0.1", None),
    ],
)
def test_parse_version(name: str, text: str, expected: str | None) -> None:
    assert parse_version(name, text) == expected


def fake_tool(tmp_path: Path, body: str, name: str = "fake-tool") -> Path:
    script = tmp_path / name
    script.write_text(f"#!/bin/sh\n{body}\n")
    script.chmod(0o755)
    return script


def test_env_var_then_path_override(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from_env = fake_tool(tmp_path, 'echo "h2load nghttp2/9.9.9"', "env-h2load")
    from_flag = fake_tool(tmp_path, 'echo "h2load nghttp2/1.2.3"', "flag-h2load")
    monkeypatch.setenv("TUIBENCH_H2LOAD", str(from_env))
    assert find_tool("h2load") == tools.Tool("h2load", str(from_env), "9.9.9")
    assert find_tool("h2load", str(from_flag)).version == "1.2.3"


def test_version_read_from_stderr_despite_failing_status(tmp_path: Path) -> None:
    wrk = fake_tool(tmp_path, 'echo "wrk debian/4.1.0-3+b2 [epoll]" >&2; exit 1')
    assert tool_version("wrk", str(wrk)) == "4.1.0"


def test_missing_tool_is_one_line_with_install_hint(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.delenv("TUIBENCH_AB", raising=False)
    with pytest.raises(ToolMissingError) as caught:
        find_tool("ab")
    assert str(caught.value) == (
        "ab not found: install it with `apt-get install apache2-utils` or pass --ab PATH"
    )


def test_missing_tool_names_the_env_var(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TUIBENCH_H2LOAD", str(tmp_path / "nope"))
    with pytest.raises(ToolMissingError, match="TUIBENCH_H2LOAD") as caught:
        find_tool("h2load")
    assert "nghttp2-client" in str(caught.value)
    assert "\n" not in str(caught.value)


# A version call that never answers, given up after 0.2 s (0.2 s measured): the bound is over
# ten times that, and far below the hour the call would wait out.
HANGING = "exec sleep 3600"


def test_version_call_times_out(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tools, "VERSION_TIMEOUT_S", 0.2)
    hanging = fake_tool(tmp_path, HANGING)
    started = time.monotonic()
    assert find_tool("h2load", str(hanging)).version is None
    assert time.monotonic() - started < 3


async def test_async_variant_times_out(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tools, "VERSION_TIMEOUT_S", 0.2)
    hanging = fake_tool(tmp_path, HANGING)
    started = time.monotonic()
    assert (await find_tool_async("h2load", str(hanging))).version is None
    assert time.monotonic() - started < 3


async def test_async_variant_parses_like_the_blocking_one(tmp_path: Path) -> None:
    nginx = fake_tool(tmp_path, 'echo "nginx version: nginx/1.22.1" >&2')
    assert await find_tool_async("nginx", str(nginx)) == find_tool("nginx", str(nginx))


@pytest.mark.real
@pytest.mark.parametrize("name", ["h2load", "wrk", "ab", "nginx"])
async def test_installed_tools_report_a_version(name: str) -> None:
    if shutil.which(name) is None:
        pytest.skip(f"{name} is not installed")
    tool = await find_tool_async(name)
    assert tool.version is not None
    assert tool.version[0].isdigit()
