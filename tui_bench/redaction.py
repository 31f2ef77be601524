"""Secrets kept out of everything tuibench saves, shows or exports.

A secret-looking value is replaced by `redacted:` and a fingerprint of 8 hex digits:

- the value of a header whose name says it holds a credential (Authorization,
  Proxy-Authorization, Cookie, X-API-Key and the like: see SECRET_NAME), wherever a
  `Name: value` appears: a spec's headers, an argv word, a line of tool output;
- the password of a URL (`http://user:PASSWORD@host/`);
- the value of a query parameter with such a name (`?api_key=VALUE`).

The fingerprint is the start of an HMAC-SHA256 of the value, keyed with a random key kept
in the user's config dir (fingerprint.key, 0600). Equal values give equal fingerprints, so a
comparison can still say "same header, other value"; a plain hash would let anyone holding a
session file test guesses of a short password against it, the keyed one does not. The key
is per account: sessions made elsewhere compare equal only if that key was copied along.

Redacting is idempotent: a value that already is a `redacted:` mark is left as it is.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import re
import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tui_bench.errors import UsageError

MARK = "redacted:"
FINGERPRINT_DIGITS = 8
KEY_FILE = "fingerprint.key"
_KEY_BYTES = 32

# Names of headers and query parameters whose value is a credential: Authorization,
# Proxy-Authorization, Cookie, X-Auth-Token, X-API-Key, api_key, client-secret, password ...
_NAME = (
    r"[A-Za-z0-9_-]*(?:auth|cookie|token|secret|passw|credential|api[-_]?key)[A-Za-z0-9_-]*"
    r"|[A-Za-z0-9_-]*[-_]key"
)
SECRET_NAME = re.compile(_NAME, re.IGNORECASE)
_MARKED = re.compile(rf"{MARK}[0-9a-f]{{{FINGERPRINT_DIGITS}}}")
# `Name: value`: the value runs to the end of the line or to a quote (an argv word quoted in
# a command line, a string in JSON text).
_HEADER = re.compile(
    rf"(?<![A-Za-z0-9_-])(?P<name>{_NAME})(?P<sep>[ \t]*:[ \t]*)(?P<value>[^\r\n\"']*)",
    re.IGNORECASE,
)
_USERINFO = re.compile(
    r"(?P<head>[A-Za-z][A-Za-z0-9+.-]*://[^\s/?#@:'\"]*:)(?P<value>[^\s/?#@'\"]*)(?P<at>@)"
)
_QUERY = re.compile(r"(?P<head>[?&;](?P<name>[A-Za-z0-9_.-]+)=)(?P<value>[^&#\s'\"]*)")
# Text without any of these holds nothing to redact: a look far cheaper than the patterns
# above (most text, and most sessions, hold none).
_SUSPECT = re.compile(
    r"auth|cookie|token|secret|passw|credential|api|key|://[^\s/?#@'\"]*:[^\s/?#@'\"]*@"
)

_keys: dict[Path, bytes] = {}


def key_path() -> Path:
    config_home = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(config_home) / "tuibench" / KEY_FILE


def _key() -> bytes:
    path = key_path()
    key = _keys.get(path)
    if key is None:
        key = _keys[path] = _read_or_make_key(path)
    return key


def _read_or_make_key(path: Path) -> bytes:
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            key = path.read_bytes()
            if len(key) >= _KEY_BYTES // 2:
                return key
            raise OSError(f"{path}: too short") from None
        key = secrets.token_bytes(_KEY_BYTES)
        with os.fdopen(fd, "wb") as handle:
            handle.write(key)
        return key
    except OSError:
        # Not writable (a read-only home): fingerprints hold within this process only.
        return secrets.token_bytes(_KEY_BYTES)


def fingerprint(value: str) -> str:
    digest = hmac.new(_key(), value.encode(), hashlib.sha256).hexdigest()
    return digest[:FINGERPRINT_DIGITS]


def mark(value: str) -> str:
    """`value` as it is kept: its redacted mark (an existing mark stays as it is)."""
    value = value.strip()
    if _MARKED.fullmatch(value):
        return value
    return f"{MARK}{fingerprint(value)}"


def is_secret_name(name: str) -> bool:
    return bool(SECRET_NAME.fullmatch(name))


def _suspect(text: str) -> bool:
    # On the case-folded text: a case-insensitive pattern is several times slower.
    return _SUSPECT.search(text.lower()) is not None


def redact_text(text: str) -> str:
    """`text` with every secret-looking value replaced by its mark."""
    if not _suspect(text):
        return text
    if ":" in text:
        text = _HEADER.sub(_header, text)
        if "@" in text:
            text = _USERINFO.sub(_value, text)
    if "=" in text:
        text = _QUERY.sub(_query, text)
    return text


def _header(match: re.Match[str]) -> str:
    value = match["value"]
    # Already marked (maybe with more words after it, as in an argv joined into a line).
    if not value.strip() or _MARKED.match(value):
        return match[0]
    # The spaces after the value (before a closing quote) stay where they were.
    kept = value[len(value.rstrip()) :]
    return f"{match['name']}{match['sep']}{mark(value)}{kept}"


def _value(match: re.Match[str]) -> str:
    if not match["value"]:
        return match[0]
    return f"{match['head']}{mark(match['value'])}{match['at']}"


def _query(match: re.Match[str]) -> str:
    if not match["value"] or not is_secret_name(match["name"]):
        return match[0]
    return f"{match['head']}{mark(match['value'])}"


def redact(value: Any) -> Any:
    """A JSON-like value (dicts, lists, strings, numbers) with every string redacted; keys
    are names, not values, and are kept."""
    return _strings(value, redact_text)


def redact_document(doc: Any, text: str) -> Any:
    """`redact(doc)` for a document read from JSON `text`: a look over the text first spares
    the walk over every value of the (many) documents that hold no secret."""
    return redact(doc) if _suspect(text) else doc


def stand_in(value: Any) -> Any:
    """A JSON-like value with every mark replaced by a stand-in secret: to check whether a
    request saved without its secrets is good but for them."""
    return _strings(value, lambda text: _MARKED.sub("secret", text))


def _strings(value: Any, change: Callable[[str], str]) -> Any:
    if isinstance(value, str):
        return change(value)
    if value is None or isinstance(value, int | float):
        # Most of a session: tested first, the Mapping check below is slow.
        return value
    if isinstance(value, Mapping):
        return {key: _strings(item, change) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_strings(item, change) for item in value]
    return value


@dataclass(frozen=True)
class Redacted:
    """A redacted value found where a real one is needed: what it was (`Authorization`,
    `password of http://user@host/`) and its mark."""

    where: str
    mark: str

    @property
    def fingerprint(self) -> str:
        return self.mark.removeprefix(MARK)


def redacted_in(texts: Sequence[str]) -> list[Redacted]:
    """The redacted values in `texts` (headers, URLs), each mark once, in order."""
    found: dict[str, Redacted] = {}
    for text in texts:
        for match in _HEADER.finditer(text):
            marked = _MARKED.match(match["value"])
            if marked:
                found.setdefault(marked[0], Redacted(match["name"], marked[0]))
        for match in _USERINFO.finditer(text):
            if _MARKED.fullmatch(match["value"]):
                where = f"password in {_without_password(match[0])}"
                found.setdefault(match["value"], Redacted(where, match["value"]))
        for match in _QUERY.finditer(text):
            if _MARKED.fullmatch(match["value"]):
                found.setdefault(match["value"], Redacted(match["name"], match["value"]))
    return list(found.values())


def _without_password(userinfo: str) -> str:
    head = _USERINFO.match(userinfo)
    return f"{head['head'][:-1]}@…" if head else userinfo


def check_no_redacted(texts: Sequence[str]) -> None:
    """UsageError when a redacted value would be sent in place of the secret it stands for
    (a run again from a saved session, or its argv pasted back)."""
    missing = redacted_in(texts)
    if missing:
        first = missing[0]
        raise UsageError(
            f"{first.where} is {first.mark}, a value saved without its secret; "
            "give the real value again"
        )


def fill_in(text: str, values: Mapping[str, str]) -> str:
    """`text` with each mark of `values` replaced by the value the user gave for it."""
    return _MARKED.sub(lambda m: values.get(m[0], m[0]), text)
