"""What `--prometheus-remote-write` costs: tuibench's own work per second pushed (the
samples of a second, encoded and compressed), and the load of a run pushing to a real
Prometheus, or to a receiver that never answers, beside the same run not pushing.

Runs alternate in each round (plain, pushed, silent; the order turned each round) so drift
on a shared machine hits all alike; the figures are the medians of the per-round ratios.

    .venv/bin/python bench/remote_write.py [--rounds 5] [--duration 5] \\
        [--load '-c 8 -m 10 -t 1']
"""

from __future__ import annotations

import argparse
import os
import shlex
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import numpy as np

from bench.common import RunLeftOut, median, tuibench_json
from tui_bench.demo.background import running_demo_target
from tui_bench.engine.events import RunStarted, SecondClosed
from tui_bench.engine.prometheus_push import RemoteWrite, _merged
from tui_bench.histogram import LatencyHistogram
from tui_bench.metrics.remote_write import compressed
from tui_bench.spec import RunSpec


def encoding_us(seconds: int = 2000) -> float:
    """Median over 5 repeats of the µs one second of a fixed-rate h2load run costs to turn
    into samples, encode and compress (what the push adds to the event loop and its thread)."""
    row = {
        "t_s": 0, "window_s": 1.0, "requests": 20000, "rps": 20000.0, "good_rps": 20000.0,
        "errors": 0, "2xx": 20000, "3xx": 0, "4xx": 0, "5xx": 0, "n": 20000,
        "p50_s": 0.0001, "p90_s": 0.0002, "p99_s": 0.0009, "max_s": 0.004,
        "achieved_rps": 20000.0, "backlog": 3, "service_p50_s": 0.0001, "service_p99_s": 0.0008,
        "server_cpu_pct": 93.1, "server_rss_bytes": 2.1e7, "system_cpu_pct": 99.0,
        "client_cpu_pct": 80.0, "client_thread_max_pct": 80.0,
    }  # fmt: skip
    histogram = LatencyHistogram()
    rng = np.random.default_rng(1)
    histogram.add(rng.lognormal(5, 0.8, 20000).astype(np.int64))
    spec = RunSpec(urls=("http://127.0.0.1:1/",), rate=20000)
    timings = []
    for _ in range(5):
        taken: list[list] = []  # type: ignore[type-arg]
        push = RemoteWrite("http://127.0.0.1:1/")
        push.put = taken.append  # type: ignore[method-assign]
        listener = push.listener(lambda event: None, spec, "bench", "local")
        listener(RunStarted("s", (), 0, None, "2026-11-28T00:00:00+00:00"))
        start = time.perf_counter()
        for t in range(seconds):
            listener(SecondClosed({**row, "t_s": t}, histogram))
        for first in range(0, seconds, 60):
            compressed(_merged(taken[first : first + 60]))
        timings.append((time.perf_counter() - start) / seconds * 1e6)
    return median(timings)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--duration", type=float, default=5.0)
    parser.add_argument("--load", default="-c 8 -m 10 -t 1")
    opts = parser.parse_args()
    print(f"encoding: {encoding_us():.0f} µs per second pushed (median of 5 x 2000 seconds)")
    if shutil.which("prometheus") is None:
        print("prometheus not installed: no load figures")
        return
    with tempfile.TemporaryDirectory() as where, running_demo_target("nginx") as target:
        config = Path(where) / "prometheus.yml"
        config.write_text("global:\n  scrape_interval: 1h\nscrape_configs: []\n")
        port = _free_port()
        prometheus = subprocess.Popen(
            [
                "prometheus", f"--config.file={config}", f"--storage.tsdb.path={where}/data",
                f"--web.listen-address=127.0.0.1:{port}", "--web.enable-remote-write-receiver",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )  # fmt: skip
        silent = socket.socket()
        silent.bind(("127.0.0.1", 0))
        silent.listen(64)
        try:
            for _ in range(600):
                try:
                    urllib.request.urlopen(f"http://127.0.0.1:{port}/-/ready", timeout=2)
                    break
                except OSError:
                    time.sleep(0.1)
            variants = {
                "plain": [],
                "pushed": ["--prometheus-remote-write", f"http://127.0.0.1:{port}/api/v1/write"],
                "silent": [
                    "--prometheus-remote-write",
                    f"http://127.0.0.1:{silent.getsockname()[1]}/api/v1/write",
                ],
            }
            load = [*shlex.split(opts.load), "-d", f"{opts.duration:g}", target.urls["h2c"]]
            ratios: dict[str, list[float]] = {"pushed": [], "silent": []}
            for round_ in range(opts.rounds):
                order = list(variants) if round_ % 2 == 0 else list(reversed(variants))
                rps: dict[str, float] = {}
                for name in order:
                    try:
                        rps[name] = float(tuibench_json([*variants[name], *load])["rps"])
                    except RunLeftOut as exc:
                        print(f"round {round_ + 1}: {name} left out: {exc}")
                line = ", ".join(f"{k} {v:,.0f}" for k, v in rps.items())
                print(f"round {round_ + 1}: req/s {line}")
                for name in ratios:
                    if name in rps and "plain" in rps:
                        ratios[name].append(rps[name] / rps["plain"])
            for name, values in ratios.items():
                if values:
                    print(
                        f"{name}/plain req/s: median {median(values):.3f} of {len(values)} rounds"
                    )
        finally:
            silent.close()
            prometheus.terminate()
            prometheus.wait(timeout=30)


if __name__ == "__main__":
    main()
