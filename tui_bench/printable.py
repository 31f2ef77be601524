"""Text from users and from files shown safely: a name, a tag, a note, a URL or a header may
hold ESC, BEL, CR, a newline or another control character (a session file from elsewhere, a
name typed with a paste). Written raw to a terminal, ESC sequences retitle the window, move
the cursor or rewrite what is shown; a newline in a name forges a line of a table. Every text
output writes them as visible escapes (`\\x1b`, `\\n`); JSON and CSV keep them exact (JSON
escapes them itself)."""

from __future__ import annotations

import re

# C0 and C1 controls and DEL, the Unicode line and paragraph separators, and the bidi
# controls that make shown text read in another order than it is.
_OTHERS = r"\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069"
_CONTROL = re.compile(rf"[\x00-\x1f{_OTHERS}]")
_CONTROL_BUT_NEWLINE = re.compile(rf"[\x00-\x09\x0b-\x1f{_OTHERS}]")
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def is_control(char: str) -> bool:
    return _CONTROL.fullmatch(char) is not None


def _escape(match: re.Match[str]) -> str:
    char = match[0]
    named = _NAMED.get(char)
    if named:
        return named
    code = ord(char)
    # Past the C0 range as `\\u0085`: in JSON text that is the same character again.
    return f"\\x{code:02x}" if code < 0x20 else f"\\u{code:04x}"


def printable(text: str) -> str:
    """`text` on one line, each control character (newlines too) written as its escape."""
    return _CONTROL.sub(_escape, text)


def printable_line(line: str) -> str:
    """A line of a tool's output as shown: escaped, its line end (LF or CRLF) kept as LF."""
    body = line.rstrip("\r\n")
    return printable(body) + ("\n" if len(body) < len(line) else "")


def printable_lines(text: str) -> str:
    """Lines of text with every control character but the newline written as its escape: for
    a whole output (a table, a report) whose fields were not escaped one by one."""
    return _CONTROL_BUT_NEWLINE.sub(_escape, text)


def md_cell(text: str) -> str:
    """`text` as one cell of a markdown table: on one line, its bars escaped."""
    return printable(text).replace("|", "\\|")
