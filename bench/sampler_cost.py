"""What resource sampling costs: tuibench's ResourceSampler against psrecord.

Starts the demo nginx (master and 2 workers) on a free 127.0.0.1 port, samples it (plus an
idle stand-in load generator, so client sampling is paid for too) every INTERVAL seconds for
SECONDS seconds, and prints the sampler's CPU use as % of one core: process CPU time over wall
time, median of ROUNDS rounds. psrecord (pip install psrecord) gets the same treatment when it
is installed; its interpreter start-up is measured apart and reported both ways.

    .venv/bin/python bench/sampler_cost.py [--seconds 20] [--rounds 3] [--interval 0.1]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

import psutil

from tui_bench.demo.nginx_target import DemoTarget
from tui_bench.sampling.sampler import ResourceSampler


def sampler_cost(server_pid: int, client_pid: int, seconds: float, interval: float) -> float:
    """% of one core this process spends while a thread samples every `interval` seconds."""
    stop = threading.Event()

    def run() -> None:
        sampler = ResourceSampler(psutil.Process(server_pid), client_pid, interval_s=interval)
        due = time.monotonic()
        while not stop.is_set():
            sampler.sample()
            due += interval
            stop.wait(max(0.0, due - time.monotonic()))

    thread = threading.Thread(target=run)
    cpu, wall = time.process_time(), time.monotonic()
    thread.start()
    time.sleep(seconds)
    stop.set()
    thread.join()
    return 100.0 * (time.process_time() - cpu) / (time.monotonic() - wall)


def child_cpu_s(argv: list[str]) -> tuple[float, float]:
    """CPU seconds and wall seconds of one run of `argv`, from the kernel's rusage."""
    started = time.monotonic()
    proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
    _, _, usage = os.wait4(proc.pid, 0)
    proc.returncode = 0  # reaped by wait4 above
    return usage.ru_utime + usage.ru_stime, time.monotonic() - started


def psrecord_cost(psrecord: str, pid: int, seconds: float, interval: float) -> tuple[float, float]:
    """(% of a core including start-up, % excluding it) for psrecord on the nginx tree."""
    base = [psrecord, str(pid), "--include-children", "--interval", str(interval)]
    startup_cpu, _ = child_cpu_s([*base, "--duration", "0"])
    cpu, wall = child_cpu_s([*base, "--duration", str(seconds)])
    return 100.0 * cpu / wall, 100.0 * max(0.0, cpu - startup_cpu) / wall


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--interval", type=float, default=0.1)
    args = parser.parse_args()
    # pip puts psrecord beside this interpreter, which need not be on PATH.
    search = os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])
    psrecord = shutil.which("psrecord", path=search)
    async with DemoTarget("nginx") as target:
        client = subprocess.Popen(["sleep", "3600"], stdin=subprocess.DEVNULL)
        try:
            ours = [
                await asyncio.to_thread(
                    sampler_cost, target.pid, client.pid, args.seconds, args.interval
                )
                for _ in range(args.rounds)
            ]
            theirs = (
                [
                    await asyncio.to_thread(
                        psrecord_cost, psrecord, target.pid, args.seconds, args.interval
                    )
                    for _ in range(args.rounds)
                ]
                if psrecord
                else []
            )
        finally:
            client.kill()
            client.wait()
    rounds = f"{args.rounds} rounds of {args.seconds:g} s at {args.interval:g} s"
    print(f"cpus: {os.cpu_count()}, nginx: master + 2 workers, {rounds}")
    _row("tuibench ResourceSampler", ours)
    if theirs:
        _row("psrecord", [full for full, _ in theirs])
        _row("psrecord minus start-up", [steady for _, steady in theirs])
    else:
        print("psrecord: not installed (pip install psrecord to compare)")


def _row(label: str, values: list[float]) -> None:
    each = ", ".join(f"{v:.2f}" for v in values)
    print(f"{label + ':':<26}{statistics.median(values):.2f} % of a core (rounds: {each})")


if __name__ == "__main__":
    asyncio.run(main())
