"""Fixed-rate runs: how close h2load comes to the rate asked, and how fast the schedule of a
long request log is rebuilt.

    .venv/bin/python bench/rate.py accuracy        # nginx demo target, real h2load
    .venv/bin/python bench/rate.py speed           # 10 M log lines, median of 3 rounds
    .venv/bin/python bench/rate.py speed --lines 2000000 --rounds 1

`accuracy` measures the closed-loop peak (h2load -c 10 -m 10, h2c, 5 s), then runs
`--rate` at 1k, 10k and half that peak (5 s each) and prints achieved / target: the run's
req/s over the rate h2load was asked for. `speed` ingests the synthetic log of
bench/ingest.py (100 k req/s, a 3 s stall) with and without the schedule (LogIngest with
a Schedule, at the log's rate, 10 clients).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.common import tuibench_json  # noqa: E402
from bench.ingest import CHUNK_BYTES, RATE_PER_S, T0_US, generate  # noqa: E402
from tui_bench.demo.background import running_demo_target  # noqa: E402
from tui_bench.engine.log_ingest import LogIngest  # noqa: E402
from tui_bench.engine.schedule import Schedule, slack_us  # noqa: E402

CLIENTS = 10


def accuracy(_: argparse.Namespace) -> None:
    with running_demo_target("nginx") as target:
        url = target.urls["h2c"]
        load = ["-c", str(CLIENTS), "-m", "10", "-d", "5", "--no-server"]
        peak = float(tuibench_json([*load, url])["rps"])
        print(f"closed-loop peak: {peak:,.0f} req/s")
        for rate in (1_000, 10_000, round(peak / 2)):
            result = tuibench_json([*load, "--rate", str(rate), url])
            target_rps = result["rate"]["target_rps"]
            achieved = float(result["rps"])
            print(
                f"rate {rate:>7,}: achieved {achieved:>9,.1f} of {target_rps:,.0f} req/s "
                f"= {achieved / target_rps:.4f}  backlog at the end "
                f"{result['rate']['backlog_end']}  p99 from due "
                f"{result['latency']['p99_s'] * 1e3:.2f} ms, from the send "
                f"{result['service_latency']['p99_s'] * 1e3:.2f} ms"
            )


def ingest_seconds(path: Path, timed: bool) -> tuple[float, int]:
    schedule = Schedule(RATE_PER_S, slack_us(RATE_PER_S / CLIENTS), T0_US) if timed else None
    ingest = LogIngest(T0_US, schedule)
    start = time.perf_counter()
    with path.open("rb", buffering=0) as log:
        while chunk := log.read(CHUNK_BYTES):
            ingest.feed(chunk)
    ingest.close()
    return time.perf_counter() - start, ingest.totals.requests


def speed(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "requests.tsv"
        generate(path, args.lines)
        for timed in (False, True):
            rounds = [ingest_seconds(path, timed) for _ in range(args.rounds)]
            seconds = statistics.median(s for s, _ in rounds)
            lines = rounds[0][1]
            what = "with the schedule" if timed else "closed loop      "
            print(f"{what}: {lines:,} lines in {seconds:.2f} s = {lines / seconds / 1e6:.2f} M/s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("accuracy")
    speed_parser = commands.add_parser("speed")
    speed_parser.add_argument("--lines", type=int, default=10_000_000)
    speed_parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    {"accuracy": accuracy, "speed": speed}[args.command](args)


if __name__ == "__main__":
    main()
