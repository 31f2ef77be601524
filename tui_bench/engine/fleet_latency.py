"""The latencies of several generators as one histogram: their request logs' histograms
added up (exact), or, for tools that keep none (wrk, ab), each one's quantile table spread
over its requests and added up (approximate, and marked so). Pure."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tui_bench.histogram import LatencyHistogram
from tui_bench.parsers import wrk
from tui_bench.result import Distribution, Result
from tui_bench.storage.session import APPROX, Session, histogram_of


def merged_histogram(
    docs: Sequence[Mapping[str, Any]], key: str
) -> tuple[LatencyHistogram | None, bool]:
    """Every generator's request times (their session's `key`) as one, and whether that is
    approximate: exact when every generator has them; for the whole run's latency
    (`histogram`), else from every generator's quantile table; None when one lacks both."""
    if all(doc and doc.get(key) for doc in docs):
        merged = LatencyHistogram()
        for doc in docs:
            merged.merge(histogram_of(doc[key], Session(doc).id))
        return merged, False
    if key != "histogram":
        return None, False
    parts = [_from_table(doc) for doc in docs]
    if not parts or any(part is None for part in parts):
        return None, False
    merged = LatencyHistogram()
    for part in parts:
        if part is not None:
            merged.merge(part)
    return merged, True


def histogram_record(histogram: LatencyHistogram | None, approx: bool) -> dict[str, Any] | None:
    """The histogram as the session keeps it."""
    if histogram is None:
        return None
    return {**histogram.to_dict(), APPROX: True} if approx else histogram.to_dict()


def _from_table(doc: Mapping[str, Any]) -> LatencyHistogram | None:
    """A generator's requests spread as its tool's quantile table says."""
    data = doc.get("result") if doc else None
    if not data:
        return None
    result = Result.from_dict(data)
    table = _table(doc, result)
    count = result.requests.done
    if table is None or not count:
        return None
    return LatencyHistogram.from_quantiles(count, table)


def _table(doc: Mapping[str, Any], result: Result) -> Distribution | None:
    """The finest quantile table the tool gave: wrk's script prints one (its result keeps a
    few of them); ab's result holds its whole percentage table."""
    if result.tool == wrk.TOOL:
        raw = doc.get("raw") or {}
        found = wrk.latency_table(str(raw.get("stderr") or "") + str(raw.get("stdout") or ""))
        if found is not None:
            return found
    return result.latency if result.latency and result.latency.percentiles else None
