"""What both demo servers serve, so nginx and the Python fallback answer alike."""

from __future__ import annotations

from urllib.parse import urlsplit

SMALL_BODY = b"tuibench demo target\n"

# Path -> body size; "/" is the small body.
SIZED_PATHS = {"/1k": 1024, "/16k": 16 * 1024, "/64k": 64 * 1024, "/1m": 1024 * 1024}

STATUS_PATHS = {"/404": 404, "/500": 500}


def bodies() -> dict[str, bytes]:
    """Every 200 path with its body: printable, so a curl of /1m does not wreck a terminal."""
    line = b"0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ!@#$%^&*()_+-=[]{}\n"
    served = {"/": SMALL_BODY}
    for path, size in SIZED_PATHS.items():
        served[path] = (line * (size // len(line) + 1))[:size]
    return served


def describe(backend: str, url: str) -> str:
    """What the demo loads, in a line that fits 80 columns: `demo: nginx 127.0.0.1:41234,
    GET / (21 B); also /1k /16k /64k /1m /404 /500`."""
    parts = urlsplit(url)
    others = " ".join((*SIZED_PATHS, *STATUS_PATHS))
    return (
        f"demo: {backend} {parts.netloc}, GET {parts.path or '/'} ({len(SMALL_BODY)} B); "
        f"also {others}"
    )
