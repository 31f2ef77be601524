"""End to end: `tuibench run --headless --json` driving the real tools against nginx."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import orjson
import psutil
import pytest

from tests.conftest import need
from tui_bench.demo.nginx_target import DemoTarget
from tui_bench.engine.events import Event, SecondClosed
from tui_bench.engine.live_state import LiveState
from tui_bench.engine.options import EngineOptions
from tui_bench.engine.reach import target_refused
from tui_bench.runners.tools import find_tool
from tui_bench.spec import RunSpec
from tui_bench.storage import store
from tui_bench.storage.minutes import latency_between

pytestmark = pytest.mark.real

TUIBENCH = [sys.executable, "-m", "tui_bench.cli.main"]


# Only a hang takes this long: a sweep of two 1.5 s points, some 10 s on a quiet machine,
# took 70 s on this one loaded by other work, past the minute allowed before.
HANG_S = 300.0


def tuibench(*args: str, timeout: float = HANG_S) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*TUIBENCH, *args], capture_output=True, text=True, timeout=timeout, check=False
    )


def run_json(*args: str) -> tuple[int, dict[str, Any], str]:
    proc = tuibench("run", "--headless", "--json", "--interval", "0.1", *args)
    payload = orjson.loads(proc.stdout) if proc.stdout.strip() else {}
    return proc.returncode, payload, proc.stderr


def test_h2load_h2c_count_mode(nginx: DemoTarget, sessions: Path) -> None:
    need("h2load")
    code, result, stderr = run_json("-n", "20000", "-c", "10", "-m", "10", nginx.urls["h2c"])
    assert code == 0, stderr
    assert result["tool"] == "h2load" and result["tool_version"]
    assert result["protocol"] == "h2c"
    assert result["requests"]["total"] == 20000
    assert result["requests"]["succeeded"] == 20000
    assert result["status"]["2xx"] == 20000
    # Never steered: one segment, the whole run, its figures the run's.
    (segment,) = result["segments"]
    assert segment["cause"] == "start" and segment["connections"] == 10
    assert segment["target_rps"] is None and segment["achieved_rps"] == result["rps"]
    assert segment["validity"] == result["validity"]["verdict"]
    latency = result["latency"]
    # Percentiles computed from the request log, bounded by h2load's exact min and max.
    assert latency["min_s"] <= latency["p50_s"] <= latency["p99_s"] <= latency["max_s"]
    session = store.load(result["session_path"])
    assert session.status == "completed"
    assert session.doc["server"]["name"] == "nginx"
    assert sum(row["requests"] for row in session.series) == 20000
    # Its minute (one, in a run this short) holds every request, as the run's histogram.
    assert latency_between(session.minutes, 0, 60) == session.histogram
    assert "same-machine" in {w["code"] for w in session.doc["warnings"]}
    # Each line of the output with when it came, in order, for the replay: lines cut at
    # newlines only, as the run reads them.
    for stream, text in session.doc["raw"].items():
        times = session.doc["raw_times"][stream]
        lines = len(text) and text.count("\n") + (not text.endswith("\n"))
        assert len(times) == lines and times == sorted(times)


def test_h2load_duration_with_warm_up_samples_the_server(nginx: DemoTarget, sessions: Path) -> None:
    need("h2load")
    code, result, stderr = run_json(
        "-d", "2", "--warm-up", "0.5", "-c", "4", "--h1", nginx.urls["h1"]
    )
    assert code == 0, stderr
    assert result["protocol"] == "http/1.1"
    session = store.load(result["session_path"])
    assert len(session.series) >= 2
    cpu = [row["server_cpu_pct"] for row in session.series if row["server_cpu_pct"] is not None]
    assert cpu and max(cpu) > 5, session.series
    assert any(row["client_cpu_pct"] for row in session.series)
    assert session.samples, "resource samples are kept"
    csv = tuibench("export", session.id, "--format", "csv").stdout.splitlines()
    assert csv[0].startswith("t_s,window_s,requests,rps,")
    assert len(csv) == len(session.series) + 1
    assert "[" in stderr and "req/s" in stderr, "live progress lines on stderr"


def test_h2load_tls_h2(nginx: DemoTarget, sessions: Path) -> None:
    need("h2load")
    if "h2" not in nginx.urls:
        pytest.skip("no TLS port (openssl missing)")
    code, result, stderr = run_json("-n", "2000", "-c", "4", nginx.urls["h2"])
    assert code == 0, stderr
    assert result["protocol"] == "h2"
    assert result["tls"]["protocol"].startswith("TLSv1.")
    assert result["tls"]["cipher"]


def test_wrk_with_live_counts(nginx: DemoTarget, sessions: Path) -> None:
    need("wrk")
    code, result, stderr = run_json(
        "--tool", "wrk", "-d", "2", "-c", "8", "-t", "2", nginx.urls["h1"]
    )
    assert code == 0, stderr
    assert result["tool"] == "wrk" and result["rps"] > 100
    assert result["latency"]["p99_s"] > 0
    session = store.load(result["session_path"])
    assert sum(row["requests"] or 0 for row in session.series) > 0, "live counts from the Lua hook"


def test_ab_count_mode(nginx: DemoTarget, sessions: Path) -> None:
    need("ab")
    code, result, stderr = run_json(
        "--tool", "ab", "-n", "3000", "-c", "10", "-k", nginx.urls["h1"]
    )
    assert code == 0, stderr
    assert result["requests"]["total"] == 3000
    assert result["latency"]["max_s"] >= result["latency"]["p99_s"]


def test_server_closing_connections_makes_the_run_invalid(
    nginx: DemoTarget, sessions: Path
) -> None:
    need("h2load")
    code, result, stderr = run_json("-d", "2", "-c", "4", nginx.urls["closing_h2c"])
    assert code == 1, "it completed, but its figures are not the server's"
    assert result["run_status"] == "completed"
    assert result["validity"]["verdict"] == "invalid"
    assert "connections-dying" in {r["code"] for r in result["validity"]["reasons"]}
    session = store.load(result["session_path"])
    assert session.doc["validity"] == result["validity"]
    assert "connections-dying" in {w["code"] for w in session.doc["warnings"]}
    assert "invalid: " in stderr and "keepalive_requests" in stderr
    # What to do, and, where every connection closed, that the load stopped there.
    (dying,) = [r for r in result["validity"]["reasons"] if r["code"] == "connections-dying"]
    assert "or run with -n" in dying["message"], dying
    assert "4 of 4 connections closed by the server" in dying["message"], dying


def test_a_healthy_run_is_valid(nginx: DemoTarget, sessions: Path) -> None:
    need("h2load")
    # Two generator threads: on two busy cores one would saturate (client-bound: suspect).
    code, result, stderr = run_json("-n", "5000", "-c", "4", "-t", "2", nginx.urls["h2c"])
    assert code == 0, stderr
    assert healthy(result["validity"]), result["validity"]
    proc = tuibench("run", "--headless", "-n", "2000", "-t", "2", nginx.urls["h2c"])
    verdict = re.search(r"^validity  (\w+)$", proc.stdout, re.MULTILINE)
    assert verdict is not None, proc.stdout
    said = [ln for ln in proc.stderr.splitlines() if ln.startswith(("suspect: ", "invalid: "))]
    reasons = [ln.rsplit(" (", 1)[-1].rstrip(")") for ln in said]
    assert healthy({"verdict": verdict[1], "reasons": [{"code": c} for c in reasons]}), (
        proc.stdout,
        proc.stderr,
    )


def healthy(validity: dict[str, Any]) -> bool:
    """Valid, or suspect of a stall and nothing else: on a busy machine the scheduler alone
    can hold a request past the 0.2 s a stall is called at (345 ms seen)."""
    codes = [r["code"] for r in validity["reasons"]]
    return (validity["verdict"], codes) in (("valid", []), ("suspect", ["stall"]))


def test_errors_over_the_limit_make_the_run_invalid(nginx: DemoTarget, sessions: Path) -> None:
    need("h2load")
    # h2load takes its URLs in turn: half the requests get a 500.
    urls = (nginx.urls["h2c"], nginx.urls["h2c"] + "500")
    code, result, stderr = run_json("-n", "2000", "-c", "2", *urls)
    assert code == 1, stderr
    reasons = {r["code"]: r["message"] for r in result["validity"]["reasons"]}
    assert "(50.0%; the limit is 1.0%)" in reasons["errors"]
    code, result, stderr = run_json("--max-errors", "60", "-n", "2000", "-c", "2", "-t", "2", *urls)
    assert code == 0, stderr
    assert "errors" not in {r["code"] for r in result["validity"]["reasons"]}


# A target refused before any load: a run asked for a minute ends in far less (some 2.5 s
# measured on a busy machine, tuibench's start included), not when the minute is up.
WAITED_OUT = 60
LONG_S = str(WAITED_OUT)
REFUSED_WITHIN = WAITED_OUT / 2


@pytest.mark.parametrize("tool", ["h2load", "wrk", "ab"])
def test_a_refused_port_is_refused_before_any_load(tool: str, sessions: Path) -> None:
    """h2load would wait out -d and report 0 requests; nothing is saved of a run that could
    not send one."""
    need(tool)
    port = _free_port()
    started = time.monotonic()
    url = f"http://127.0.0.1:{port}/"
    proc = tuibench("run", "--headless", "--tool", tool, "-d", LONG_S, url, timeout=2 * WAITED_OUT)
    assert time.monotonic() - started < REFUSED_WITHIN
    assert proc.returncode == 2
    assert proc.stderr == (
        f"tuibench: error: nothing listens on 127.0.0.1:{port} (connection refused)\n"
    )
    assert not sessions.exists() or not any(sessions.iterdir())


def test_tls_to_a_plain_port_is_said_in_those_words(nginx: DemoTarget, sessions: Path) -> None:
    need("h2load")
    plain = nginx.urls["h1"].replace("http://", "https://")
    port = plain.rsplit(":", 1)[1].strip("/")
    started = time.monotonic()
    proc = tuibench("run", "--headless", "-d", LONG_S, "-c", "1", plain, timeout=2 * WAITED_OUT)
    assert time.monotonic() - started < REFUSED_WITHIN
    assert proc.returncode == 2
    assert proc.stderr.startswith(f"tuibench: error: TLS handshake with 127.0.0.1:{port} failed")
    assert not sessions.exists() or not any(sessions.iterdir())


def test_h2c_to_a_server_of_http1_only_is_refused_before_load(
    nginx: DemoTarget, sessions: Path
) -> None:
    """h2load's default h2c against an HTTP/1.1-only port fails every request and says
    nothing of why; tuibench says what to do before any load, and h1 then runs."""
    need("h2load")
    h1_only = nginx.urls["h1"]
    proc = tuibench("run", "--headless", "-d", "3", "-c", "1", h1_only)
    port = h1_only.rsplit(":", 1)[1].strip("/")
    assert proc.returncode == 2
    assert proc.stderr == (
        f"tuibench: error: 127.0.0.1:{port} speaks HTTP/1.1 only, not h2c (h2load's default "
        "for http://): run with --h1\n"
    )
    assert not sessions.exists() or not any(sessions.iterdir())
    code, result, stderr = run_json("-n", "200", "-c", "1", "--h1", h1_only)
    assert code == 0, stderr
    assert result["requests"]["succeeded"] == 200
    # A port that speaks h2c is let through.
    assert asyncio.run(target_refused([RunSpec((nginx.urls["h2c"],))])) is None


def test_a_host_that_does_not_resolve_is_refused_before_any_load(sessions: Path) -> None:
    need("h2load")
    proc = tuibench("run", "--headless", "-n", "10", "--no-server", "http://no-such-host.invalid/")
    assert proc.returncode == 2
    assert proc.stderr.startswith("tuibench: error: cannot resolve no-such-host.invalid: ")
    assert len(proc.stderr.splitlines()) == 1, proc.stderr
    assert not sessions.exists() or not any(sessions.iterdir())


H2C_ONLY = {
    ("h2load", "--h1"): "not HTTP/1.1: run without --h1 (h2c is h2load's default for http://)",
    ("wrk", ""): "not HTTP/1.1, the only protocol wrk speaks: run with --tool h2load",
    ("ab", ""): "not HTTP/1.0, the only protocol ab speaks: run with --tool h2load",
}


@pytest.mark.parametrize(("tool", "flag"), list(H2C_ONLY))
def test_http1_to_a_port_of_h2c_only_is_refused_before_load(
    tool: str, flag: str, nginx: DemoTarget, sessions: Path
) -> None:
    """Every request would fail as a parse error after the whole -d, with the tool's own
    words; tuibench says what to do before any load."""
    need(tool)
    h2c_only = nginx.urls["h2c"]
    port = h2c_only.rsplit(":", 1)[1].strip("/")
    flags = [flag] if flag else []
    proc = tuibench("run", "--headless", "--tool", tool, *flags, "-d", "3", "-c", "1", h2c_only)
    assert proc.returncode == 2
    assert proc.stderr == (
        f"tuibench: error: 127.0.0.1:{port} speaks h2c only, {H2C_ONLY[tool, flag]}\n"
    )
    assert not sessions.exists() or not any(sessions.iterdir())
    # The port of HTTP/1.1 is let through.
    assert asyncio.run(target_refused([RunSpec((nginx.urls["h1"],), h1=True)])) is None


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--h2load", "/nonexistent/h2load", "http://127.0.0.1:1/"], "apt-get install"),
        (["ftp://127.0.0.1/"], "expected http"),
        (["-c", "0", "http://127.0.0.1:1/"], "at least 1"),
        (["-d", "ten", "http://127.0.0.1:1/"], "bad duration"),
        (["--interval", "0.01", "http://127.0.0.1:1/"], "--interval"),
        (["--server-pid", "999999999", "http://127.0.0.1:1/"], "no process"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args: list[str], message: str, sessions: Path) -> None:
    proc = tuibench("run", "--headless", *args)
    assert proc.returncode == 2
    assert message in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1, proc.stderr
    assert "Traceback" not in proc.stderr


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGHUP, signal.SIGTERM])
def test_interrupt_keeps_the_partial_session(
    nginx: DemoTarget, sessions: Path, sig: signal.Signals
) -> None:
    need("h2load")
    proc = subprocess.Popen(
        [*TUIBENCH, "run", "--headless", "--json", "-d", "8", "-c", "4", nginx.urls["h2c"]],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    _wait_for_progress(proc)
    proc.send_signal(sig)
    out, err = proc.communicate(timeout=HANG_S)
    assert proc.returncode == 130, err
    result = orjson.loads(out)
    assert result["run_status"] == "interrupted"
    session = store.load(result["session_path"])
    assert session.status == "interrupted"
    # h2load dies without a summary on SIGINT: the result comes from its request log.
    assert session.result is not None and (session.result.requests.total or 0) > 0
    assert session.series and session.doc["raw"]["stdout"]


def test_killed_tuibench_loses_at_most_the_last_second(nginx: DemoTarget, sessions: Path) -> None:
    need("h2load")
    proc = subprocess.Popen(
        [*TUIBENCH, "run", "--headless", "-d", "8", "-c", "4", nginx.urls["h2c"]],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    _wait_for_progress(proc, lines=3)
    tool = psutil.Process(proc.pid).children()
    assert [p.name() for p in tool] == ["h2load"]
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(10)
    _, alive = psutil.wait_procs(tool, timeout=5)
    assert not alive, "the tool dies with tuibench"
    entries = store.list_sessions(sessions)
    assert len(entries) == 1 and entries[0].session is not None
    session = entries[0].session
    assert session.status == "interrupted"
    assert len(session.series) >= 2


def test_import_then_export(sessions: Path) -> None:
    fixture = Path(__file__).parents[1] / "fixtures" / "h2load-1.52-h2c-n.txt"
    proc = tuibench("import", str(fixture), "--json")
    assert proc.returncode == 0, proc.stderr
    assert orjson.loads(proc.stdout)["tool"] == "h2load"
    assert not sessions.exists() or not list(sessions.iterdir()), "--json alone saves nothing"
    saved = tuibench("import", str(fixture), "--json", "--save")
    path = orjson.loads(saved.stdout)["session_path"]
    md = tuibench("export", path, "--format", "md")
    assert md.returncode == 0 and "| req/s |" in md.stdout
    listing = tuibench("sessions")
    assert Path(path).stem in listing.stdout


def test_import_garbage_is_one_line_exit_2(tmp_path: Path, sessions: Path) -> None:
    junk = tmp_path / "junk.txt"
    junk.write_bytes(b"\x00\x01 not a benchmark\n")
    proc = tuibench("import", str(junk))
    assert proc.returncode == 2
    assert len(proc.stderr.strip().splitlines()) == 1


def test_export_of_corrupt_or_newer_session(tmp_path: Path, sessions: Path) -> None:
    newer = tmp_path / "newer.json"
    newer.write_bytes(orjson.dumps({"schema": "tuibench.session", "version": 99, "id": "x"}))
    proc = tuibench("export", str(newer))
    assert proc.returncode == 2 and "newer tuibench" in proc.stderr
    broken = tmp_path / "broken.json"
    broken.write_text('{"schema": "tuibench.session", "vers')
    proc = tuibench("export", str(broken))
    assert proc.returncode == 2 and "corrupt" in proc.stderr


def _wait_for_progress(proc: subprocess.Popen[str], lines: int = 2) -> None:
    assert proc.stderr is not None
    seen = 0
    deadline = time.monotonic() + 60  # lines a second apart, the first within some 3 s
    while seen < lines and time.monotonic() < deadline:
        line = proc.stderr.readline()
        if "req/s" in line:
            seen += 1
    assert seen >= lines, "no progress lines"


def _free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_the_last_partial_second_is_a_partial_window_not_a_cliff(
    nginx: DemoTarget, sessions: Path
) -> None:
    need("h2load")
    code, result, stderr = run_json("-d", "3.5", "-c", "4", "-m", "4", nginx.urls["h2c"])
    assert code == 0, stderr
    series = store.load(result["session_path"]).series
    assert sum(row["requests"] for row in series) == result["requests"]["total"]
    # Every second but the last is whole; the last is the part of it the run lasted, wherever
    # the end fell (3.5 s and a little more; more still on a busy machine).
    *whole, last = series
    assert [row["window_s"] for row in whole] == [1.0] * len(whole) and len(whole) >= 3
    assert 0 < last["window_s"] < 1.0, [(r["t_s"], r["window_s"]) for r in series]
    # Per real second: its requests over the part of a second it lasted, not over a whole
    # second (a cliff at the end).
    assert last["requests"] > 0
    assert last["rps"] == pytest.approx(last["requests"] / last["window_s"], rel=0.01)
    assert last["rps"] > last["requests"]
    # The lines say each window's end: the last one the real end, not a whole second, and
    # not before the tool's 3.5 s were up.
    ends = re.findall(r"^\[ *([0-9.]+)s\]", stderr, re.MULTILINE)
    end = last["t_s"] + last["window_s"]
    assert ends == [*(str(row["t_s"] + 1) for row in whole), f"{end:.1f}"], stderr
    assert end >= 3.5
    csv = tuibench("export", result["session_path"], "--format", "csv").stdout.splitlines()
    assert csv[0].startswith("t_s,window_s,requests,rps,")


def test_ab_keep_alive_under_a_millisecond_reads_less_than_one_ms(
    nginx: DemoTarget, sessions: Path
) -> None:
    need("ab")
    proc = tuibench("run", "--headless", "--tool", "ab", "-n", "3000", "-c", "2", "-k",
                    nginx.urls["h1"])  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    latency = next(line for line in proc.stdout.splitlines() if line.startswith("latency"))
    # ab writes whole milliseconds: on loopback with keep-alive most requests are under one.
    assert "p50 <1 ms" in latency and "0 µs" not in latency, latency


async def test_wrk_rows_say_nothing_of_status_classes(nginx: DemoTarget, sessions: Path) -> None:
    need("wrk")
    spec = RunSpec(urls=(nginx.urls["h1"],), tool="wrk", connections=4, threads=1, duration_s=2)
    state = LiveState(spec)
    seen: list[tuple[str, Any]] = []

    def listen(event: Event) -> None:
        state.apply(event)
        if isinstance(event, SecondClosed):
            seen.append(("row", state.status_counts))

    finished = await EngineOptions(None).controller(spec, find_tool("wrk"), listen).run()
    assert seen and all(counts is None for _, counts in seen), "– while live, never 0"
    assert finished.result is not None and finished.result.requests.total
    # wrk's summary counts the responses outside 2xx/3xx, not each class: the classes stay
    # unknown, the errors are its count.
    assert state.status_counts is None
    assert state.errors_seen == finished.result.error_count == 0


def test_off_a_terminal_run_sweep_and_demo_go_headless(nginx: DemoTarget, sessions: Path) -> None:
    need("h2load")
    # Standard output is a pipe here, as in a CI job: each says so and runs headless.
    for command, args in (
        ("run", ["-d", "1", "-c", "2", nginx.urls["h2c"]]),
        ("sweep", ["-d", "1", "--vary", "c=2,4", "--cool-down", "0", nginx.urls["h2c"]]),
        ("demo", ["-d", "1"]),
    ):
        proc = tuibench(command, *args)
        assert proc.returncode == 0, (command, proc.stderr)
        assert f"{command}: not on a terminal: running headless" in proc.stderr, proc.stderr
        assert "completed" in proc.stdout, (command, proc.stdout)


def test_off_a_terminal_replay_and_compare_refuse_in_one_line(sessions: Path) -> None:
    saved = str(Path(__file__).parents[2] / "sessions" / "20261121-112049-153-h2load-h2c-m10.json")
    for args, instead in (
        (["replay", saved], f"tuibench export {saved} or tuibench plot {saved}"),
        (["compare", saved, saved], "add --format md or --json"),
    ):
        proc = tuibench(*args)
        assert proc.returncode == 2, proc.stderr
        command = args[0]
        expected = f"tuibench: error: {command} opens the app, which needs a terminal: {instead}"
        assert proc.stderr.strip() == expected, proc.stderr
        assert proc.stdout == ""
