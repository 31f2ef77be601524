"""Shared pieces of the benchmarks: running tuibench itself as a user would."""

from __future__ import annotations

import argparse
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import orjson
import psutil

import tui_bench
from tui_bench.storage import store
from tui_bench.storage.session import Session

TUIBENCH = [sys.executable, "-m", "tui_bench.cli.main"]


class RunLeftOut(Exception):
    """A run whose figures cannot be used (invalid, failed, nothing saved): a benchmark
    says why and goes on without it."""


def tuibench_json(args: Sequence[str], tree: str | None = None) -> dict[str, Any]:
    """`tuibench run --headless --json ARGS` (from source tree `tree`, else the installed
    one): its payload; RunLeftOut when the run is invalid (it exits 1 and still reports) or
    reported nothing."""
    proc = subprocess.run(
        [*TUIBENCH, "run", "--headless", "--json", *args],
        capture_output=True,
        check=False,
        env=os.environ | tree_env(tree),
        # As from a terminal of its own: where the kernel groups scheduling by session
        # (autogroup), sharing the benchmark's would change how it competes.
        start_new_session=True,
    )
    try:
        result: dict[str, Any] = orjson.loads(proc.stdout)
    except orjson.JSONDecodeError:
        said = proc.stderr.decode(errors="replace").strip().splitlines()
        raise RunLeftOut(
            f"exit {proc.returncode}, no report: {said[-1] if said else 'nothing said'}"
        ) from None
    usable_rps(result.get("rps"), result.get("validity"))
    if proc.returncode != 0:
        raise RunLeftOut(
            f"exit {proc.returncode}: {result.get('message') or result.get('run_status')}"
        )
    return result


def usable_rps(rps: float | None, validity: Mapping[str, Any] | None) -> float:
    """A run's req/s, or RunLeftOut saying why it cannot be compared."""
    if validity and validity.get("verdict") == "invalid":
        reasons = "; ".join(r["message"] for r in validity.get("reasons") or ())
        raise RunLeftOut(f"invalid: {reasons}")
    if not rps:
        raise RunLeftOut("no req/s")
    return rps


def median(values: Sequence[float]) -> float:
    return statistics.median(values)


# The venv's `tuibench` script, as a user starts it.
TUIBENCH_SCRIPT = str(Path(sys.executable).parent / "tuibench")
POLL_S = 0.05


class Tmux:
    """One program in a detached tmux window, on a tmux server of its own (`tmux -L`, no
    config file) so that a user's tmux is never touched. Use it as a context manager: leaving
    it kills the server and whatever still runs in it."""

    def __init__(
        self,
        argv: Sequence[str],
        *,
        width: int,
        height: int,
        env: Mapping[str, str] | None = None,
        pipe_to: Path | None = None,
    ) -> None:
        self.socket = f"tuibench-{os.getpid()}-{uuid.uuid4().hex[:8]}"
        self._workdir = tempfile.TemporaryDirectory(prefix="tuibench-tmux-")
        self._status = Path(self._workdir.name) / "status"
        # A shell runs the program and keeps its exit status: tmux 3.3 now and then misses
        # the SIGCHLD of a pane's program and never reports its status.
        # COLUMNS and LINES would override the window's size: a test process may carry them in
        # its C environment (set under pytest, invisible in os.environ), and tmux passes them on.
        wrapper = f'unset COLUMNS LINES; "$@"; echo $? > {shlex.quote(str(self._status))}'
        commands = [
            # The screen stays readable after the program ends.
            *("set-option", "-g", "remain-on-exit", "on", ";"),
            # The status line would take a row of the window from the program.
            *("set-option", "-g", "status", "off", ";"),
            *("new-session", "-d", "-x", str(width), "-y", str(height)),
            *(f"-e{key}={value}" for key, value in (env or {}).items()),
            *("--", "sh", "-c", wrapper, "sh", *argv),
        ]
        if pipe_to is not None:
            # In the same command list as new-session: the pipe sees the program's first byte.
            commands += [";", "pipe-pane", "-o", f"cat >> {shlex.quote(str(pipe_to))}"]
        self._socket_path: str | None = None
        try:
            self.tmux(*commands)
            self._socket_path = self.tmux("display-message", "-p", "#{socket_path}").strip()
        except BaseException:
            self.close()
            raise

    def tmux(self, *args: str) -> str:
        return subprocess.run(
            ["tmux", "-L", self.socket, "-f", os.devnull, *args],
            capture_output=True,
            text=True,
            check=True,
        ).stdout

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p")

    def send_keys(self, *keys: str) -> None:
        self.tmux("send-keys", *keys)

    @property
    def pid(self) -> int:
        """The program's process id (a child of the pane's shell)."""
        shell = psutil.Process(int(self.tmux("display-message", "-p", "#{pane_pid}")))
        deadline = time.monotonic() + 5
        while not (children := shell.children()):
            if time.monotonic() > deadline:
                raise RuntimeError("the program did not start")
            time.sleep(POLL_S / 10)
        return int(children[0].pid)

    def exit_status(self) -> int | None:
        """The program's exit status once it has ended (128+N: killed by signal N), else None."""
        try:
            written = self._status.read_text()
        except FileNotFoundError:
            return None
        # The shell creates the file before it writes the number and its newline.
        return int(written) if written.endswith("\n") else None

    def wait_for(self, done: Callable[[str], bool], what: str, timeout_s: float = 30) -> str:
        """Polls the screen until `done(screen)`; the screen it saw last, or AssertionError."""
        deadline = time.monotonic() + timeout_s
        while True:
            screen = self.screen()
            if done(screen):
                return screen
            if time.monotonic() > deadline:
                raise AssertionError(f"no {what} after {timeout_s:g} s; the screen:\n{screen}")
            time.sleep(POLL_S)

    def wait_exit(self, timeout_s: float = 30) -> int:
        deadline = time.monotonic() + timeout_s
        while (status := self.exit_status()) is None:
            if time.monotonic() > deadline:
                raise AssertionError(f"still running after {timeout_s:g} s:\n{self.screen()}")
            time.sleep(POLL_S)
        return status

    def close(self) -> None:
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True, check=False)
        # A killed server leaves its socket file behind.
        if self._socket_path:
            Path(self._socket_path).unlink(missing_ok=True)
        self._workdir.cleanup()

    def __enter__(self) -> Tmux:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def run_over(screen: str) -> bool:
    """The live screen's footer offers to run Again and no longer to Stop: its run is over,
    and q leaves at once instead of asking first. (The first frame, while the run is
    prepared, offers Quit alone.)"""
    lines = screen.rstrip().splitlines()
    footer = lines[-1] if lines else ""
    return "Quit" in footer and "Again" in footer and "Stop" not in footer


def finish_live_run(tmux: Tmux, sessions: Path, timeout_s: float = 60) -> Session:
    """Waits for the live run in `tmux` to end, leaves its screen with q and returns the session
    it saved in `sessions` (a directory of its own), whatever its exit status (an invalid run
    exits 1); RunLeftOut when it saved none."""
    tmux.wait_for(run_over, "end of the run", timeout_s)
    tmux.send_keys("q")
    status = tmux.wait_exit(timeout_s)
    try:
        return saved_session(sessions)
    except RunLeftOut:
        shown = [line.strip() for line in tmux.screen().splitlines() if line.strip()]
        last = shown[-1] if shown else "nothing"
        raise RunLeftOut(f"exit {status}, no session saved; the screen ends: {last}") from None


def saved_session(sessions: Path) -> Session:
    """The one session saved in `sessions`; RunLeftOut when there is none."""
    saved = list(sessions.glob(f"*{store.SESSION_SUFFIX}"))
    if len(saved) != 1:
        raise RunLeftOut(f"{len(saved)} sessions saved")
    return store.load(saved[0])


def session_rps(session: Session) -> float:
    """A saved run's req/s, or RunLeftOut saying why it cannot be compared."""
    result = session.result
    return usable_rps(result.rps if result else None, session.doc.get("validity"))


def tree_env(tree: str | None) -> dict[str, str]:
    """What a start of tuibench from source tree `tree` adds to its environment (nothing
    for the installed one)."""
    return {"PYTHONPATH": tree} if tree else {}


def add_tree_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--tree",
        action="append",
        metavar="NAME=DIR",
        help="a source tree of tuibench to run, alternating with the others (repeat; "
        "default: the installed one)",
    )


def trees_of(parser: argparse.ArgumentParser, given: Sequence[str] | None) -> dict[str, str | None]:
    """Each `--tree NAME=DIR` as its directory for PYTHONPATH (the installed one: None), its
    bytecode compiled beforehand: pip compiles an installed copy, and where the environment
    asks Python to write none (PYTHONDONTWRITEBYTECODE) compiling at each start would be
    timed too."""
    if any("=" not in t for t in given or ()):
        parser.error("--tree takes NAME=DIR")
    named = (t.split("=", 1) for t in given or ["installed="])
    trees = {n: str(Path(d).resolve()) if d else None for n, d in named}
    for tree in trees.values():
        package = Path(tree) / "tui_bench" if tree else Path(tui_bench.__file__).parent
        subprocess.run([sys.executable, "-m", "compileall", "-q", str(package)], check=True)
    return trees
