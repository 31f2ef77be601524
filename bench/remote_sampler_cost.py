"""What sampling a server on another host costs that host: the probe, and sshd carrying it.

Starts the demo nginx on 127.0.0.1 and a real sshd on 127.0.0.2 (as the tests do), then
samples nginx over SSH exactly as `--server-host` does for SECONDS seconds at INTERVAL, and
prints the CPU the server's host spent on it, as % of one core: the probe alone, and the
probe plus the sshd session that carries its lines. Median of ROUNDS rounds. Also the bytes
per second the readings take on the wire (their JSON lines).

    .venv/bin/python bench/remote_sampler_cost.py [--seconds 20] [--rounds 3] [--interval 0.5]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import psutil

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.sshd import ssh_servers
from tui_bench.demo.nginx_target import DemoTarget
from tui_bench.remote.server import RemoteServer, Selector
from tui_bench.remote.ssh import SshHost


def cpu_s(procs: list[psutil.Process]) -> float:
    total = 0.0
    for proc in procs:
        try:
            times = proc.cpu_times()
            total += times.user + times.system
        except psutil.NoSuchProcess:
            continue
    return total


async def one_round(host: str, pid: int, seconds: float, interval: float) -> tuple[float, ...]:
    remote = RemoteServer(SshHost.parse(host), Selector("pid", str(pid)), interval)
    await remote.start()
    # The probe (on this one machine the ssh client's command line holds its text too).
    probe = [
        p
        for p in psutil.process_iter(["cmdline", "name"])
        if p.info["name"] == "python3"
        and any("def answer_pings" in a for a in p.info["cmdline"] or [])
    ]
    # The sshd processes that serve its connection.
    carriers = [a for p in probe for a in p.parents()[:2] if a.name() == "sshd"]
    assert len(probe) == 1 and carriers, "one probe, carried by an sshd session"
    probe_before, all_before = cpu_s(probe), cpu_s(probe + carriers)
    readings, wall = 0, time.monotonic()
    last = remote.latest
    while time.monotonic() - wall < seconds:
        await asyncio.sleep(interval / 4)
        if remote.latest is not last:
            readings, last = readings + 1, remote.latest
    elapsed = time.monotonic() - wall
    probe_pct = 100 * (cpu_s(probe) - probe_before) / elapsed
    all_pct = 100 * (cpu_s(probe + carriers) - all_before) / elapsed
    await remote.stop()
    # One reading is one JSON line of about this many bytes.
    line = len(b'{"t":1795534322.2771056,"cpu":12.5,"rss":21053440,"procs":3,')
    line += len(b'"cores":[12.5,7.5],"mem_used":416579584,"mem_total":25276502016,"self":0.2}\n')
    return probe_pct, all_pct, readings * line / elapsed


async def main_async(args: argparse.Namespace) -> None:
    target = DemoTarget("nginx")
    await target.start()
    try:
        with (
            tempfile.TemporaryDirectory() as tmp,
            ssh_servers(Path(tmp), ["127.0.0.2"]) as (
                config,
                servers,
            ),
        ):
            os.environ["TUIBENCH_SSH_CONFIG"] = str(config)
            results = [
                await one_round(servers[0].alias, target.pid, args.seconds, args.interval)
                for _ in range(args.rounds)
            ]
    finally:
        await target.stop()
    probe = statistics.median(r[0] for r in results)
    carried = statistics.median(r[1] for r in results)
    wire = statistics.median(r[2] for r in results)
    print(f"interval {args.interval} s, {args.seconds:g} s x {args.rounds} rounds (medians)")
    print(f"probe CPU on the server's host:         {probe:.2f} % of a core")
    print(f"probe + sshd session CPU:               {carried:.2f} % of a core")
    print(f"readings on the wire:                   {wire:.0f} bytes/s")
    print("rounds:", ", ".join(f"{r[0]:.2f}/{r[1]:.2f}" for r in results))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--interval", type=float, default=0.5)
    asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    main()
