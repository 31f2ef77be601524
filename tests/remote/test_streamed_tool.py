"""The program that runs a tool on another host: its frames, and the files it is given."""

from __future__ import annotations

import asyncio
import contextlib
import resource
import subprocess
import sys
from functools import partial
from pathlib import Path

import orjson

from tui_bench.engine.streamed import program_of
from tui_bench.remote.streamed_tool import read_frame
from tui_bench.runners.file_limit import files_needed
from tui_bench.runners.invocation import Invocation, build, lua_script
from tui_bench.spec import RunSpec


def frames_of(data: bytes) -> list[tuple[str, bytes]]:
    async def read() -> list[tuple[str, bytes]]:
        reader = asyncio.StreamReader()
        reader.feed_data(data)
        reader.feed_eof()
        out = []
        while (frame := await read_frame(reader)) is not None:
            out.append((frame.kind, frame.data))
        return out

    return asyncio.run(read())


def test_frames_are_read_back_and_garbage_ends_them() -> None:
    assert frames_of(b"O 3\nabcL 0\nX 2\n{}") == [("O", b"abc"), ("L", b""), ("X", b"{}")]
    assert frames_of(b"not a frame\nO 1\nx") == []


def test_local_files_become_the_program_s_own_temporary_files(tmp_path: Path) -> None:
    invocation = Invocation(
        ("stdbuf", "-oL", "h2load", f"--log-file={tmp_path}/log.tsv",
         f"--output-file={tmp_path}/s.json", "-H", f"X: --log-file={tmp_path}/log.tsv",
         "http://127.0.0.1/"),
        log_file=tmp_path / "log.tsv", json_file=tmp_path / "s.json",
    )  # fmt: skip
    argv = program_of(invocation, 0.5)
    assert argv[:2] == ["python3", "-c"]
    spec = orjson.loads(argv[3])
    assert spec["paths"] == [[3, "--log-file=", "log"], [4, "--output-file=", "json"]]
    assert spec["files"] == {"log": "", "json": ""}
    wrk = program_of(Invocation(("wrk", "-s", str(lua_script()), "http://127.0.0.1/")), 0.5)
    assert orjson.loads(wrk[3])["files"]["lua"] == lua_script().read_text()


def streamed(code: str, log: Path) -> dict[str, bytes]:
    """Run the program here on a stand-in tool (python `code`, given the log's path alone,
    not as --log-file=PATH): the bytes of each kind of frame it sent, in order."""
    tool = (sys.executable, "-c", code, f"--log-file={log}")
    argv = program_of(Invocation(tool, log_file=log), 0.2)
    spec = orjson.loads(argv[3])
    spec["paths"] = [[3, "", "log"]]
    argv[3] = orjson.dumps(spec).decode()
    # Its input stays open while the run goes: closing it means stop.
    proc = subprocess.Popen(
        [sys.executable, *argv[1:]], stdin=subprocess.PIPE, stdout=subprocess.PIPE
    )
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(b"go\n")
    proc.stdin.flush()
    out = proc.stdout.read()
    proc.stdin.close()
    assert proc.wait(timeout=60) == 0
    return joined(out)


def joined(out: bytes) -> dict[str, bytes]:
    """A stream may come in several frames (a line printed in two writes): what counts is
    the bytes of each kind, in order."""
    frames: dict[str, bytes] = {}
    for kind, data in frames_of(out):
        frames[kind] = frames.get(kind, b"") + data
    return frames


def test_the_program_streams_a_tool_and_leaves_no_file(tmp_path: Path) -> None:
    log = tmp_path / "log.tsv"
    frames = streamed(
        "import sys; open(sys.argv[1], 'a').write('1\\t200\\t3\\n'); print('done')", log
    )
    assert frames["O"] == b"done\n"
    assert frames["L"] == b"1\t200\t3\n"
    assert orjson.loads(frames["X"]) == {"code": 0}
    assert not log.exists(), "the log was a temporary file of the program's own"


# Writes 12 MiB of log, then waits (up to 30 s) for the program to have punched out what it
# sent, and prints what the log still holds on disk.
_LOG_WRITER = """
import os, sys, time
with open(sys.argv[1], "ab") as log:
    for _ in range(12):
        log.write(b"1\\t200\\t3\\n" * (1 << 17))
        log.flush()
        time.sleep(0.05)
    deadline = time.monotonic() + 30
    while os.fstat(log.fileno()).st_blocks * 512 > 4 << 20 and time.monotonic() < deadline:
        time.sleep(0.05)
    print(os.fstat(log.fileno()).st_blocks * 512)
"""


def test_the_program_gives_back_the_disk_of_the_log_it_sent(tmp_path: Path) -> None:
    frames = streamed(_LOG_WRITER, tmp_path / "log.tsv")
    assert frames["L"] == b"1\t200\t3\n" * (12 << 17)
    assert int(frames["O"]) <= 4 << 20, "what was sent is no longer on the host's disk"


def _under_limit(soft: int, hard: int) -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def with_files(connections: int, needed: int, limits: tuple[int, int]) -> tuple[int, bytes, bytes]:
    """The program run here under `limits` (soft, hard) on a stand-in tool that prints its
    own limits: its exit status, its frames' bytes and its stderr."""
    code = "import resource; print(resource.getrlimit(resource.RLIMIT_NOFILE))"
    tool = (sys.executable, "-c", code)
    invocation = Invocation(tool, connections=connections, open_files=needed)
    argv = program_of(invocation, 0.2)
    proc = subprocess.Popen(
        [sys.executable, *argv[1:]],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=partial(_under_limit, *limits),
    )
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    # Its input stays open while the tool runs: closing it means stop.
    with contextlib.suppress(BrokenPipeError):
        proc.stdin.write(b"go\n")
        proc.stdin.flush()
    out, err = proc.stdout.read(), proc.stderr.read()
    proc.stdin.close()
    return proc.wait(timeout=60), out, err


def test_a_generator_raises_its_soft_file_limit_to_what_the_tool_needs() -> None:
    code, out, _ = with_files(1000, 1024, (256, 2048))
    frames = joined(out)
    assert code == 0 and frames["O"] == b"(1024, 2048)\n", frames
    assert "H" in frames and "S" in frames


def test_a_generator_whose_hard_file_limit_is_too_low_refuses_before_any_load() -> None:
    code, out, err = with_files(3000, 3024, (256, 1024))
    # No hello: the other generators are released before any load (engine.streamed).
    assert code != 0 and out == b"", out
    assert err.decode().strip() == (
        "-c 3,000 needs about 3,024 open files and the hard limit there is 1,024: lower -c, "
        "or raise the limit (`ulimit -Hn 3024` as root, or nofile in /etc/security/limits.conf)"
    )


def test_a_run_s_invocation_says_the_files_it_needs() -> None:
    spec = RunSpec(urls=("http://127.0.0.1/",), tool="wrk", connections=3000, threads=2)
    invocation = build(spec, "wrk", "4.1.0", Path("/nonexistent"))
    assert (invocation.connections, invocation.open_files) == (3000, files_needed(spec))
