"""Processes tuibench starts (a load generator, an ssh client) die with it."""

from __future__ import annotations

import ctypes
import signal


def die_with_parent() -> None:
    """For `preexec_fn`: if tuibench is killed outright, the kernel stops the child too,
    instead of leaving a tool loading the server or a connection open to another host."""
    PR_SET_PDEATHSIG = 1
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
