"""Throughput and memory of LogIngest on a long h2load request log.

    .venv/bin/python bench/ingest.py              # 10 M lines, median of 5 rounds
    .venv/bin/python bench/ingest.py --lines 2000000 --rounds 3
    .venv/bin/python bench/ingest.py capture      # re-capture the golden fixture

The log is synthetic but shaped like a real one: 16-digit start times, lognormal request
times with a slow tail, a status mix with 4xx/5xx and failures (-1), lines in completion
order with the jitter of interleaved threads, and a 3-second server stall. It is written by a
child process so that the peak RSS printed here is that of reading, not of generating.

`capture` starts nginx on 127.0.0.1:18342 (config in /tmp/ingest-nginx/), runs
`h2load -n 200000 -c 20 -m 10 --log-file=...` against it with one URI in ten answering 404,
stops nginx and saves the first 2000 lines as tests/fixtures/h2load-1.52-logfile.tsv.
"""

from __future__ import annotations

import argparse
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tui_bench.engine.log_ingest import LogIngest, SecondStats  # noqa: E402

CHUNK_BYTES = 1 << 20
RATE_PER_S = 100_000
T0_US = 1_795_000_000_000_000
STALL_AT_S = 40
STALL_S = 3
GEN_BLOCK = 1_000_000
NGINX_DIR = Path("/tmp/ingest-nginx")
NGINX_PORT = 18342
FIXTURE = ROOT / "tests" / "fixtures" / "h2load-1.52-logfile.tsv"


def generate(path: Path, lines: int, seed: int = 7) -> None:
    rng = np.random.default_rng(seed)
    clock = T0_US + 50_000
    stall_lo = T0_US + STALL_AT_S * 1_000_000
    stall_hi = stall_lo + STALL_S * 1_000_000
    with path.open("w", encoding="ascii") as out:
        for done in range(0, lines, GEN_BLOCK):
            n = min(GEN_BLOCK, lines - done)
            arrivals = clock + np.cumsum(rng.exponential(1e6 / RATE_PER_S, n)).astype(np.int64)
            clock = int(arrivals[-1])
            # A closed-model client starts nothing while the server stalls, and what was in
            # flight completes when the stall ends.
            start = np.where(arrivals >= stall_lo, arrivals + (stall_hi - stall_lo), arrivals)
            duration = rng.lognormal(np.log(2_000), 0.5, n)
            slow = rng.random(n) < 0.001
            duration[slow] *= rng.uniform(5, 50, int(slow.sum()))
            end = start + duration.astype(np.int64)
            stalled = (end >= stall_lo) & (end < stall_hi)
            end[stalled] = stall_hi + rng.integers(0, 20_000, int(stalled.sum()))
            status = rng.choice(
                np.array([200, 404, 503, -1]), size=n, p=[0.975, 0.015, 0.005, 0.005]
            )
            # Threads write in their own completion order and interleave: jitter the order.
            order = np.argsort(end + rng.integers(0, 200, n), kind="stable")
            rows = zip(
                start[order].tolist(),
                status[order].tolist(),
                (end - start)[order].tolist(),
                strict=True,
            )
            out.write("".join(f"{s}\t{c}\t{d}\n" for s, c, d in rows))


def rss_now_kib() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def peak_rss_kib() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def ingest_file(path: Path, limit_bytes: int | None = None) -> tuple[float, float, int, int]:
    """(wall seconds incl. reading, seconds inside feed/close, lines, seconds emitted)."""
    ingest = LogIngest(T0_US)
    series: list[SecondStats] = []
    in_feed = 0.0
    left = limit_bytes
    wall = time.perf_counter()
    with path.open("rb", buffering=0) as log:
        while chunk := log.read(CHUNK_BYTES if left is None else min(CHUNK_BYTES, left)):
            if left is not None:
                left -= len(chunk)
            t = time.perf_counter()
            series.extend(ingest.feed(chunk))
            in_feed += time.perf_counter() - t
    t = time.perf_counter()
    series.extend(ingest.close())
    in_feed += time.perf_counter() - t
    wall = time.perf_counter() - wall
    return wall, in_feed, ingest.totals.requests + ingest.totals.bad_lines, len(series)


def line_offset(path: Path, lines: int) -> int:
    offset = 0
    with path.open("rb") as log:
        for _ in range(lines):
            offset += len(log.readline())
    return offset


def bench(args: argparse.Namespace) -> None:
    mib = 1024
    print(f"start: rss {rss_now_kib() / mib:.1f} MiB, peak {peak_rss_kib() / mib:.1f} MiB")
    with tempfile.TemporaryDirectory(prefix="ingest-bench-") as tmp:
        path = Path(tmp) / "h2load.log"
        t = time.perf_counter()
        subprocess.run(
            [sys.executable, __file__, "generate", str(path), str(args.lines)], check=True
        )
        size = path.stat().st_size
        print(
            f"generated {args.lines:,} lines ({size / 2**20:.0f} MiB) "
            f"in {time.perf_counter() - t:.1f} s (child process)"
        )

        small = min(1_000_000, args.lines)
        wall, _, lines, seconds = ingest_file(path, line_offset(path, small))
        print(
            f"{lines:>11,} lines: {seconds} seconds emitted; "
            f"rss {rss_now_kib() / mib:.1f} MiB, peak {peak_rss_kib() / mib:.1f} MiB"
        )

        walls: list[float] = []
        feeds: list[float] = []
        for _ in range(args.rounds):
            wall, in_feed, lines, seconds = ingest_file(path)
            walls.append(wall)
            feeds.append(in_feed)
        print(
            f"{lines:>11,} lines: {seconds} seconds emitted; "
            f"rss {rss_now_kib() / mib:.1f} MiB, peak {peak_rss_kib() / mib:.1f} MiB"
        )
        print(
            f"throughput, median of {args.rounds} rounds in {CHUNK_BYTES >> 10} KiB chunks: "
            f"{lines / statistics.median(walls) / 1e6:.2f} M lines/s with reading, "
            f"{lines / statistics.median(feeds) / 1e6:.2f} M lines/s in feed() "
            f"(rounds: {', '.join(f'{lines / w / 1e6:.2f}' for w in walls)})"
        )


def capture(args: argparse.Namespace) -> None:
    NGINX_DIR.mkdir(exist_ok=True)
    conf = NGINX_DIR / "nginx.conf"
    conf.write_text(
        f"""worker_processes 2;
pid {NGINX_DIR}/nginx.pid;
error_log {NGINX_DIR}/error.log warn;
events {{ worker_connections 1024; }}
http {{
    access_log off;
    client_body_temp_path {NGINX_DIR}/client_body;
    proxy_temp_path {NGINX_DIR}/proxy;
    fastcgi_temp_path {NGINX_DIR}/fastcgi;
    uwsgi_temp_path {NGINX_DIR}/uwsgi;
    scgi_temp_path {NGINX_DIR}/scgi;
    keepalive_requests 1000000;
    server {{
        listen 127.0.0.1:{args.port} http2;
        location = / {{ return 200 "ok\\n"; }}
    }}
}}
"""
    )
    nginx = ["nginx", "-c", str(conf), "-p", f"{NGINX_DIR}/"]
    log = NGINX_DIR / "h2load.log"
    log.unlink(missing_ok=True)
    subprocess.run(nginx, check=True)
    try:
        time.sleep(0.5)
        base = f"http://127.0.0.1:{args.port}"
        uris = [f"{base}/"] * 9 + [f"{base}/missing"]
        h2load = ["h2load", "-n", "200000", "-c", "20", "-m", "10", f"--log-file={log}", *uris]
        subprocess.run(h2load, check=True)
    finally:
        subprocess.run([*nginx, "-s", "quit"], check=True)
    with log.open("rb") as full, FIXTURE.open("wb") as golden:
        golden.writelines(full.readline() for _ in range(2000))
    shutil.copy(log, NGINX_DIR / "h2load-full.log")
    print(f"wrote {FIXTURE} (full log kept in {NGINX_DIR / 'h2load-full.log'})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=10_000_000)
    parser.add_argument("--rounds", type=int, default=5)
    sub = parser.add_subparsers(dest="command")
    gen = sub.add_parser("generate", help="write a synthetic log (used by the benchmark)")
    gen.add_argument("path", type=Path)
    gen.add_argument("lines", type=int)
    cap = sub.add_parser("capture", help="capture a real log from h2load against nginx")
    cap.add_argument("--port", type=int, default=NGINX_PORT, choices=range(18300, 18400))
    args = parser.parse_args()
    if args.command == "generate":
        generate(args.path, args.lines)
    elif args.command == "capture":
        capture(args)
    else:
        bench(args)


if __name__ == "__main__":
    main()
