"""Lines both front ends print: a result's headline figures, a sweep's run line, a
threshold's verdict. Pure."""

from __future__ import annotations

import shlex
from collections.abc import Mapping, Sequence

from tui_bench.analysis.verdicts import Verdicts
from tui_bench.engine.events import RunFinished
from tui_bench.engine.sweep import (
    SweepRunFinished,
)
from tui_bench.formats import (
    fmt_bytes,
    fmt_count,
    fmt_latency,
    fmt_metric,
    fmt_seconds,
    metric_label,
)
from tui_bench.printable import printable
from tui_bench.records.generator import GeneratorRun
from tui_bench.records.threshold import ThresholdVerdict
from tui_bench.report.segments_text import segments_text
from tui_bench.result import Distribution, Result
from tui_bench.runners.tools import tool_label
from tui_bench.spec import RunSpec
from tui_bench.status_codes import of_class
from tui_bench.typed_values import format_duration

# Error kinds whose key says less than words: h2load's is a connection the server closed
# with requests on it (they are not among its failed requests).
ERROR_WORDS = {"process_request_failure": "connections closed by the server"}


def result_rows(result: Result, spec: RunSpec | None = None) -> list[tuple[str, str]]:
    """The headline figures of a result as (label, value) pairs, for any text layout; with
    the `spec` run, what each request carried where it was not a plain GET."""
    req = result.requests
    rows = [
        ("tool", tool_label(result.tool, result.tool_version)),
        ("protocol", result.protocol or "–"),
        *_sent(spec),
        ("duration", fmt_seconds(result.duration_s)),
        *_warm_up(result),
        ("req/s", fmt_count(result.rps, 2)),
        ("throughput", "–" if result.bytes_per_s is None else fmt_bytes(result.bytes_per_s) + "/s"),
        (
            "requests",
            f"{fmt_count(req.total)} total, {fmt_count(req.succeeded)} ok, "
            f"{fmt_count(req.failed)} failed",
        ),
    ]
    if result.status:
        rows.append(("status", status_text(result)))
    if result.errors:
        rows.append(
            (
                "errors",
                ", ".join(f"{v:,} {ERROR_WORDS.get(k, k)}" for k, v in result.errors.items() if v)
                or "none",
            )
        )
    rows += rate_rows(result)
    for label, dist in (
        ("connect", result.connect),
        ("ttfb", result.ttfb),
    ):
        if dist is not None:
            rows.append((label, distribution_text(dist)))
    if result.tls is not None:
        rows.append(("tls", " ".join(x for x in (result.tls.protocol, result.tls.cipher) if x)))
    return rows


def _sent(spec: RunSpec | None) -> list[tuple[str, str]]:
    """`POST with a 58-byte application/json body`: not a row for a plain GET."""
    if spec is None or (spec.request_method == "GET" and spec.body_size is None):
        return []
    return [("request", spec.sent_body())]


# The exact codes shown beside a class: the few a reader acts on, not a table.
_CODES_SHOWN = 3


def status_text(result: Result) -> str:
    """`40,507 2xx, 0 3xx, 9,812 4xx (405 ×9,812), 0 5xx`: each class's count, and the most
    common exact codes of the answers that were not 2xx where the tool told them."""
    parts = []
    for klass, count in result.status.items():
        codes = of_class(result.status_codes, klass) if count and klass != "2xx" else []
        shown = ", ".join(f"{code} ×{n:,}" for code, n in codes[:_CODES_SHOWN])
        more = ", …" if sum(n for _, n in codes[:_CODES_SHOWN]) < count else ""
        parts.append(f"{count:,} {klass}" + (f" ({shown}{more})" if codes else ""))
    return ", ".join(parts)


def _warm_up(result: Result) -> list[tuple[str, str]]:
    """The warm-up beside the window req/s is over (`duration`), never inside it."""
    if not result.warm_up_s:
        return []
    return [("warm-up", f"{fmt_seconds(result.warm_up_s)} before it, not measured")]


# How a fixed-rate run's two latencies are told apart wherever they are shown.
FROM_DUE = "from when due"
FROM_SEND = "from the send (service)"


def rate_rows(result: Result) -> list[tuple[str, str]]:
    """The latency, and for a fixed-rate run its target and the latency from the send."""
    rate = result.rate
    latency = [] if result.latency is None else [distribution_text(result.latency)]
    if rate is None:
        return [("latency", latency[0])] if latency else []
    rows = [
        (
            "rate",
            f"target {fmt_count(rate.target_rps, 2)} req/s "
            f"({rate.per_client_rps:g} per connection: h2load --rps), "
            f"backlog at the end {fmt_count(rate.backlog_end)}",
        )
    ]
    if latency:
        rows.append(("latency", f"{FROM_DUE}: {latency[0]}"))
    if result.service_latency is not None:
        rows.append(("service", f"{FROM_SEND}: {distribution_text(result.service_latency)}"))
    return rows


def _share(value: float | None) -> str:
    return "–" if value is None else f"{value:.0f}%"


# What a result is read for, shown right under its status and validity.
KEY_ROWS = ("req/s", "latency")


def ended_rows(finished: RunFinished, spec: RunSpec | None = None) -> list[tuple[str, str]]:
    """An ended run's rows in the one order every view shows them: the key figures first,
    what it cost and where it is saved next (on a short screen the rest may have to be
    scrolled to), then the rest of the result."""
    pairs = result_rows(finished.result, spec) if finished.result else []
    pairs.sort(key=lambda pair: pair[0] not in KEY_ROWS)
    keys = sum(1 for label, _ in pairs if label in KEY_ROWS)
    steered = segments_text(finished.session.segments) if finished.session else None
    pairs[keys:keys] = [
        *([("segments", steered)] if steered else []),
        *resource_rows(finished.resources),
        ("session", _saved(finished)),
    ]
    return pairs


def _saved(finished: RunFinished) -> str:
    """Where the session is, or `not saved: …` and why (the row of the session)."""
    if finished.unsaved is None:
        return str(finished.session_path)
    return finished.unsaved.removeprefix("the run is ")


def resource_rows(resources: Mapping[str, float | None] | None) -> list[tuple[str, str]]:
    """What the run cost the server and the load generator, from the figures
    `sampling.summaries.summarize` defines: CPU in % of one core, `–` where not sampled (a
    run with no reading at all still has both rows). None: a session saved before the
    figures were kept, which has no rows for them."""
    if resources is None:
        return []

    def cpu(who: str) -> str:
        mean, most = (resources.get(f"{who}_cpu_{k}_pct") for k in ("mean", "max"))
        return f"cpu mean {_share(mean)}, max {_share(most)}"

    return [
        ("server", f"{cpu('server')}, rss peak {fmt_bytes(resources.get('server_rss_max_bytes'))}"),
        ("client", cpu("client")),
    ]


def distribution_text(dist: Distribution) -> str:
    def shown(value: float | None) -> str:
        return fmt_latency(value, dist.resolution_s)

    parts = [f"min {shown(dist.min_s)}", f"mean {shown(dist.mean_s)}"]
    about = APPROX_MARK if dist.approx else ""
    for key in ("p50_s", "p90_s", "p99_s", "p99_9_s"):
        if key in dist.percentiles:
            parts.append(f"{metric_label(key)} {about}{shown(dist.percentiles[key])}")
    parts.append(f"max {shown(dist.max_s)}")
    return ", ".join(parts)


# Before a figure merged from several generators' quantile tables: close, not exact.
APPROX_MARK = "≈"


def measured_text(verdict: ThresholdVerdict) -> str:
    """What a threshold found, `≈` before it when that is approximate."""
    about = APPROX_MARK if verdict.approx else ""
    return about + fmt_metric(verdict.metric, verdict.actual)


def verdict_line(verdict: ThresholdVerdict) -> str:
    """`threshold p99<50ms at c=200: FAIL (p99 61.20 ms)`."""
    where = f" at {verdict.name}" if verdict.name else ""
    outcome = "pass" if verdict.passed else "FAIL"
    measured = verdict.reason or f"{metric_label(verdict.metric)} " + measured_text(verdict)
    return f"threshold {verdict.text}{where}: {outcome} ({measured})"


def verdict_lines(verdicts: Verdicts) -> list[str]:
    """Each threshold's verdict and the baseline's judgement, one line each: what the
    headless summary, the live result and the sweep view say of them."""
    lines = [verdict_line(v) for v in verdicts.thresholds]
    if verdicts.baseline is not None:
        lines += [f"baseline: {line}" for line in verdicts.baseline.lines]
    return lines


def text_table(rows: Sequence[Sequence[str]], *, numbers: bool = False) -> list[str]:
    """Rows as aligned columns two spaces apart, the first row the header; with `numbers`
    every column after the first is right-aligned. A cell is one line, whatever it holds."""
    rows = [[printable(cell) for cell in row] for row in rows]
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return [
        "  ".join(
            cell.rjust(w) if numbers and i else cell.ljust(w)
            for i, (cell, w) in enumerate(zip(r, widths, strict=True))
        ).rstrip()
        for r in rows
    ]


def run_count(index: int, total: int | None) -> str:
    """`run 3/8`; `step 3` for a search, whose number of runs is not known ahead."""
    return f"step {index + 1}" if total is None else f"run {index + 1}/{total}"


def run_line(event: SweepRunFinished) -> str:
    """`run 3/8 c=200 rep 2: 41,234 req/s p99 3.10 ms, about 1m left`."""
    where = " ".join(
        part
        for part in (
            run_count(event.index, event.total),
            event.point.name,
            f"rep {event.repeat + 1}" if event.rounds > 1 else "",
        )
        if part
    )
    finished, values = event.finished, event.values
    if finished.status == "completed":
        what = f"{fmt_count(values['rps'])} req/s p99 {fmt_latency(values['p99_s'])}"
        if values["error_rate"]:
            what += f" errors {fmt_metric('error_rate', values['error_rate'])}"
    else:
        what = finished.status + (f" ({finished.message})" if finished.message else "")
    if event.eta_s is not None and event.eta_s >= 1:
        what += f", about {format_duration(float(round(event.eta_s)))} left"
    return f"{where}: {what}"


# What --json says of each generator of a run of several (the session keeps more).
GENERATOR_KEYS = (
    "host",
    "rps",
    "share",
    "client_cpu_mean_pct",
    "client_bound",
    "start_skew_s",
    "lost",
)


def generator_cells(g: GeneratorRun) -> dict[str, str]:
    """A saved generator's figures as text, the same in every view that lists them."""
    skew = g.start_skew_s
    return {
        "host": g.host,
        "tool": f"{g.tool or '–'} {g.tool_version or '–'}",
        "argv": shlex.join(g.argv) if g.argv is not None else "–",
        "requests": fmt_count(g.requests),
        "req/s": fmt_count(g.rps),
        "share": "–" if g.share is None else f"{g.share:.0%}",
        "cpu": _share(g.client_cpu_mean_pct),
        "client-bound": "yes" if g.client_bound else "no",
        "start skew": "–" if skew is None else f"{skew * 1000:.1f} ms",
        "lost": g.lost or "–",
    }


def generator_lines(generators: Sequence[GeneratorRun]) -> list[str]:
    """`generator bench-c  17,216 req/s 52%  cpu 35%  client-bound`, one per generator."""
    lines = []
    for g in generators:
        cells = generator_cells(g)
        words = [
            f"generator {cells['host']}",
            f"{cells['req/s']} req/s {cells['share']}",
            f"cpu {cells['cpu']}",
        ]
        if g.client_bound:
            words.append("client-bound")
        if g.lost:
            words.append(f"lost ({cells['lost']})")
        lines.append("  ".join(words))
    return lines
