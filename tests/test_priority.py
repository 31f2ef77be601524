"""tuibench's threads give way to the load; what it starts keeps the user's priority."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import psutil

from tests.conftest import need
from tui_bench.demo.nginx_target import DemoTarget
from tui_bench.priority import YIELD_NICE


def thread_nices(pid: int) -> dict[int, int]:
    """Each thread's nice value (field 19 of its stat, after the command's parentheses)."""
    nices = {}
    for task in Path(f"/proc/{pid}/task").iterdir():
        stat = (task / "stat").read_text()
        nices[int(task.name)] = int(stat.rsplit(")", 1)[1].split()[16])
    return nices


def test_threads_lowered_children_kept() -> None:
    # In a process of its own: the lowering cannot be undone, and must not reach pytest's.
    script = textwrap.dedent(
        """
        import asyncio, os, subprocess, threading
        from tui_bench.priority import spawn_kept, yield_to_load

        def nice() -> int:
            return os.getpriority(os.PRIO_PROCESS, threading.get_native_id())

        async def main() -> None:
            before = nice()
            yield_to_load()
            yield_to_load()
            later = []
            thread = threading.Thread(target=lambda: later.append(nice()))
            thread.start()
            thread.join()
            child = await spawn_kept(
                ["sh", "-c", "cut -d')' -f2 /proc/self/stat; exit 3"], stdout=subprocess.PIPE
            )
            assert child.returncode is None
            stat = (await child.stdout.read()).split()
            code = await child.wait()
            print(before, nice(), later[0], stat[16].decode(), code, child.returncode)

        asyncio.run(main())
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=30, check=True
    )
    before, main, later, child, code, returncode = map(int, done.stdout.split())
    lowered = min(19, before + YIELD_NICE)
    assert (main, later) == (lowered, lowered)
    assert child == before
    assert code == returncode == 3


def test_a_run_yields_to_its_tool(nginx: DemoTarget, sessions: Path) -> None:
    need("h2load")
    argv = [sys.executable, "-m", "tui_bench.cli.main", "run", "--headless", "-d", "3"]
    tuibench = subprocess.Popen(
        [*argv, "-c", "2", nginx.urls["h2c"]], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    try:
        deadline = time.monotonic() + 20
        tools: list[psutil.Process] = []
        while not tools and time.monotonic() < deadline:
            tools = [c for c in psutil.Process(tuibench.pid).children() if c.name() == "h2load"]
            time.sleep(0.05)
        assert tools, "h2load never started"
        ours = os.getpriority(os.PRIO_PROCESS, 0)
        assert set(thread_nices(tools[0].pid).values()) == {ours}
        lowered = thread_nices(tuibench.pid)
        # All but the one thread that starts the tools.
        assert sorted(lowered.values()).count(min(19, ours + YIELD_NICE)) == len(lowered) - 1
        assert sorted(lowered.values())[0] == ours
    finally:
        out, err = tuibench.communicate(timeout=30)
    assert tuibench.returncode == 0, err
    assert b"req/s" in out


def test_called_as_code_leaves_the_process_alone(sessions: Path) -> None:
    # `main([...])` from other code (as tests do) must not lower the caller's threads.
    from tui_bench.cli.main import main

    need("h2load")
    before = os.getpriority(os.PRIO_PROCESS, 0)
    # Nothing listens there: a run dispatched and failed at once.
    assert main(["run", "--headless", "-n", "10", "-c", "1", "http://127.0.0.1:1/"]) == 1
    assert os.getpriority(os.PRIO_PROCESS, 0) == before
