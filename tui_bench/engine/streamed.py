"""A generator on another host as the controller sees it: the ssh client runs the program
of remote/streamed_tool.py there, and its frames become the tool's stdout and stderr, its
request log, its CPU and its exit status here."""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from dataclasses import dataclass, field, replace
from pathlib import Path

from tui_bench.engine.tool_start import Launched, StartGate
from tui_bench.errors import UsageError
from tui_bench.remote.server import spawn_ssh
from tui_bench.remote.ssh import SSH_FAILED, SshHost, failure
from tui_bench.remote.streamed_tool import GRACE_S, Frame, program_argv, read_frame
from tui_bench.runners.file_limit import refusal
from tui_bench.runners.invocation import Invocation, lua_script
from tui_bench.sampling.samples import ResourceSample

HELLO_TIMEOUT_S = 20.0
# A CPU reading older than this many intervals is not the tool's present state.
STALE_READINGS = 3


class LogBuffer:
    """The request log as it comes in frames: appended on the event loop, read by the
    worker thread that feeds the log ingest."""

    def __init__(self) -> None:
        self._chunks: list[bytes] = []
        self._lock = threading.Lock()

    def append(self, data: bytes) -> None:
        with self._lock:
            self._chunks.append(data)

    def read_new(self) -> bytes:
        with self._lock:
            data = b"".join(self._chunks)
            self._chunks.clear()
        return data

    def room_left(self) -> int | None:
        # The log is written on the generator's host, whose room is not told here.
        return None

    def close(self) -> None:
        self.read_new()


@dataclass
class StreamedProcess:
    """The remote tool as a process: its streams and exit status, as the frames say."""

    ssh: asyncio.subprocess.Process
    stdout: asyncio.StreamReader = field(default_factory=asyncio.StreamReader)
    stderr: asyncio.StreamReader = field(default_factory=asyncio.StreamReader)
    returncode: int | None = None
    exited_at: float | None = None
    done: asyncio.Event = field(default_factory=asyncio.Event)

    @property
    def pid(self) -> int:
        return self.ssh.pid

    async def wait(self) -> int:
        await self.done.wait()
        assert self.returncode is not None
        return self.returncode


@dataclass
class StreamedTool:
    """A `Launched` tool on another host."""

    host: SshHost
    process: StreamedProcess
    origin: tuple[float, int]
    clock_offset_us: int
    interval_s: float
    log: LogBuffer = field(default_factory=LogBuffer)
    local: bool = False
    # When the tool started there, on our clock; why the connection was lost, if it was.
    started_wall_s: float | None = None
    # The tool's argv as it ran there (its files are /dev/fd/N there).
    argv_there: list[str] | None = None
    lost: str | None = None
    # Where the controller reads h2load's JSON summary (it comes in the last frames).
    json_file: Path | None = None
    bytes_in: int = 0
    _cpu: tuple[float, float, float] | None = None
    _reader: asyncio.Task[None] | None = None

    def start_reading(self) -> None:
        self._reader = asyncio.create_task(self._read())

    def interrupt(self) -> None:
        self._tell(b"stop\n")

    def kill(self) -> None:
        self._tell(b"kill\n")
        # The program kills the tool at once; the connection goes if it does not follow.
        asyncio.get_running_loop().call_later(GRACE_S, self._kill_ssh)

    def _kill_ssh(self) -> None:
        if self.process.ssh.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                self.process.ssh.kill()

    def _tell(self, line: bytes) -> None:
        stdin = self.process.ssh.stdin
        if stdin is not None and not stdin.is_closing():
            stdin.write(line)

    def with_client(self, sample: ResourceSample) -> ResourceSample:
        reading = self._cpu
        fresh = reading is not None and time.time() - reading[0] <= STALE_READINGS * self.interval_s
        if reading is None or not fresh:
            return replace(sample, client_cpu_pct=None, client_thread_max_pct=None)
        return replace(sample, client_cpu_pct=reading[1], client_thread_max_pct=reading[2])

    async def _read(self) -> None:
        proc = self.process
        assert proc.ssh.stdout is not None
        code: int | None = None
        while (frame := await read_frame(proc.ssh.stdout)) is not None:
            self.bytes_in += len(frame.data) + 8
            code = self._on(frame, code)
        proc.stdout.feed_eof()
        proc.stderr.feed_eof()
        ssh_code = await proc.ssh.wait()
        if code is None:
            stderr = b""
            if proc.ssh.stderr is not None:
                stderr = await proc.ssh.stderr.read()
            self.lost = (
                await asyncio.to_thread(
                    failure, self.host, stderr.decode(errors="replace"), ssh_code
                )
                if ssh_code == SSH_FAILED and stderr.strip()
                else f"{self.host}: the connection to the generator was lost"
            )
            code = SSH_FAILED
        proc.returncode, proc.exited_at = code, time.monotonic()
        proc.done.set()

    def _on(self, frame: Frame, code: int | None) -> int | None:
        proc = self.process
        if frame.kind == "O":
            proc.stdout.feed_data(frame.data)
        elif frame.kind == "E":
            proc.stderr.feed_data(frame.data)
        elif frame.kind == "L":
            self.log.append(frame.data)
        elif frame.kind == "C":
            data = frame.json()
            with contextlib.suppress(KeyError, TypeError, ValueError):
                wall = float(data["t"]) - self.clock_offset_us / 1e6
                self._cpu = (wall, float(data["cpu"]), float(data["max"]))
        elif frame.kind == "S":
            started = frame.json()
            with contextlib.suppress(KeyError, TypeError, ValueError):
                self.started_wall_s = float(started["t"]) - self.clock_offset_us / 1e6
                self.argv_there = [str(arg) for arg in started["argv"]]
        elif frame.kind == "J" and self.json_file is not None:
            # A few kB, once, as the tool ends.
            self.json_file.write_bytes(frame.data)
        elif frame.kind == "X":
            data = frame.json()
            if data.get("error"):
                proc.stderr.feed_data(f"{data['error']}\n".encode())
            return int(data.get("code", SSH_FAILED))
        return code

    @property
    def start_skew_s(self) -> float | None:
        """How long after the shared start the tool started, on our clock."""
        if self.started_wall_s is None:
            return None
        return self.started_wall_s - self.origin[1] / 1e6


@dataclass
class StreamedLauncher:
    host: SshHost
    gate: StartGate
    interval_s: float
    launched: StreamedTool | None = None

    async def launch(self, invocation: Invocation) -> Launched:
        ssh = await spawn_ssh(
            *self.host.argv(program_of(invocation, self.interval_s)),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        if invocation.body is not None:
            assert ssh.stdin is not None
            # Flushed as the program reads it, before it says hello.
            ssh.stdin.write(invocation.body)
        try:
            offset_us = await asyncio.wait_for(self._hello(ssh), HELLO_TIMEOUT_S)
        except (TimeoutError, UsageError) as exc:
            failed = exc if isinstance(exc, UsageError) else UsageError(f"{self.host}: no answer")
            self.gate.cancel(failed)
            with contextlib.suppress(ProcessLookupError):
                ssh.kill()
            await ssh.wait()
            raise failed from None
        try:
            origin = await self.gate.ready()
        except UsageError:
            with contextlib.suppress(ProcessLookupError):
                ssh.kill()
            await ssh.wait()
            raise
        assert ssh.stdin is not None
        ssh.stdin.write(b"go\n")
        tool = self.launched = StreamedTool(
            self.host,
            StreamedProcess(ssh),
            origin,
            offset_us,
            self.interval_s,
            json_file=invocation.json_file,
        )
        tool.start_reading()
        return tool

    async def _hello(self, ssh: asyncio.subprocess.Process) -> int:
        """The remote wall clock minus ours, in µs, from the program's first frame (good to
        the one-way latency of the connection)."""
        assert ssh.stdout is not None
        frame = await read_frame(ssh.stdout)
        came = time.time()
        if frame is None or frame.kind != "H":
            stderr = b""
            if ssh.stderr is not None:
                stderr = await ssh.stderr.read()
            code = await ssh.wait()
            text = stderr.decode(errors="replace")
            if code == 127 or "python3: not found" in text or "python3: command not found" in text:
                raise UsageError(f"{self.host}: python3 is not installed there (Debian: python3)")
            raise UsageError(await asyncio.to_thread(failure, self.host, text, code))
        return round((float(frame.json().get("t", came)) - came) * 1e6)


def program_of(invocation: Invocation, interval_s: float) -> list[str]:
    """The program's argv for `invocation`: its files here (the request log, the JSON
    summary) become temporary files there, wrk's Lua script travels with the argv, the
    body on the program's input."""
    files: dict[str, str] = {}
    fed: dict[str, int] = {}
    paths: list[tuple[int, str, str]] = []
    body = str(invocation.body_file)
    lua = str(lua_script())
    named = {
        f"--log-file={invocation.log_file}": ("--log-file=", "log"),
        f"--output-file={invocation.json_file}": ("--output-file=", "json"),
    }
    for index, arg in enumerate(invocation.argv):
        if arg == lua:
            files["lua"] = Path(lua).read_text()
            paths.append((index, "", "lua"))
        elif arg == body and invocation.body is not None and index > 0:
            fed["body"] = len(invocation.body)
            paths.append((index, "", "body"))
        elif arg in named and index > 0:
            prefix, name = named[arg]
            files[name] = ""
            paths.append((index, prefix, name))
    nofile = None
    if invocation.connections is not None and invocation.open_files is not None:
        said = refusal(invocation.connections, invocation.open_files, "HARD", " there")
        nofile = {"needed": invocation.open_files, "refusal": said}
    return program_argv(invocation.argv, files, paths, interval_s, fed, nofile)
