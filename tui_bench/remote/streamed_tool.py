"""A load tool run on another host, its output and request log streamed back over the ssh
connection while it runs, and nothing left behind there.

What runs there is a small program of python3's standard library (`PROGRAM`), given the
tool's argv as JSON. Its files (h2load's request log and JSON summary, wrk's Lua script, the
request body) are temporary files it unlinks at once and hands to the tool as `/dev/fd/N`: a
kill -9 of anything leaves no file. The body comes first on its input (its exact bytes, of
a length given with the argv), not in the argv (binary, and larger than an argv word may
be). It says hello, waits for `go` (so that every generator starts
together), starts the tool in a session of its own that dies with it, and sends back, as
frames `KIND LENGTH\\n` + bytes: the tool's stdout (O) and stderr (E), what was appended to
the log (L), the tool's CPU (C), its start (S), the JSON summary (J) and its exit (X).
`stop` on its input interrupts the tool (SIGINT: wrk and ab print their summary); `kill`,
or the input closing (tuibench gone, the connection dropped) stops it, SIGKILL after a grace.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import orjson

# How long the tool has to end after SIGINT before it is killed.
GRACE_S = 3.0
# A frame longer than this is not the program talking.
MAX_FRAME = 16 << 20

PROGRAM = r"""
import ctypes, json, os, select, signal, subprocess, sys, tempfile, time

spec = json.loads(sys.argv[1])
out = sys.stdout.buffer
stdin = sys.stdin.buffer.fileno()
signalled = []
for number in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
    signal.signal(number, lambda n, f: signalled.append(n))

def frame(kind, data):
    out.write(kind + b" %d\n" % len(data) + data)
    out.flush()

def send(kind, obj):
    frame(kind, json.dumps(obj).encode())

files = {}
for name, text in spec["files"].items():
    files[name] = tempfile.TemporaryFile()
    if text:
        files[name].write(text.encode())
        files[name].flush()
for name, size in spec["fed"].items():
    files[name] = tempfile.TemporaryFile()
    while size:
        data = os.read(stdin, min(size, 1 << 20))
        if not data:
            sys.exit(0)
        files[name].write(data)
        size -= len(data)
    files[name].flush()
# A connection is a file: the soft limit raised as far as the tool needs, where the hard one
# allows; else refused before any load, the others released.
nofile = spec.get("nofile")
if nofile:
    import resource
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < nofile["needed"]:
        if hard != resource.RLIM_INFINITY and hard < nofile["needed"]:
            sys.stderr.write(nofile["refusal"].replace("HARD", format(hard, ",")) + "\n")
            sys.exit(3)
        resource.setrlimit(resource.RLIMIT_NOFILE, (nofile["needed"], hard))
argv = list(spec["argv"])
for index, prefix, name in spec["paths"]:
    argv[index] = prefix + "/dev/fd/%d" % files[name].fileno()

send(b"H", {"t": time.time()})
if os.read(stdin, 64) != b"go\n":
    sys.exit(0)

def die_with_me():
    ctypes.CDLL(None).prctl(1, signal.SIGKILL)

try:
    proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, pass_fds=[f.fileno() for f in files.values()],
                            start_new_session=True, preexec_fn=die_with_me)
except OSError as exc:
    send(b"X", {"code": 127, "error": str(exc)})
    sys.exit(0)
send(b"S", {"t": time.time(), "pid": proc.pid, "argv": argv})
kill_at = [None]

def halt(now, grace):
    if kill_at[0] is None or now + grace < kill_at[0]:
        try:
            os.killpg(proc.pid, signal.SIGINT if grace else signal.SIGKILL)
        except OSError:
            pass
        kill_at[0] = now + grace

offset = [0]
# What was sent is punched out of the log (FALLOC_FL_PUNCH_HOLE | KEEP_SIZE), 4 MiB at a
# time: the host keeps a few MiB of it however long the run; None where it cannot be.
punched = [0]
def punch(fd):
    end = offset[0] - offset[0] % 4096
    if punched[0] is None or end - punched[0] < 4 << 20:
        return
    libc = ctypes.CDLL(None)
    call = getattr(libc, "fallocate64", None) or getattr(libc, "fallocate", None)
    if call is not None and call(fd, 3, ctypes.c_int64(punched[0]),
                                 ctypes.c_int64(end - punched[0])) == 0:
        punched[0] = end
    else:
        punched[0] = None

def send_log():
    log = files.get("log")
    while log is not None:
        data = os.pread(log.fileno(), 1 << 20, offset[0])
        if not data:
            return
        offset[0] += len(data)
        frame(b"L", data)
        punch(log.fileno())

tick = os.sysconf("SC_CLK_TCK")
threads = {}
def cpu(interval, report=True):
    now = {}
    for task in os.listdir("/proc/%d/task" % proc.pid):
        try:
            with open("/proc/%d/task/%s/stat" % (proc.pid, task)) as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
            now[task] = int(fields[11]) + int(fields[12])
        except (OSError, IndexError, ValueError):
            pass
    used = [now[t] - threads.get(t, 0) for t in now]
    threads.clear()
    threads.update(now)
    scale = 100.0 / tick / interval
    # No thread read (the tool gone, /proc refused): unknown, not 0 %.
    if report and used:
        busiest = max(used, default=0) * scale
        send(b"C", {"t": time.time(), "cpu": sum(used) * scale, "max": busiest})

streams = {proc.stdout.fileno(): b"O", proc.stderr.fileno(): b"E"}
watch = [stdin, *streams]
interval = float(spec["interval"])
next_cpu = time.monotonic() + interval
try:
    # The first reading is the baseline: a figure from it would say 0 %.
    cpu(interval, report=False)
    while streams or proc.poll() is None:
        now = time.monotonic()
        if signalled:
            halt(now, spec["grace"])
        if kill_at[0] is not None and now > kill_at[0]:
            halt(now, 0)
        for fd in select.select(watch, [], [], 0.1)[0]:
            data = os.read(fd, 65536)
            if fd == stdin:
                if not data:
                    watch.remove(stdin)
                halt(now, 0 if b"kill" in data else spec["grace"])
            elif data:
                frame(streams[fd], data)
            else:
                del streams[fd]
                watch.remove(fd)
        send_log()
        if now >= next_cpu and proc.poll() is None:
            next_cpu += interval
            cpu(interval)
    code = proc.wait()
    send_log()
    if "json" in files:
        frame(b"J", os.pread(files["json"].fileno(), 1 << 24, 0))
    send(b"X", {"code": code})
except OSError:
    halt(time.monotonic(), 0)
"""


def program_argv(
    argv: Sequence[str],
    files: Mapping[str, str],
    paths: Sequence[tuple[int, str, str]],
    interval_s: float,
    fed: Mapping[str, int] | None = None,
    nofile: Mapping[str, object] | None = None,
) -> list[str]:
    """`python3 -c PROGRAM SPEC`: run `argv` there with `files` (name: content) made as
    temporary files, and `fed` ones (name: size) read from its input first, in order; each of
    `paths` (index, prefix, name) makes `argv[index]` the prefix and that file's `/dev/fd/N`;
    `nofile` ({"needed": N, "refusal": TEXT}) the open files the tool needs, and what to say
    where the hard limit (HARD in TEXT) is below them."""
    spec = {
        "argv": list(argv),
        "files": dict(files),
        "fed": dict(fed or {}),
        "paths": [list(p) for p in paths],
        "interval": interval_s,
        "grace": GRACE_S,
        "nofile": dict(nofile) if nofile else None,
    }
    return ["python3", "-c", PROGRAM, orjson.dumps(spec).decode()]


@dataclass(frozen=True)
class Frame:
    kind: str
    data: bytes

    def json(self) -> dict[str, Any]:
        try:
            value = orjson.loads(self.data)
        except orjson.JSONDecodeError:
            return {}
        return value if isinstance(value, dict) else {}


async def read_frame(reader: asyncio.StreamReader) -> Frame | None:
    """The next frame; None at the end of the stream or when it is not a frame."""
    try:
        header = await reader.readline()
        kind, _, length = header.decode("ascii").partition(" ")
        size = int(length)
        if not 0 <= size <= MAX_FRAME or len(kind) != 1:
            return None
        return Frame(kind, await reader.readexactly(size))
    except (ValueError, UnicodeDecodeError, asyncio.IncompleteReadError):
        return None
