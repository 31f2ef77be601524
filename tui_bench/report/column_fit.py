"""Which columns of a table of sessions stay, and how wide, when the table is narrower than
all of them: the one rule of the sessions browser and of `tuibench sessions`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

# What a table too narrow for all its columns gives up first; then names and URLs are
# shortened. The status goes last: the validity column says INVALID for a run that did not
# complete.
DROP_ORDER = ("tags", "url", "m", "tool", "c", "status")
# A short list of the latest runs is read for what ran where and whether it can be trusted:
# the URL (shortened), when, and the validity (INVALID for a run that failed or was stopped)
# stay; the figures a verdict already sums up go first.
COMPACT_DROP_ORDER = ("errors", "status", "p99", "tool")
# Free text longer than this is cut with an ellipsis before any column is dropped; the full
# text is elsewhere.
CAPS = {"name": 26, "url": 26, "tags": 20}
# Below this, a shortened name or URL no longer says which it is.
MIN_ELIDED_WIDTH = 10
# Before the URL goes, a long name gives up its middle down to this: a sweep named at length
# took the URL off a wide screen.
SQUEEZED = {"url": ("name", 16)}


def fit_columns(
    natural: Mapping[str, int],
    available: int,
    drop: Sequence[str] = DROP_ORDER,
    *,
    caps: Mapping[str, int] | None = None,
    elided: Sequence[str] = (),
    padding: int = 2,
    squeezed: Mapping[str, tuple[str, int]] = SQUEEZED,
) -> dict[str, int]:
    """The columns kept and their widths, so that all of them, each with `padding` cells
    beside it, fit in `available` cells: the room there is first (whole cells), then the
    columns in `caps` down to their cap, then the columns in `drop` go (one named in
    `squeezed` stays where the column it names, shortened to no less than its width, makes
    the room), then those in `elided` give up their middles. A column in none of these is
    never cut."""

    def excess(widths: Mapping[str, int]) -> int:
        return sum(w + padding for w in widths.values()) - available

    widths = dict(natural)
    caps = caps or {}
    for key, width in widths.items():
        if key in caps and excess(widths) > 0:
            widths[key] = max(caps[key], width - excess(widths))
    for column in drop:
        if excess(widths) <= 0:
            break
        other, least = squeezed.get(column, ("", 0))
        # Only where that alone keeps the column: else the other is left whole.
        squeezable = column in widths and other in widths and other in elided
        if squeezable and widths[other] - excess(widths) >= least:
            widths[other] -= excess(widths)
            break
        widths.pop(column, None)
    while excess(widths) > 0:
        # The wider one gives a cell, until all are down to the least readable.
        shrinkable = [k for k in elided if widths.get(k, 0) > MIN_ELIDED_WIDTH]
        if not shrinkable:
            break
        widths[max(shrinkable, key=widths.__getitem__)] -= 1
    return widths


def middle_cut(length: int, width: int) -> tuple[int, int] | None:
    """How many characters of a text `length` long to keep before and after one `…` so that
    it fits in `width`; None when it fits whole (or `width` is too small to cut)."""
    if length <= width or width < 3:
        return None
    tail = (width - 1) // 2
    return width - 1 - tail, tail


def elide_middle(text: str, width: int) -> str:
    """`text` within `width` characters, its middle given up for one `…`: a URL keeps its
    host and port and the end of its path."""
    cut = middle_cut(len(text), width)
    if cut is None:
        return text
    head, tail = cut
    return f"{text[:head]}…{text[len(text) - tail :]}"


def elide_url(url: str, width: int) -> str:
    """`url` within `width` characters: its scheme, host and port whole and its path's end,
    the middle of the path given up for one `…` (or the middle of the whole, too narrow)."""
    scheme, sep, rest = url.partition("://")
    host = scheme + sep + rest.split("/", 1)[0] if sep else ""
    if len(url) <= width or not host or len(host) + 2 > width:
        return elide_middle(url, width)
    tail = width - len(host) - 1
    return f"{host}…{url[len(url) - tail :]}"


def elide_end(text: str, width: int) -> str:
    """`text` within `width` characters, its end given up for one `…`."""
    return text if len(text) <= width else f"{text[: max(width - 1, 0)]}…"
