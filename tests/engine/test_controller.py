"""RunController on a stand-in process whose output comes at known moments."""

from __future__ import annotations

import subprocess
import sys
from functools import partial
from pathlib import Path
from typing import Any

import psutil
import pytest

from tui_bench.engine import run_measures
from tui_bench.engine.controller import RunController
from tui_bench.engine.count_seconds import CountSeconds
from tui_bench.engine.events import Event, OutputLine, SecondClosed
from tui_bench.engine.replay import timeline
from tui_bench.engine.tool_start import Process, spawn_subprocess
from tui_bench.runners.tools import Tool
from tui_bench.sampling import pacing
from tui_bench.spec import RunSpec
from tui_bench.storage import store

PAUSE_S = 1.0
# A line a second apart, one on stderr in between, and a last one without a newline.
SCRIPT = f"""
import sys, time
print("first", flush=True)
print("to stderr", file=sys.stderr, flush=True)
time.sleep({PAUSE_S})
print("second", flush=True)
sys.stdout.write("tail")
"""


async def spawn_script(*argv: str, **kwargs: Any) -> Process:
    # The tool's argv is ignored: the script stands in for it.
    return await spawn_subprocess(sys.executable, "-c", SCRIPT, **kwargs)


async def test_each_output_line_is_saved_with_when_it_came(tmp_path: Path, quiet_url: str) -> None:
    events: list[Event] = []
    controller = RunController(
        RunSpec(urls=(quiet_url,), tool="ab", requests=1),
        Tool("ab", "/usr/bin/ab", "2.3"),
        store=tmp_path,
        interval_s=0.2,
        listener=events.append,
        spawn=spawn_script,
    )
    finished = await controller.run()
    doc = store.load(finished.session_path).doc
    assert doc["raw"] == {"stdout": "first\nsecond\ntail", "stderr": "to stderr\n"}
    times = doc["raw_times"]
    assert [len(times["stdout"]), len(times["stderr"])] == [3, 1]
    first, second, tail = times["stdout"]
    # From the run's start, the origin of the samples' times, not from anything earlier
    # (a loaded machine may take a while to start the script).
    assert 0 <= first < 5 * PAUSE_S
    assert second - first >= PAUSE_S / 2
    assert second <= tail
    assert all(t == round(t, 3) for t in [*times["stdout"], *times["stderr"]])
    # Listeners get each line as it comes, as before.
    shown = sorted(e.text for e in events if isinstance(e, OutputLine))
    assert shown == sorted(["first\n", "to stderr\n", "second\n", "tail"])
    # Replayed, each line comes when it did, within the run.
    tl = timeline(store.load(finished.session_path))
    assert tl.lines_timed
    replayed = {
        e.text: t for t, e in zip(tl.times, tl.events, strict=True) if isinstance(e, OutputLine)
    }
    assert replayed == {
        "first\n": first,
        "to stderr\n": times["stderr"][0],
        "second\n": second,
        "tail": tail,
    }
    assert tail <= tl.length_s


RUN_S = 1.5
# The shortest stretch the sampler tells CPU over, widened in the tests below so that the
# opening reading (some 0.03 s after the sampler starts on a quiet machine) falls inside it
# even on a loaded one, while the run (RUN_S) still spans it.
CPU_WINDOW_S = 1.0


async def quick_script(*argv: str, **kwargs: Any) -> Process:
    return await spawn_subprocess(
        sys.executable, "-c", f"import time; time.sleep({RUN_S})", **kwargs
    )


async def test_a_run_shorter_than_the_interval_still_measures_its_server(
    tmp_path: Path, quiet_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(pacing, "CPU_WINDOW_MIN_S", CPU_WINDOW_S)
    server = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        controller = RunController(
            RunSpec(urls=(quiet_url,), tool="ab", requests=1),
            Tool("ab", "/usr/bin/ab", "2.3"),
            store=tmp_path,
            server=psutil.Process(server.pid),
            # A tick a minute: a closing reading well before it came when the tool ended.
            interval_s=60.0,
            spawn=quick_script,
        )
        finished = await controller.run()
    finally:
        server.kill()
        server.wait()
    samples = store.load(finished.session_path).samples or []
    assert len(samples) == 2  # the opening and the closing one: the tick never came
    opening, closing = samples
    # Too soon after the start to tell CPU; the memory is known from the first moment.
    assert opening["server_cpu_pct"] is None and opening["server_rss_bytes"] > 0
    assert opening["t_s"] < CPU_WINDOW_S
    assert closing["server_cpu_pct"] > 5  # the busy loop, measured over the run
    assert closing.get("client_cpu_pct") is None  # the tool has exited by then
    assert RUN_S <= closing["t_s"] < 30.0


# A wrk whose count lines all reach the reader late, at once (as when a busy machine holds
# the reader back): 100 requests every tenth of a second, each line with the time wrk wrote
# it, then the lines after a silence.
STEADY_PER_S = 1000
LATE_LINES = """
import sys, time
start = time.monotonic()
lines = [f"tuibench-live 0 {k * 100} {start + k / 10:.4f}\\n" for k in range(1, 31)]
time.sleep(3.5)
sys.stderr.write("".join(lines))
sys.stderr.flush()
"""


async def late_lines(*argv: str, **kwargs: Any) -> Process:
    return await spawn_subprocess(sys.executable, "-c", LATE_LINES, **kwargs)


async def test_count_lines_read_late_are_placed_when_the_tool_wrote_them(
    tmp_path: Path, quiet_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # No second closes on the clock before the lines come: what is asked is where they land.
    monkeypatch.setattr(run_measures, "CountSeconds", partial(CountSeconds, grace_s=60.0))
    events: list[Event] = []
    controller = RunController(
        RunSpec(urls=(quiet_url,), tool="wrk", duration_s=3),
        Tool("wrk", "/usr/bin/wrk", "4.1.0"),
        store=tmp_path,
        interval_s=0.5,
        listener=events.append,
        spawn=late_lines,
    )
    await controller.run()
    rows = [e.row for e in events if isinstance(e, SecondClosed)]
    # Seconds 1 and 2 lie wholly within the lines' span (as long as the script started
    # within 0.9 s of the run): exactly the steady rate, where timing lines as they came
    # put nothing in them and all 3,000 requests in the last second.
    assert [row["requests"] for row in rows[1:3]] == [STEADY_PER_S, STEADY_PER_S]
    assert sum(row["requests"] for row in rows) == 3000
