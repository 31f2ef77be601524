"""The latencies of several generators as one histogram: their request logs' histograms
added up (exact), or, for tools that keep none (wrk, ab), each one's quantile table spread
over its requests and added up (approximate, and marked so). Pure."""

from __future__ import annotations

from collections.abc import Sequence

from tui_bench.histogram import LatencyHistogram
from tui_bench.parsers import wrk
from tui_bench.result import Distribution, Result
from tui_bench.storage.session import Session


def merged_histogram(runs: Sequence[Session | None]) -> tuple[LatencyHistogram | None, bool]:
    """Every generator's request times as one, and whether that is approximate: exact when
    every generator has them, else from every generator's quantile table; None when one
    lacks both."""
    kept = [run.histogram if run else None for run in runs]
    if kept and all(h is not None for h in kept):
        return _sum(kept), False
    parts = [_from_table(run) if run else None for run in runs]
    if not parts or any(part is None for part in parts):
        return None, False
    return _sum(parts), True


def merged_service(runs: Sequence[Session | None]) -> LatencyHistogram | None:
    """Every generator's request times from the send (fixed-rate runs); None when one
    lacks them."""
    kept = [run.service_histogram if run else None for run in runs]
    return _sum(kept) if kept and all(h is not None for h in kept) else None


def _sum(histograms: Sequence[LatencyHistogram | None]) -> LatencyHistogram:
    merged = LatencyHistogram()
    for histogram in histograms:
        if histogram is not None:
            merged.merge(histogram)
    return merged


def _from_table(run: Session) -> LatencyHistogram | None:
    """A generator's requests spread as its tool's quantile table says."""
    result = run.result
    if result is None:
        return None
    table = _table(run, result)
    count = result.requests.done
    if table is None or not count:
        return None
    return LatencyHistogram.from_quantiles(count, table)


def _table(run: Session, result: Result) -> Distribution | None:
    """The finest quantile table the tool gave: wrk's script prints one (its result keeps a
    few of them); ab's result holds its whole percentage table."""
    if result.tool == wrk.TOOL:
        raw = run.part("raw")
        found = wrk.latency_table(str(raw.get("stderr") or "") + str(raw.get("stdout") or ""))
        if found is not None:
            return found
    return result.latency if result.latency and result.latency.percentiles else None
