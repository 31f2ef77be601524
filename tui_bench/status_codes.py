"""Exact HTTP status codes beside their classes: `{"405": 9812}` where the classes say
`{"4xx": 9812}`.

Kept for the tools that tell each request's code (h2load's request log). The count is
bounded: the MAX_CODES most common codes are kept by number and the others folded into
their class's key (`"4xx"` among the codes: 4xx answers whose exact code is not kept), so a
server answering a new code to every request cannot grow a session. The codes of a class
always add up to that class's count. Pure.
"""

from __future__ import annotations

from collections.abc import Mapping
from http import HTTPStatus

from tui_bench.result import STATUS_CLASSES

MAX_CODES = 20


def class_of(key: str) -> str | None:
    """`"405"` and `"4xx"` -> `"4xx"`; None for what is not a code of a known class."""
    klass = f"{key[:1]}xx"
    if klass not in STATUS_CLASSES:
        return None
    if key == klass or (len(key) == 3 and key.isdigit()):
        return klass
    return None


def bounded(counts: Mapping[str, int], keep: int = MAX_CODES) -> dict[str, int]:
    """`counts` (exact codes and folded class keys) with at most `keep` exact codes, the
    most common (the lower code on a tie); the others added to their class's key. Ordered
    by code, each class's folded key after its codes; zero counts and unknown keys left
    out."""
    known = {k: n for k, n in counts.items() if n > 0 and class_of(k) is not None}
    exact = sorted((k for k in known if k.isdigit()), key=lambda k: (-known[k], k))
    out: dict[str, int] = {k: known[k] for k in exact[:keep]}
    for key in exact[keep:] + [k for k in known if not k.isdigit()]:
        klass = class_of(key)
        assert klass is not None
        out[klass] = out.get(klass, 0) + known[key]
    return dict(sorted(out.items(), key=lambda item: (item[0][0], not item[0].isdigit(), item[0])))


def of_class(codes: Mapping[str, int], klass: str) -> list[tuple[str, int]]:
    """The exact codes of `klass`, the most common first; the folded rest left out."""
    found = [(k, n) for k, n in codes.items() if k.isdigit() and class_of(k) == klass]
    return sorted(found, key=lambda item: (-item[1], item[0]))


def named(code: str) -> str:
    """`"405"` -> `"405 Method Not Allowed"`; a code without a standard phrase as it is."""
    try:
        return f"{code} {HTTPStatus(int(code)).phrase}"
    except ValueError:
        return code
