"""The monitor screens' words: Rich text built from a LiveState, one function per panel.

What a colour means comes in as `Tones`, from the app's theme: the functions stay pure."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from rich.cells import cell_len
from rich.text import Text

from tui_bench.analysis.compare import protocol_label
from tui_bench.engine.live_state import CLIENT_BOUND_PCT, LiveState
from tui_bench.formats import fmt_bytes, fmt_clock, fmt_compact, fmt_count, fmt_latency, fmt_metric
from tui_bench.report.text import APPROX_MARK, FROM_DUE, FROM_SEND
from tui_bench.result import STATUS_CLASSES, Distribution
from tui_bench.runners.durations import duration_text
from tui_bench.spec import RunSpec
from tui_bench.ui.text.run_title import run_title
from tui_bench.ui.text.text_lines import pairs, pct, stacked
from tui_bench.ui.tones import LABEL, Tones

BLOCKS = "▁▂▃▄▅▆▇█"


def load_pairs(spec: RunSpec) -> tuple[tuple[str, str], tuple[str, str]]:
    """The load's shape and mode, as label/value pairs."""
    if spec.duration_s is not None:
        mode = duration_text(spec) or "–"
    else:
        mode = "–" if spec.requests is None else f"-n {spec.requests:,}"
    shape = f"c{spec.connections} t{spec.threads}"
    if spec.streams:
        shape += f" m{spec.streams}"
    # What each request carries, where it is not a plain GET: `POST 58 B`.
    if spec.request_method != "GET" or spec.body_size is not None:
        shape += f" {spec.request_method}"
        if spec.body_size is not None:
            shape += f" {fmt_bytes(spec.body_size)}"
    return ("load", shape), ("mode", mode)


def run_title_of(tool_label: str, state: LiveState) -> Text:
    return run_title(tool_label, state.spec.urls, connection(state))


def connection(state: LiveState) -> str:
    """The protocol asked for (and what was negotiated when that differs) and TLS: its
    version once the tool has said it."""
    spec = state.spec
    expected = spec.expected_protocol if spec.urls else None
    words = [protocol_label(expected, state.protocol) or ""]
    if state.tls_version is not None:
        words.append(state.tls_version)
    elif spec.urls and spec.tls:
        words.append("TLS")
    return " ".join(w for w in words if w)


def _phase_words(state: LiveState) -> str | None:
    """The tool's phase as the header says it: the measured stretch is named only after a
    warm-up (without one the whole run is measured), and the tool's end is its finishing."""
    match state.phase:
        case "warm-up":
            return "warm-up"
        case "main":
            return "measuring" if state.spec.warm_up_s else None
        case "done":
            return "finishing"
    return None


def header(
    state: LiveState,
    tool_label: str,
    *,
    paused: bool,
    stopping: bool,
    note: str | None = None,
    width: int | None = None,
) -> Text:
    """What runs, then how far it is; `note` on a line of its own under them. Wider than
    `width`, how far it is comes first: the load's shape is the part a cut line loses."""
    top = run_title_of(tool_label, state)
    status = "stopping…" if stopping and state.running else state.status
    phase = _phase_words(state)
    if phase and state.running:
        status += f" ({phase})"
    load = pairs(*load_pairs(state.load_spec))
    progress = pairs(("elapsed", fmt_clock(state.elapsed_s)), ("ETA", fmt_clock(state.eta_s)))
    now = Text.assemble(status, *_badges(state, paused))
    bottom = Text.assemble(load, "  ", progress, "  ", now)
    if width is not None and bottom.cell_len > width:
        bottom = Text.assemble(now, "  ", progress, "  ", load)
    return stacked(top, bottom, *([Text(note, LABEL)] if note else []))


def segment_badges(state: LiveState) -> list[tuple[str, str]]:
    """While a steered run goes: the load paused, or the segment going and its gap."""
    segment = state.segment
    if segment is None or not state.running:
        return []
    if segment.paused:
        return [("  LOAD PAUSED", "reverse bold")]
    if state.segments_seen < 2:
        return []
    gap = "" if segment.gap_s is None else f", gap {fmt_latency(segment.gap_s)}"
    return [(f"  segment {segment.index + 1}{gap}", "bold")]


def _badges(state: LiveState, paused: bool) -> list[tuple[str, str]]:
    badges = [("  PAUSED", "reverse bold")] if paused else []
    badges += segment_badges(state)
    if state.cut_short is not None:
        # Said from the moment it is known, and kept: the run ended there.
        badges.append(("  SERVER LOST" if state.server_lost else "  NO ANSWER", "reverse bold"))
    elif (silent_s := state.silent_s) is not None:
        # The server answers nothing while connections wait: how long, and how many wait.
        badges.append((f"  STALL {silent_s:.1f} s, {state.waiting:,} waiting", "reverse bold"))
    return badges


# Until the first second closes there is nothing to show: said, not a row of dashes.
WAITING = "waiting for the first second"


def _waiting(state: LiveState) -> bool:
    return not state.rows and state.running


def throughput(state: LiveState) -> Text:
    if _waiting(state):
        so_far = state.so_far
        if so_far is None:
            return Text(WAITING, LABEL)
        done, rps = so_far
        # Figures at once, refined when the first whole second closes.
        return stacked(
            pairs(("so far", f"{fmt_count(done)} requests")),
            pairs(("      ", f"{fmt_count(rps)} req/s")),
            Text(WAITING, LABEL),
        )
    target = state.target_rps
    result = state.result
    if result is not None:
        # Ended: the whole run's figures; the last window is a part of a second.
        if target is not None and state.segments_seen > 1:
            # No one target stands for a steered run: the result's segments row says each.
            return stacked(
                pairs(("target  ", f"steered, {state.segments_seen} segments")),
                pairs(("achieved", f"{fmt_count(state.rps_overall)} req/s")),
            )
        if target is not None:
            backlog = result.rate.backlog_end if result.rate else None
            return stacked(
                pairs(("target  ", f"{fmt_count(target)} req/s")),
                pairs(("achieved", f"{fmt_count(state.rps_overall)} req/s")),
                pairs(("backlog ", f"{fmt_count(backlog)} due at the end")),
            )
        return stacked(
            pairs(("overall", f"{fmt_count(state.rps_overall)} req/s")),
            pairs(("good   ", f"{fmt_count(state.good_rps_overall)} req/s")),
        )
    if target is not None:
        return stacked(
            pairs(("target  ", f"{fmt_count(target)} req/s")),
            pairs(("achieved", f"{fmt_count(state.achieved_now)} req/s sent")),
            pairs(("backlog ", f"{fmt_count(state.backlog_now)} due, not sent")),
        )
    return stacked(
        pairs(("now    ", f"{fmt_count(state.rps_now)} req/s")),
        pairs(("overall", f"{fmt_count(state.rps_overall)} req/s")),
        pairs(("good   ", f"{fmt_count(state.good_rps_now)} req/s")),
    )


LATENCY_TITLE = "Latency (1 s window)"
LATENCY_RUN_TITLE = "Latency (whole run)"


def latency_title(state: LiveState) -> str:
    return LATENCY_TITLE if state.result is None else LATENCY_RUN_TITLE


def latency(state: LiveState, width: int | None = None) -> Text:
    """The last second's percentiles and the whole run's so far; narrower than `width`, the
    two side by side, p50 and p99 only, rather than a line cut before its figure."""
    if _waiting(state):
        return Text(WAITING, LABEL)
    if state.result is not None:
        return _latency_run(state)
    lat, run = state.latency, state.latency_overall
    about = APPROX_MARK if state.latency_approx else ""
    if state.spec.asked_rate is not None:
        sent = state.service_latency
        return stacked(
            Text(f"{FROM_DUE} · {FROM_SEND}", LABEL),
            pairs(("p50", f"{fmt_latency(lat['p50_s'])} · {fmt_latency(sent['p50_s'])}")),
            pairs(("p99", f"{fmt_latency(lat['p99_s'])} · {fmt_latency(sent['p99_s'])}")),
        )
    lines = (
        pairs(("p50", fmt_latency(lat["p50_s"])), ("p90", fmt_latency(lat["p90_s"]))),
        pairs(("p99", fmt_latency(lat["p99_s"])), ("max", fmt_latency(lat["max_s"]))),
        pairs(
            ("whole run p50", about + fmt_latency(run["p50_s"])),
            ("p99", about + fmt_latency(run["p99_s"])),
        ),
    )
    if width is None or max(line.cell_len for line in lines) <= width:
        return stacked(*lines)
    keys = ("p50_s", "p99_s")
    now = [fmt_latency(lat[key]) for key in keys]
    room = max(cell_len(value) for value in [*now, "1 s"])
    return stacked(
        Text(f"    {'1 s':<{room}}  whole run", LABEL),
        *(
            pairs((key[:3], f"{value:<{room}}  {about}{fmt_latency(run[key])}"))
            for key, value in zip(keys, now, strict=True)
        ),
    )


def _latency_run(state: LiveState) -> Text:
    """The ended run's percentiles as its result words them: in the tool's resolution, `≈`
    before those merged from quantile tables."""
    result = state.result
    lat = state.latency_run
    dist = result.latency if result else None
    due = _shown_by(dist)
    if state.spec.asked_rate is not None:
        sent = state.service_latency_run
        by_send = _shown_by(result.service_latency if result else None)
        return stacked(
            Text(f"{FROM_DUE} · {FROM_SEND}", LABEL),
            pairs(("p50", f"{due(lat['p50_s'])} · {by_send(sent['p50_s'])}")),
            pairs(("p99", f"{due(lat['p99_s'])} · {by_send(sent['p99_s'])}")),
        )
    return stacked(
        pairs(("p50", due(lat["p50_s"])), ("p90", due(lat["p90_s"]))),
        pairs(("p99", due(lat["p99_s"])), ("max", _shown_by(dist, percentile=False)(lat["max_s"]))),
    )


def _shown_by(
    dist: Distribution | None, *, percentile: bool = True
) -> Callable[[float | None], str]:
    """How a figure of `dist` is written (`distribution_text`'s way)."""
    if dist is None:
        return fmt_latency
    about = APPROX_MARK if dist.approx and percentile else ""
    return lambda value: about + fmt_latency(value, dist.resolution_s)


def latency_count(state: LiveState) -> str:
    """How many requests the window's percentiles rest on, to two digits: enough to judge
    them by, and the panel's border is repainted only when it changes."""
    n = state.latency_n
    return f"n {'–' if n is None else fmt_compact(n, 2)}"


def status(state: LiveState, tones: Tones) -> Text:
    if _waiting(state):
        return Text(WAITING, LABEL)
    counts, failed = state.status_counts, state.errors_seen
    first, second = STATUS_CLASSES[:2], STATUS_CLASSES[2:]
    errors = Text.assemble(("errors ", LABEL), fmt_count(failed))
    if failed:
        errors.stylize(f"bold {tones.error}")
    # The kinds: 4xx and 5xx above, and requests that got no response at all.
    if counts is not None and failed is not None:
        unanswered = failed - counts["4xx"] - counts["5xx"]
        if unanswered > 0:
            errors.append_text(Text.assemble(("  no response ", LABEL), f"{unanswered:,}"))

    def cell(key: str) -> tuple[str, str]:
        # wrk's live counts carry no status: unknown until its summary, never 0.
        return key, "–" if counts is None else f"{counts[key]:,}"

    result = state.result
    if result is not None:
        last = pairs(("error rate", fmt_metric("error_rate", result.error_rate)))
    else:
        last = pairs(("last s", f"{fmt_count(state.last_row.get('errors'))} errors"))
    return stacked(pairs(*map(cell, first)), pairs(*map(cell, second)), errors, last)


def cores(values: Sequence[float]) -> str:
    """One block character per core, its height the core's busy share."""
    top = len(BLOCKS) - 1
    return "".join(BLOCKS[round(min(max(v, 0.0), 100.0) / 100 * top)] for v in values)


SERVER_HINT = (
    "no server sampled: --server-pid or --server-name here, "
    "--server-host [user@]HOST for one on another machine (over SSH)"
)


def server_title(state: LiveState) -> str:
    """`Server nginx 1234 on db1`: what is sampled, and where when not here."""
    server = state.server
    if not server:
        return "Server"
    what = " ".join(str(server[k]) for k in ("name", "pid") if server.get(k) is not None)
    where = f" on {server['host']}" if server.get("host") else ""
    return f"Server {what}{where}".rstrip()


def server(state: LiveState) -> Text:
    s = state.sample
    if s is None:
        return Text("no sample yet", LABEL)
    system = s.system_cpu_pct
    mean = sum(system) / len(system) if system else None
    unsampled = s.server_procs is None and s.server_cpu_pct is None and not state.server
    used = state.resources
    if used and not unsampled:
        # Ended: what the run cost it over every sample, not the idle server after it.
        return stacked(
            pairs(*_cpu_run(used, "server")),
            pairs(
                ("rss peak", fmt_bytes(used.get("server_rss_max_bytes"))),
                ("procs", fmt_count(s.server_procs)),
            ),
        )
    return stacked(
        Text(SERVER_HINT, LABEL)
        if unsampled
        else pairs(
            ("cpu", pct(s.server_cpu_pct)),
            ("rss", fmt_bytes(s.server_rss_bytes)),
            ("procs", fmt_count(s.server_procs)),
        ),
        pairs(("cores", f"{cores(system)} {pct(mean)}")),
        pairs(
            ("mem", f"{fmt_bytes(s.system_mem_used_bytes)} / {fmt_bytes(s.system_mem_total_bytes)}")
        ),
    )


def _cpu_run(used: Mapping[str, float | None], who: str) -> tuple[tuple[str, str], ...]:
    return (
        ("cpu mean", pct(used.get(f"{who}_cpu_mean_pct"))),
        ("max", pct(used.get(f"{who}_cpu_max_pct"))),
    )


def spark_figures(state: LiveState) -> dict[str, dict[str, float | None]]:
    """By panel, then by sparkline: the greatest figure of its kind the panel's text
    shows, which the sparkline's scale must reach (a sample can be newer than the last
    closed second, and an ended run's maximum is over every sample, not every second)."""
    if state.result is not None:
        used = state.resources
        server_cpu, rss = used.get("server_cpu_max_pct"), used.get("server_rss_max_bytes")
        client_cpu = used.get("client_cpu_max_pct")
        rps, p99 = state.rps_overall, state.latency_run["p99_s"]
    else:
        s = state.sample
        server_cpu, rss = (s.server_cpu_pct, s.server_rss_bytes) if s else (None, None)
        client_cpu = s.client_cpu_pct if s else None
        rps, p99 = state.rps_now, state.latency["p99_s"]
    return {
        "throughput": {"req/s": rps},
        "latency": {"p99": p99},
        "server": {"cpu": server_cpu, "rss": rss},
        "client": {"cpu": client_cpu},
    }


def client_title(state: LiveState) -> str:
    count = len(state.generators)
    return f"Load generators ({count})" if count else "Client (load generator)"


def client(state: LiveState, tones: Tones) -> Text:
    if state.generators:
        return generators(state, tones)
    used = state.resources
    if used:
        # Ended: the generator has exited; what it used while it ran.
        return pairs(*_cpu_run(used, "client"))
    s = state.sample
    if s is None:
        return Text("no sample yet", LABEL)
    text = pairs(("cpu", pct(s.client_cpu_pct)), ("busiest thread", pct(s.client_thread_max_pct)))
    if state.client_bound:
        return stacked(text, Text(" CLIENT-BOUND ", f"bold reverse {tones.error}"))
    return text


def generators(state: LiveState, tones: Tones) -> Text:
    """A line per generator: where (and its tool and version when they differ), its req/s
    and share of the last second, its CPU, and CLIENT-BOUND when its busiest thread
    saturates a core; lost or done."""
    lines = []
    # Which tool each one runs is said only when they differ: otherwise the run's tool says it.
    differ = len({(g.tool, g.version) for g in state.generators}) > 1
    for g in state.generators:
        line = Text(f"{g.label} ", "bold")
        if differ:
            line.append(f"{g.tool} {g.version or '–'} ", LABEL)
        if g.lost:
            lines.append(line.append("lost", f"bold {tones.error}"))
            continue
        rps = "–" if g.rps is None else fmt_compact(g.rps)
        share = pct(None if g.share is None else g.share * 100)
        line.append(f"{rps} req/s {share}  ")
        line.append_text(pairs(("cpu", pct(g.cpu_pct))))
        busiest = g.busiest_thread_pct
        if busiest is not None and busiest >= CLIENT_BOUND_PCT and not g.ended:
            line.append(" CLIENT-BOUND", f"bold {tones.error}")
        elif g.ended:
            line.append(" done", LABEL)
        lines.append(line)
    return stacked(*lines)


def warnings(state: LiveState, tones: Tones) -> Text:
    if not state.warnings:
        return Text("none", LABEL)
    mark = f"bold {tones.warning}"
    return stacked(*(Text.assemble(("! ", mark), w.message) for w in state.warnings))
