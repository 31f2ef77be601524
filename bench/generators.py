"""Two SSH generators against one local h2load with the same total load, and what streaming
their request logs back costs.

Starts the demo nginx on 127.0.0.1 and real sshd instances on 127.0.0.2 and 127.0.0.3 (as the
tests do), then runs, interleaved for ROUNDS rounds (A B A B ...):

  A  tuibench run -d SECONDS -c C -t 2                              one h2load here
  B  tuibench run -d SECONDS -c C -t 1 --generator host0 --generator host1
                                                                    one h2load (-t 1) on each

Both have C connections and two h2load threads in all. Prints the req/s of each (median of
the rounds) and B / A (goal >= 0.95; on one machine the generators' programs and ssh compete
with nginx and h2load for the same cores, which is what the ratio measures); the bytes per
second that come back over ssh (the log, the output, the CPU readings) per 100k req/s; and
the CPU the streaming program takes on each generator host, as % of a core.

    .venv/bin/python bench/generators.py [--seconds 5] [--rounds 3] [-c 16]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import orjson
import psutil

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import TUIBENCH
from tests.sshd import ssh_servers
from tui_bench.demo.background import running_demo_target
from tui_bench.storage import store

# A phrase of the program that runs a tool on its host (remote/streamed_tool.py).
PROGRAM_MARK = "def send_log"


class ProgramCpu:
    """The CPU seconds the streaming programs used, polled while they live."""

    def __init__(self) -> None:
        self.seconds: dict[int, float] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._poll, daemon=True)

    def __enter__(self) -> ProgramCpu:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def _poll(self) -> None:
        while not self._stop.wait(0.2):
            for proc in psutil.process_iter(["name", "cmdline", "cpu_times"]):
                if proc.info["name"] == "python3" and any(
                    PROGRAM_MARK in arg for arg in proc.info["cmdline"] or []
                ):
                    times = proc.info["cpu_times"]
                    self.seconds[proc.pid] = times.user + times.system


def run(url: str, args: list[str]) -> dict[str, Any]:
    proc = subprocess.run(
        [*TUIBENCH, "run", "--headless", "--json", *args, url],
        capture_output=True,
        check=True,
    )
    result: dict[str, Any] = orjson.loads(proc.stdout)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("-c", type=int, default=16)
    opts = parser.parse_args()
    load = ["-d", f"{opts.seconds:g}", "-c", str(opts.c), "--no-server"]
    local_rps: list[float] = []
    remote_rps: list[float] = []
    per_100k: list[float] = []
    program_pct: list[float] = []
    with (
        tempfile.TemporaryDirectory() as tmp,
        running_demo_target("nginx") as target,
        ssh_servers(Path(tmp), ["127.0.0.2", "127.0.0.3"]) as (config, hosts),
    ):
        os.environ["TUIBENCH_SSH_CONFIG"] = str(config)
        os.environ["TUIBENCH_SESSIONS"] = str(Path(tmp) / "sessions")
        url = target.urls["h2c"]
        generators = [arg for host in hosts for arg in ("--generator", host.alias)]
        for _ in range(opts.rounds):
            local_rps.append(run(url, [*load, "-t", "2"])["rps"])
            with ProgramCpu() as cpu:
                started = time.monotonic()
                result = run(url, [*load, "-t", "1", *generators])
                wall = time.monotonic() - started
            remote_rps.append(result["rps"])
            doc = store.load(result["session_path"]).doc
            seconds = result["duration_s"]
            streamed = sum(g["stream_bytes"] for g in doc["generators"]) / seconds
            per_100k.append(streamed / (result["rps"] / 100_000))
            # Per host: each program's CPU over the run it carried.
            program_pct += [100 * s / wall for s in cpu.seconds.values()]
    ratio = [b / a for a, b in zip(local_rps, remote_rps, strict=True)]
    print(f"-c {opts.c}, -d {opts.seconds:g} s, {opts.rounds} rounds (medians)")
    print(f"A one local h2load -t 2:               {statistics.median(local_rps):,.0f} req/s")
    print(f"B two SSH generators -t 1 each:        {statistics.median(remote_rps):,.0f} req/s")
    print(f"B / A:                                 {statistics.median(ratio):.3f}")
    print(f"streamed back per 100k req/s:          {statistics.median(per_100k) / 1e6:.2f} MB/s")
    print(
        f"streaming program CPU on each host:    {statistics.median(program_pct):.1f} % of a core"
    )
    print("rounds B/A:", ", ".join(f"{r:.3f}" for r in ratio))


if __name__ == "__main__":
    main()
