"""Secrets kept out of everything tuibench saves, shows or exports.

A secret-looking value is replaced by `redacted:` and a fingerprint of 8 hex digits:

- the value of a header whose name says it holds a credential (Authorization,
  Proxy-Authorization, Cookie, X-API-Key and the like: see _SECRET_WORDS), wherever a
  `Name: value` appears: a spec's headers, an argv word, a line of tool output;
- the password of a URL (`http://user:PASSWORD@host/`), and of a host named the way ab
  prints one, without its scheme (`user:PASSWORD@host`);
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
import string
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tui_bench.errors import UsageError

MARK = "redacted:"
# The version of what is redacted: a session redacted by older rules is redacted again.
RULES = 2
FINGERPRINT_DIGITS = 8
KEY_FILE = "fingerprint.key"
_KEY_BYTES = 32

# A header's or query parameter's value is a credential when a word of its name says so
# (words split at `-`, `_` and changes of case): Authorization, Proxy-Authorization, Cookie,
# X-Auth-Token, X-API-Key, apiKey, client_secret, password. Words, not substrings: `:authority`,
# `Keep-Alive` and `monkey` are not credentials.
_SECRET_WORDS = frozenset(
    {
        "auth", "authorization", "authentication", "authenticate", "oauth", "bearer",
        "cookie", "token", "secret", "password", "passwd", "passphrase", "pwd",
        "credential", "credentials", "apikey",
    }
)  # fmt: skip
_NAME_WORD = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")
_MARKED = re.compile(rf"{MARK}[0-9a-f]{{{FINGERPRINT_DIGITS}}}")
# Every pattern below starts only where a word starts and stops at a character it excludes,
# so each character is looked at a bounded number of times: linear in the text's length
# (a name pattern that backtracks over a 40 KB header value took 12 s).
# `Name:` a word of a header name's characters; whether it is a secret one is asked of the
# whole word.
_HEADER_NAME = re.compile(r"(?<![A-Za-z0-9_-])(?P<name>[A-Za-z0-9_-]+)(?P<sep>[ \t]*:[ \t]*)")
# A header's value runs to the end of the line or to a quote (an argv word quoted in a
# command line, a string in JSON text).
_VALUE = re.compile(r"[^\r\n\"']*")
# The text before an `@`, from where a word starts (or from the `@` before it): a URL's
# userinfo, with its scheme (`http://user:pw@host`) or without it, as ab prints a host
# (`user:pw@host`).
_BEFORE_AT = re.compile(r"(?<![^\s'\"@])(?P<run>[^\s'\"@]*)@")
_SCHEME_CHARS = frozenset(string.ascii_letters + string.digits + "+.-")
_NOT_USERINFO = frozenset("/?#")
_QUERY = re.compile(r"(?P<head>[?&;](?P<name>[A-Za-z0-9_.-]+)=)(?P<value>[^&#\s'\"]*)")
# Text without any of these holds nothing to redact: a look far cheaper than the patterns
# above (most text, and most sessions, hold none).
_SUSPECT = re.compile(r"auth|cookie|token|secret|pass|pwd|bearer|credential|api|key")

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
    words = [word.lower() for word in _NAME_WORD.findall(name)]
    if any(word in _SECRET_WORDS for word in words):
        return True
    # A key is a credential's name as the last word of several (`api_key`, `X-Private-Key`),
    # not alone (h2load's `Server Temp Key:`) nor first (`key_id`); `api` then `key`
    # anywhere (`apiKeyId`).
    return (len(words) > 1 and words[-1] == "key") or "api key" in " ".join(words)


def _suspect(text: str) -> bool:
    # On the case-folded text: a case-insensitive pattern is several times slower.
    # A password without a scheme (ab's `user:password@host`): a colon in the word before
    # an `@`. Not any colon: every JSON text has one, and `user@host` is common.
    if "@" in text and any(":" in m["run"] for m in _BEFORE_AT.finditer(text)):
        return True
    return _SUSPECT.search(text.lower()) is not None


@dataclass(frozen=True)
class _Span:
    """Where a secret's value is in a text, and what holds it (a header's name, a URL)."""

    start: int
    end: int
    where: str


def _spans(text: str) -> list[_Span]:
    """The secret values in `text`, in order, none overlapping."""
    found: list[_Span] = []
    if ":" in text:
        found += _header_values(text)
        if "@" in text:
            found += _passwords(text)
    if "=" in text:
        found += (
            _Span(m.start("value"), m.end("value"), m["name"])
            for m in _QUERY.finditer(text)
            if m["value"] and is_secret_name(m["name"])
        )
    found.sort(key=lambda span: span.start)
    kept: list[_Span] = []
    for span in found:
        if not kept or span.start >= kept[-1].end:
            kept.append(span)
    return kept


def _header_values(text: str) -> list[_Span]:
    found: list[_Span] = []
    end = 0
    for match in _HEADER_NAME.finditer(text):
        if match.start() < end or not is_secret_name(match["name"]):
            continue
        value = _VALUE.match(text, match.end())
        assert value is not None  # it matches the empty string
        end = value.end()
        # The spaces after the value (before a closing quote) stay where they were.
        stripped = value[0].rstrip()
        if stripped:
            found.append(_Span(value.start(), value.start() + len(stripped), match["name"]))
    return found


def _passwords(text: str) -> list[_Span]:
    found: list[_Span] = []
    for match in _BEFORE_AT.finditer(text):
        run, start = match["run"], match.start("run")
        scheme_end = run.rfind("://") + 3
        if scheme_end > 2:
            url_start = scheme_end - 3
            while url_start and run[url_start - 1] in _SCHEME_CHARS:
                url_start -= 1
        else:
            # Without a scheme, only a whole word before a host: `user:pw@host`.
            after = text[match.end() : match.end() + 1]
            if (start and text[start - 1] == "@") or not (after.isalnum() or after == "["):
                continue
            url_start = scheme_end = len(run) - len(run.lstrip("(<["))
        user, colon, password = run[scheme_end:].partition(":")
        if not colon or not password or _NOT_USERINFO.intersection(user + password):
            continue
        value_start = start + scheme_end + len(user) + 1
        where = f"password in {run[url_start:scheme_end]}{user}@…"
        found.append(_Span(value_start, value_start + len(password), where))
    return found


def redact_text(text: str) -> str:
    """`text` with every secret-looking value replaced by its mark."""
    if not _suspect(text):
        return text
    parts: list[str] = []
    end = 0
    for span in _spans(text):
        value = text[span.start : span.end]
        # Already marked (maybe with more words after it, as in an argv joined into a line).
        if _MARKED.match(value):
            continue
        parts += (text[end : span.start], mark(value))
        end = span.end
    if not parts:
        return text
    parts.append(text[end:])
    return "".join(parts)


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
        for span in _spans(text):
            marked = _MARKED.match(text, span.start)
            if marked:
                found.setdefault(marked[0], Redacted(span.where, marked[0]))
    return list(found.values())


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
