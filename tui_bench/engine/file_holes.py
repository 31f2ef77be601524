"""Giving back the disk a file's read part holds, while another process keeps appending to
it: `fallocate(FALLOC_FL_PUNCH_HOLE)` frees the blocks of a range (ext4, xfs, btrfs and
tmpfs support it); the file keeps its size, the range reads as zeros. A FIFO would do the
same without the call, but a reader that falls behind would then stall the tool's writes
(DESIGN.md)."""

from __future__ import annotations

import ctypes
import os

_KEEP_SIZE = 0x01
_PUNCH_HOLE = 0x02
# What is punched at once: small enough that a run's file holds at most this much read
# data, large enough that the call is rare (once per 4 MiB of log, ~160k requests).
STEP = 4 << 20
_BLOCK = 4096

_libc = ctypes.CDLL(None, use_errno=True)
# The 64-bit offsets' entry point where there is one (a 32-bit system's `fallocate` takes
# 32-bit offsets); none on a C library without it.
_fallocate = getattr(_libc, "fallocate64", None) or getattr(_libc, "fallocate", None)
if _fallocate is not None:
    _fallocate.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_int64, ctypes.c_int64]
    _fallocate.restype = ctypes.c_int


def punch_hole(fd: int, offset: int, length: int) -> bool:
    """Free the blocks of `offset`..`offset + length`; False where the file system or the C
    library cannot (the file then keeps them, as it did before)."""
    if _fallocate is None:
        return False
    done: int = _fallocate(fd, _PUNCH_HOLE | _KEEP_SIZE, offset, length)
    return done == 0


class ReadHoles:
    """Punches out what has been read of a file, STEP at a time, whole blocks only."""

    def __init__(self) -> None:
        self._punched = 0
        self._works = True

    def stop(self) -> None:
        """Punch nothing more: the file is kept whole."""
        self._works = False

    def read_to(self, fd: int, offset: int) -> None:
        """`offset` bytes of the file have been read and are no longer needed."""
        end = offset - offset % _BLOCK
        if not self._works or end - self._punched < STEP:
            return
        if punch_hole(fd, self._punched, end - self._punched):
            self._punched = end
        else:
            self._works = False


def allocated_bytes(path: str | os.PathLike[str]) -> int:
    """What a file holds on its file system (holes excluded), not its apparent size."""
    return os.stat(path).st_blocks * 512
