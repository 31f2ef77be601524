"""What both demo servers serve, so nginx and the Python fallback answer alike."""

from __future__ import annotations

from collections.abc import Mapping
from urllib.parse import urlsplit

SMALL_BODY = b"tuibench demo target\n"

# Path -> body size; "/" is the small body.
SIZED_PATHS = {"/1k": 1024, "/16k": 16 * 1024, "/64k": 64 * 1024, "/1m": 1024 * 1024}

STATUS_PATHS = {"/404": 404, "/500": 500}

# The plain-text ports the demo line names, as the target's urls name them.
PROTOCOLS = ("h2c", "h1")


def bodies() -> dict[str, bytes]:
    """Every 200 path with its body: printable, so a curl of /1m does not wreck a terminal."""
    line = b"0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ!@#$%^&*()_+-=[]{}\n"
    served = {"/": SMALL_BODY}
    for path, size in SIZED_PATHS.items():
        served[path] = (line * (size // len(line) + 1))[:size]
    return served


def describe(backend: str, urls: Mapping[str, str]) -> str:
    """What the demo loads and where each protocol is served, in a line that fits a header
    at 80 columns: `demo: nginx h2c :41234, h1 :41235; GET / (21 B), /1k /16k /64k /1m /404
    /500`. The h1 port is named beside the loaded one, for `--h1`, wrk and ab (h2c only
    answers them with an HTTP/2 frame); the address is the loaded URL's, on the line above."""
    ports = ", ".join(f"{name} :{urlsplit(urls[name]).port}" for name in PROTOCOLS if name in urls)
    others = " ".join((*SIZED_PATHS, *STATUS_PATHS))
    return f"demo: {backend} {ports}; GET / ({len(SMALL_BODY)} B), {others}"
