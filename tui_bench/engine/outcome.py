"""How a finished (or stopped) run becomes a Result and a status. Pure apart from reading
h2load's JSON summary file."""

from __future__ import annotations

import signal
from collections.abc import Mapping
from pathlib import Path

from tui_bench.engine.cut_short import CutShort
from tui_bench.engine.log_ingest import LogIngest, sending_s
from tui_bench.histogram import LatencyHistogram
from tui_bench.parsers import ParseError
from tui_bench.parsers.detect import parse_output
from tui_bench.parsers.h2load import parse_json
from tui_bench.parsers.live import WRK_LIVE_PREFIX
from tui_bench.parsers.wrk import SUMMARY_PREFIX
from tui_bench.records.warning import Warning
from tui_bench.result import Distribution, Requests, Result
from tui_bench.runners.durations import measured_at
from tui_bench.runners.tools import Tool
from tui_bench.spec import RunSpec


def build_result(
    spec: RunSpec,
    tool: Tool,
    stdout: str,
    stderr: str,
    json_file: Path | None,
    ingest: LogIngest | None,
    elapsed_s: float,
) -> Result | None:
    """The tool's own summary when it printed one (the reference for totals), completed
    with what tuibench measured itself; else, for h2load, a result from the request log."""
    result: Result | None
    try:
        if json_file is not None and json_file.is_file():
            result = parse_json(json_file.read_bytes(), stdout)
        else:
            result = parse_output(stdout + stderr, spec.tool)
    except ParseError:
        result = None
    if result is not None and result.duration_s is not None:
        # h2load's `finished in`, like our own clock, counts the warm-up while its req/s is
        # over -D alone (`3.00s` for `-D 2 --warm-up-time 1`, req/s over 2 s).
        result = result.with_(duration_s=measured_at(spec, result.duration_s))
    if ingest is not None:
        result = _with_log(result, spec, ingest, elapsed_s)
    if result is None:
        return None
    return result.with_(
        tool_version=result.tool_version or tool.version, warm_up_s=spec.warm_up_s or None
    )


def _with_log(
    result: Result | None, spec: RunSpec, ingest: LogIngest, elapsed_s: float
) -> Result | None:
    service = ingest.service_overall
    if service is not None:
        # A fixed-rate run: the tool's "time for request" is from the send; the latency is
        # from when each request was due, and only the log tells it.
        if result is not None:
            return result.with_(
                latency=ingest.overall.distribution(),
                service_latency=_completed(result.latency, service),
                **_log_status(result, ingest),
            )
        result = _from_log(spec, ingest, elapsed_s)
        return None if result is None else result.with_(service_latency=service.distribution())
    if result is None:
        return _from_log(spec, ingest, elapsed_s)
    return result.with_(
        latency=_completed(result.latency, ingest.overall), **_log_status(result, ingest)
    )


def _log_status(result: Result, ingest: LogIngest) -> dict[str, Mapping[str, int]]:
    """The status classes of the requests the total counts. h2load counts a status when a
    response's headers arrive and a request when its stream closes, so the end of a -D run
    leaves a response or two in the first count only (`40,509 2xx` of `40,507 total`). Its
    log has a line per request the total counts: when the two agree, the log's statuses
    are the ones shown beside the total, with their exact codes."""
    totals = ingest.totals
    if not result.status or totals.requests != result.requests.total:
        return {}
    return {
        "status": {c: totals.status.get(c, 0) for c in result.status},
        "status_codes": totals.codes,
    }


def _completed(latency: Distribution | None, histogram: LatencyHistogram) -> Distribution:
    """The tool's distribution with the percentiles it lacks from the log's `histogram`
    (h2load 1.52 reports none)."""
    latency = latency or Distribution()
    merged = {**histogram.distribution().percentiles, **latency.percentiles}
    return Distribution(latency.min_s, latency.max_s, latency.mean_s, latency.sd_s, merged)


def _from_log(spec: RunSpec, ingest: LogIngest, elapsed_s: float) -> Result | None:
    """A result from the request log alone, for a tool that printed no summary."""
    totals = ingest.totals
    if totals.requests == 0:
        return None
    succeeded = totals.requests - totals.errors
    measured = measured_at(spec, sending_s(0.0, elapsed_s, ingest.first_sent_of_files[0]))
    return Result(
        tool=spec.tool,
        protocol=spec.expected_protocol,
        duration_s=measured,
        rps=totals.requests / measured if measured > 0 else None,
        requests=Requests(
            total=totals.requests,
            done=totals.requests,
            succeeded=succeeded,
            failed=totals.errors,
        ),
        status=dict(totals.status),
        status_codes=totals.codes,
        latency=ingest.overall.distribution(),
    )


def judge(
    stopped: bool, overran: bool, exit_code: int, result: Result | None, stderr: str
) -> tuple[str, str | None]:
    """("completed" | "failed" | "interrupted", a one-line reason when not completed)."""
    if stopped:
        return "interrupted", "stopped before the end; what was measured is kept"
    if overran:
        return "failed", "the tool did not stop after its duration and was stopped"
    last_error = _last_said(stderr)
    if exit_code < 0:
        return "failed", f"the tool was killed by {signal.Signals(-exit_code).name}" + (
            f" ({last_error})" if last_error else ""
        )
    if exit_code != 0:
        return "failed", last_error or f"the tool exited with status {exit_code}"
    if result is None:
        return "failed", last_error or "the tool printed no summary that tuibench can read"
    total = result.requests.total
    if result.requests.succeeded == 0 or total == 0:
        # None failed when none came back: a server that accepts and never answers.
        said = f"all {total:,} requests failed" if total else "no request was answered"
        return "failed", said + (f" ({last_error})" if last_error else "")
    return "completed", None


# Lines of tuibench's own wrk script (runners/wrk_report.lua): its figures, not the tool's say.
_OWN_LINES = (SUMMARY_PREFIX, WRK_LIVE_PREFIX)


def _last_said(stderr: str) -> str | None:
    """The tool's last line on stderr: what it last said went wrong."""
    lines = (ln.strip() for ln in reversed(stderr.splitlines()))
    return next((ln for ln in lines if ln and not ln.startswith(_OWN_LINES)), None)


def ending(
    cut_short: CutShort,
    stopped: bool,
    exit_code: int,
    result: Result | None,
    stderr: str,
    cut: Warning | None,
) -> tuple[str, str | None, str | None]:
    """How a run ended (`judge`'s status and reason) once what cut it short is weighed: an
    unreachable target, else `cut` (its reason), fail it; and the unreachable line, if any."""
    # Stopped on time, ab ends as it would have by itself.
    ended = 0 if cut_short.ended_on_time else exit_code
    status, message = judge(stopped, cut_short.overran, ended, result, stderr)
    unreachable = cut_short.unreachable if status != "completed" else None
    if unreachable is not None:
        return "failed", unreachable, unreachable
    if cut is not None:
        return "failed", cut.message, None
    return status, message, None
