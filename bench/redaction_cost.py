"""What redaction costs where it runs most: reading the store (the sessions browser and
`tuibench sessions` parse every session file). Prints the median time to parse the example
sessions without it, with it as they are (files from before redaction: each is looked over
and, if need be, redacted value by value), and with it as this version writes them (marked
redacted, so not looked over again): side by side in one run, with the ratios.

    .venv/bin/python bench/redaction_cost.py
"""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from statistics import median

import orjson

from tui_bench.storage.session import Session
from tui_bench.storage.session_file import check, parse

EXAMPLES = sorted((Path(__file__).parents[1] / "sessions").glob("*.json"))
ROUNDS = 15
PASSES = 20


def unredacted(data: bytes) -> Session:
    doc = orjson.loads(data)
    check(doc, "x")
    return Session(doc)


def redacted(data: bytes) -> Session:
    return parse(data, "x")


def main() -> None:
    # The fingerprint key of a secret found goes to a scratch config dir, not the user's.
    os.environ["XDG_CONFIG_HOME"] = tempfile.mkdtemp(prefix="tuibench-bench-")
    old = [path.read_bytes() for path in EXAMPLES]
    new = [parse(data, "x").to_json() for data in old]
    cases: dict[str, tuple[Callable[[bytes], Session], list[bytes]]] = {
        "without redaction": (unredacted, old),
        "older files": (redacted, old),
        "files written now": (redacted, new),
    }
    timings: dict[str, list[float]] = {name: [] for name in cases}
    for _ in range(ROUNDS):
        # Interleaved, so every case sees the same load on the machine.
        for name, (way, datas) in cases.items():
            start = time.perf_counter()
            for _ in range(PASSES):
                for data in datas:
                    way(data)
            timings[name].append((time.perf_counter() - start) / PASSES)
    size = sum(map(len, old)) / 1024
    plain = median(timings["without redaction"])
    print(f"parse {len(old)} example sessions ({size:.0f} KiB), median of {ROUNDS}:")
    for name, values in timings.items():
        print(f"  {name:<18} {median(values) * 1e3:6.2f} ms  ({median(values) / plain:.2f}x)")


if __name__ == "__main__":
    main()
