from pathlib import Path

import pytest

from tui_bench.errors import UsageError
from tui_bench.runners.invocation import STALL_TIMEOUT_S, build, lua_script, version_tuple
from tui_bench.spec import RunSpec

URL = "http://127.0.0.1:8080"


def test_h2load_duration_mode_argv(tmp_path: Path) -> None:
    spec = RunSpec(
        urls=(URL + "/a", URL + "/b"),
        connections=20,
        threads=2,
        duration_s=1.5,
        warm_up_s=0.5,
        streams=10,
        headers=("X-A: 1",),
        compress="gzip",
    )
    inv = build(spec, "/usr/bin/h2load", "1.52.0", tmp_path)
    assert inv.argv == (
        "/usr/bin/h2load",
        "-c",
        "20",
        "-t",
        "2",
        "-D",
        "1500ms",
        "--warm-up-time",
        "500ms",
        "-m",
        "10",
        "-H",
        "X-A: 1",
        "-H",
        "Accept-Encoding: gzip",
        f"--log-file={tmp_path / 'requests.tsv'}",
        URL + "/a",
        URL + "/b",
    )
    assert inv.log_file == tmp_path / "requests.tsv"
    assert inv.json_file is None


def test_new_h2load_gets_json_output_and_line_buffering(tmp_path: Path) -> None:
    spec = RunSpec(urls=(URL,), requests=100, h1=True)
    inv = build(spec, "h2load", "1.70.0", tmp_path)
    assert inv.argv[:3] == ("stdbuf", "-oL", "h2load")
    assert f"--output-file={tmp_path / 'summary.json'}" in inv.argv
    assert "--h1" in inv.argv and inv.argv[inv.argv.index("-n") + 1] == "100"


@pytest.mark.parametrize(
    ("url", "headers", "sent"),
    [
        # h2load 1.52 would send `Host: ::1:8080`, which servers refuse with 400.
        ("http://[::1]:8080/", (), ":authority: [::1]:8080"),
        ("https://u:p@[fe80::1]/x", (), ":authority: [fe80::1]"),
        ("http://[::1]:8080/", (":authority: [::1]:80",), ":authority: [::1]:80"),
        ("http://[::1]:8080/", ("Host: h",), None),
        (URL, (), None),
    ],
)
def test_h2load_names_an_ipv6_host_bracketed(
    tmp_path: Path, url: str, headers: tuple[str, ...], sent: str | None
) -> None:
    spec = RunSpec(urls=(url,), requests=10, headers=headers)
    argv = build(spec, "h2load", "1.52.0", tmp_path).argv
    authorities = [
        argv[i + 1] for i, a in enumerate(argv) if a == "-H" and "authority" in argv[i + 1]
    ]
    assert authorities == ([sent] if sent else [])


def test_h2load_warm_up_needs_duration(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="needs -d"):
        build(RunSpec(urls=(URL,), requests=10, warm_up_s=1), "h2load", None, tmp_path)


def test_wrk_argv_rounds_up_to_whole_seconds(tmp_path: Path) -> None:
    spec = RunSpec(urls=(URL,), tool="wrk", connections=8, threads=2, duration_s=2.2)
    inv = build(spec, "wrk", "4.1.0", tmp_path)
    assert inv.argv == (
        "wrk",
        "-t",
        "2",
        "-c",
        "8",
        "-d",
        "3s",
        "--latency",
        "-s",
        str(lua_script()),
        URL,
    )
    assert lua_script().is_file()
    quiet = build(spec, "wrk", "4.1.0", tmp_path, live_hook=False)
    assert quiet.argv[-2:] == ("--", "no-live")


def test_ab_duration_puts_n_after_t_and_adds_a_path(tmp_path: Path) -> None:
    spec = RunSpec(urls=(URL,), tool="ab", connections=5, duration_s=3, keepalive=True)
    argv = build(spec, "ab", "2.3", tmp_path).argv
    assert argv.index("-t") < argv.index("-n")
    assert argv[-1] == URL + "/"
    assert "-k" in argv


def test_ab_count_waits_for_an_answer_at_most_the_stall_timeout(tmp_path: Path) -> None:
    spec = RunSpec(urls=(URL,), tool="ab", connections=5, requests=10)
    argv = build(spec, "ab", "2.3", tmp_path).argv
    assert argv[argv.index("-s") + 1] == f"{STALL_TIMEOUT_S:.0f}"
    shorter = build(spec, "ab", "2.3", tmp_path, stall_timeout_s=1.5).argv
    assert shorter[shorter.index("-s") + 1] == "2", "ab takes whole seconds"


def test_version_tuple() -> None:
    assert version_tuple("1.52.0") == (1, 52, 0)
    assert version_tuple("4.1.0-3+b2") == (4, 1, 0)
    assert version_tuple(None) == ()
    assert version_tuple("1.70.0") >= (1, 70)
