"""A request body as the user gives it (`--body FILE`, `--body @-`): read once, bounded, and
described by what a session may keep of it: its size and a digest, never its bytes.

The digest is a SHA-256 of the bytes; a body that looks like it holds a credential (a
`password`, `token`, `api_key` … field) is kept as a header holding one is: as a keyed
fingerprint (`redacted:…`), which a plain hash of a short secret would not be.
"""

from __future__ import annotations

import hashlib
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

from tui_bench.errors import UsageError
from tui_bench.redaction import MARK, fingerprint, is_secret_name

# `--body @-` reads standard input.
STDIN = "@-"
# The largest body sent. Every tool holds it in memory (wrk once per thread), and it travels
# to each generator host over its SSH connection: a few MiB are what API payloads are.
MAX_BODY_BYTES = 8 * 1024 * 1024
MAX_BODY_TEXT = "8 MiB"
# A body whose type cannot be told from its file name.
DEFAULT_CONTENT_TYPE = "application/octet-stream"
# Only where a name says it plainly; the system's mime.types would make the same flags send
# other headers on other machines.
CONTENT_TYPES = {
    ".json": "application/json",
    ".ndjson": "application/x-ndjson",
    ".jsonl": "application/x-ndjson",
    ".xml": "application/xml",
    ".yaml": "application/yaml",
    ".yml": "application/yaml",
    ".txt": "text/plain",
    ".csv": "text/csv",
    ".html": "text/html",
    ".htm": "text/html",
    ".form": "application/x-www-form-urlencoded",
    ".pb": "application/x-protobuf",
    ".bin": DEFAULT_CONTENT_TYPE,
}
# `"password": "…"`, `token=…`, `<api_key>…`: a field name, then what opens its value.
_FIELD = re.compile(rb"([A-Za-z0-9_-]{1,64})[\"']?\s*(?:[:=]|>)")
# The part of a body looked at for such a name (a credential sits near the top of a payload).
_LOOKED_AT = 1 << 20


@dataclass(frozen=True)
class Body:
    """The bytes to send and where they came from (a path as typed, or `@-`)."""

    source: str
    data: bytes = field(repr=False)

    @property
    def size(self) -> int:
        return len(self.data)

    @property
    def digest(self) -> str:
        """What a session keeps to tell two bodies apart: the SHA-256, or a fingerprint."""
        if looks_secret(self.data):
            return MARK + fingerprint(self.data.decode("latin-1"))
        return hashlib.sha256(self.data).hexdigest()

    @property
    def content_type(self) -> str:
        """As the file's name says it, else application/octet-stream."""
        return content_type_for(self.source) or DEFAULT_CONTENT_TYPE


def content_type_for(source: str) -> str | None:
    """The content type a file name says plainly; None for standard input or an unknown one."""
    if source == STDIN:
        return None
    return CONTENT_TYPES.get(Path(source).suffix.lower())


def looks_secret(data: bytes) -> bool:
    return any(is_secret_name(m[1].decode()) for m in _FIELD.finditer(data, 0, _LOOKED_AT))


def too_large(source: str, size: int | str) -> UsageError:
    shown = f"{size:,} bytes" if isinstance(size, int) else size
    return UsageError(
        f"--body {source} is {shown}: at most {MAX_BODY_BYTES:,} bytes ({MAX_BODY_TEXT}) are sent"
    )


def read_body(source: str, stdin: BinaryIO | None = None) -> Body:
    """`source` read once: a file, or standard input for `@-`; UsageError for one that cannot
    be read or is larger than MAX_BODY_BYTES (said before reading it all)."""
    if source == STDIN:
        stream = stdin if stdin is not None else sys.stdin.buffer
        data = stream.read(MAX_BODY_BYTES + 1)
        if len(data) > MAX_BODY_BYTES:
            raise too_large(source, f"more than {MAX_BODY_BYTES:,} bytes")
        return Body(source, data)
    path = Path(source)
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_BODY_BYTES + 1)
            if len(data) > MAX_BODY_BYTES:
                raise too_large(source, path.stat().st_size)
    except OSError as exc:
        raise UsageError(f"--body {source}: {exc.strerror or exc}") from None
    return Body(source, data)
