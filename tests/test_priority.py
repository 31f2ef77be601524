"""tuibench's threads give way to the load; what it starts keeps the user's priority."""

from __future__ import annotations

import asyncio
import contextlib
import os
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import psutil
import pytest

from tests.conftest import need
from tui_bench.demo.nginx_target import DemoTarget
from tui_bench.priority import YIELD_NICE, keeper, spawn_kept


def thread_nices(pid: int) -> dict[int, int]:
    """Each thread's nice value (field 19 of its stat, after the command's parentheses);
    a thread that ends while they are read is left out."""
    nices = {}
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(FileNotFoundError, ProcessLookupError):
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
                ["sh", "-c", "cut -d')' -f2 /proc/self/stat; exit 3"],
                stdout=subprocess.PIPE,
                process_group=0,
            )
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
    ours = os.getpriority(os.PRIO_PROCESS, 0)
    lowered = min(19, ours + YIELD_NICE)
    if lowered == ours:
        pytest.skip("already at the lowest priority: nothing to lower")
    url = nginx.urls["h2c"]
    argv = [sys.executable, "-m", "tui_bench.cli.main", "run", "--headless", "-d", "3"]
    tuibench = subprocess.Popen(
        [*argv, "-c", "2", url], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    try:
        tool = the_load(tuibench.pid, url)
        assert set(thread_nices(tool.pid).values()) == {ours}
        nices = sorted(thread_nices(tuibench.pid).values())
        # All but the one thread that starts the tools.
        assert nices == [ours] + [lowered] * (len(nices) - 1)
        # In tuibench's session, where the kernel may group scheduling (autogroup) and
        # nice orders threads only within a group; out of the terminal's process group.
        assert os.getsid(tool.pid) == os.getsid(tuibench.pid)
        assert os.getpgid(tool.pid) == tool.pid != os.getpgid(tuibench.pid)
    finally:
        out, err = tuibench.communicate(timeout=30)
    assert tuibench.returncode == 0, err
    assert b"req/s" in out


def the_load(pid: int, url: str) -> psutil.Process:
    """The h2load putting the load on `url` (not the `--version` probe before it)."""
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        for child in psutil.Process(pid).children():
            with contextlib.suppress(psutil.NoSuchProcess):
                if child.name() == "h2load" and url in child.cmdline():
                    return child
        time.sleep(0.05)
    raise AssertionError("h2load never started")


@pytest.mark.real
def test_called_as_code_leaves_the_process_alone(sessions: Path) -> None:
    # `main([...])` from other code (as tests do) must not lower the caller's threads.
    from tui_bench.cli.main import main

    need("h2load")
    before = os.getpriority(os.PRIO_PROCESS, 0)
    # Nothing listens there: a run dispatched and refused before any load.
    assert main(["run", "--headless", "-n", "10", "-c", "1", "http://127.0.0.1:1/"]) == 2
    assert os.getpriority(os.PRIO_PROCESS, 0) == before


def sleepers(mark: str) -> list[psutil.Process]:
    found = []
    for proc in psutil.process_iter(["cmdline"]):
        if proc.info["cmdline"] == ["sleep", mark]:
            found.append(proc)
    return found


async def test_a_spawn_cancelled_leaves_nothing_running() -> None:
    # While its turn is awaited (the keeper busy), then while the child starts (its exec
    # held up): either way no child survives, and the keeper goes on serving. Each phase is
    # held until the test has cancelled in it, not timed to fall there.
    busy = threading.Event()
    forked_r, forked_w = os.pipe()
    go_r, go_w = os.pipe()

    def held() -> None:  # in the child, before its exec: says it exists, waits for the go
        os.write(forked_w, b"x")
        os.read(go_r, 1)

    try:
        keeper().submit(lambda: busy.wait(60))
        waiting = asyncio.create_task(spawn_kept(["sleep", "31.5"], process_group=0))
        await asyncio.sleep(0)  # its turn asked for, behind the busy keeper
        waiting.cancel()
        busy.set()
        starting = asyncio.create_task(
            spawn_kept(["sleep", "32.5"], process_group=0, preexec_fn=held)
        )
        assert await asyncio.to_thread(os.read, forked_r, 1) == b"x"
        starting.cancel()
        os.write(go_w, b"x")
        for task in (waiting, starting):
            with pytest.raises(asyncio.CancelledError):
                await task
        after = await spawn_kept(["true"], process_group=0)
        assert await after.wait() == 0
        # The child killed as it started is gone once it is reaped, which a busy machine may
        # leave for a moment after the cancel returns (seen: one still 'terminated').
        deadline = time.monotonic() + 30
        while (sleepers("31.5") or sleepers("32.5")) and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        assert sleepers("31.5") == sleepers("32.5") == []
    finally:
        busy.set()
        for fd in (forked_r, forked_w, go_r, go_w):
            os.close(fd)


async def test_a_child_must_lead_its_own_group() -> None:
    # A failed start kills the child's group: never the caller's.
    with pytest.raises(ValueError, match="process_group=0"):
        await spawn_kept(["true"])
