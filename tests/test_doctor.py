import resource
from pathlib import Path

import pytest

from tui_bench.doctor import (
    MISSING,
    Check,
    check_cpu_count,
    check_governors,
    check_open_files,
    check_port_range,
    check_somaxconn,
    check_tool,
    check_tw_reuse,
    format_checks,
    run_checks,
    status,
)


def test_open_files() -> None:
    assert check_open_files(1_048_576, 1_048_576).ok
    assert check_open_files(resource.RLIM_INFINITY, resource.RLIM_INFINITY).value == (
        "unlimited (hard unlimited)"
    )
    low = check_open_files(1024, 1_048_576)
    assert not low.ok and "ulimit -n 65536" in (low.advice or "")
    capped = check_open_files(1024, 4096)
    assert "hard limit" in (capped.advice or "")


def test_somaxconn() -> None:
    assert check_somaxconn("4096\n") == Check("net.core.somaxconn", "4096", True, None)
    low = check_somaxconn("128\n")
    assert not low.ok and "net.core.somaxconn=4096" in (low.advice or "")


def test_port_range() -> None:
    default = check_port_range("32768\t60999\n")
    assert default.ok and default.value == "32768-60999 (28232 ports)"
    assert not check_port_range("50000 60000").ok


def test_tw_reuse() -> None:
    assert check_tw_reuse("2\n").value == "2 (loopback only)"
    assert check_tw_reuse("1").ok
    assert not check_tw_reuse("0").ok


def test_governors() -> None:
    assert check_governors(["performance\n"] * 4).ok
    mixed = check_governors(["powersave\n", "performance\n", "powersave\n"])
    assert not mixed.ok
    assert mixed.value == "performance (1 cpus), powersave (2 cpus)"


def test_cpu_count() -> None:
    assert check_cpu_count(8).ok
    assert not check_cpu_count(1).ok


def test_garbage_is_a_value_error() -> None:
    with pytest.raises(ValueError):
        check_port_range("nonsense")


def test_missing_tool(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TUIBENCH_WRK", str(tmp_path / "wrk"))
    check = check_tool("wrk")
    assert (check.value, status(check)) == (MISSING, "missing")
    assert "apt-get install wrk" in (check.advice or "")


def test_format_checks_aligns_columns() -> None:
    text = format_checks(
        [
            Check("h2load", "1.52.0 (/usr/bin/h2load)", True, None),
            Check("wrk", MISSING, False, "install it"),
            Check("net.core.somaxconn", "128", False, "raise it"),
        ]
    )
    assert text.splitlines() == [
        "ok       h2load              1.52.0 (/usr/bin/h2load)",
        "missing  wrk                 not found",
        "         -> install it",
        "warn     net.core.somaxconn  128",
        "         -> raise it",
    ]


def test_run_checks_covers_the_tools() -> None:
    names = [check.name for check in run_checks()]
    assert names[:4] == ["h2load", "wrk", "ab", "nginx"]
    assert "open files (ulimit -n)" in names and "cpus" in names
