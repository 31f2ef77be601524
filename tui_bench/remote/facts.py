"""What `tuibench doctor --host` judges, read on another host in one SSH round trip.

The program run there (python3's standard library only) prints one JSON object: each tool's
path and the output of its version flag, the open-files limits, the kernel knobs, the CPU
governors and the CPU count. The checks themselves stay here (doctor.py), the same for both.
"""

from __future__ import annotations

import subprocess
from collections.abc import Mapping, Sequence
from typing import Any

import orjson

from tui_bench.errors import UsageError
from tui_bench.remote.ssh import SSH_FAILED, SshHost, failure

TIMEOUT_S = 30.0

PROGRAM = r"""
import glob, json, os, resource, shutil, subprocess, sys

def version(path, args):
    try:
        done = subprocess.run([path] + args, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, timeout=2)
        return done.stdout.decode("utf-8", "replace")
    except (OSError, subprocess.TimeoutExpired):
        return ""

def text(path):
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return None

wanted = json.loads(sys.argv[1])
tools = {}
for name, args in wanted["tools"].items():
    path = shutil.which(name)
    tools[name] = [path, version(path, args)] if path else None
files = {p: t for p in wanted["files"] for t in [text(p)] if t is not None}
governors = [t for p in sorted(glob.glob(wanted["governors"])) for t in [text(p)] if t]
print(json.dumps({"tools": tools, "nofile": list(resource.getrlimit(resource.RLIMIT_NOFILE)),
                  "files": files, "governors": governors, "cpus": os.cpu_count() or 1}))
"""


def read_facts(
    host: SshHost,
    tools: Mapping[str, Sequence[str]],
    files: Sequence[str],
    governors: str,
) -> dict[str, Any]:
    """The facts of `host`; UsageError (one line, naming the host) when it cannot tell."""
    wanted = orjson.dumps({"tools": tools, "files": files, "governors": governors}).decode()
    try:
        done = subprocess.run(
            host.argv(["python3", "-c", PROGRAM, wanted]),
            stdin=subprocess.DEVNULL,
            capture_output=True,
            timeout=TIMEOUT_S,
            check=False,
        )
    except subprocess.TimeoutExpired:
        raise UsageError(f"{host}: no answer within {TIMEOUT_S:g} s") from None
    stderr = done.stderr.decode(errors="replace")
    if done.returncode == SSH_FAILED or done.returncode < 0:
        raise UsageError(failure(host, stderr, done.returncode))
    if done.returncode == 127:
        raise UsageError(f"{host}: python3 is not installed there (Debian: python3)")
    try:
        facts = orjson.loads(done.stdout)
    except orjson.JSONDecodeError:
        raise UsageError(f"{host}: {stderr.strip() or 'no facts came back'}") from None
    if not isinstance(facts, dict):
        raise UsageError(f"{host}: no facts came back")
    return facts
