"""Processes tuibench starts (a load generator, an ssh client) die with it, and are stopped
as a group."""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal


def die_with_parent() -> None:
    """For `preexec_fn`: if tuibench is killed outright, the kernel stops the child too,
    instead of leaving a tool loading the server or a connection open to another host."""
    PR_SET_PDEATHSIG = 1
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


def signal_group(pid: int, sig: int) -> None:
    """`sig` to the process group `pid` leads: a child started in a group (or session) of its
    own, and what it started. Gone or no longer ours, nothing is sent."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, sig)
