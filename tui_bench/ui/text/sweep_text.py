"""The sweep screen's words: Rich text from a SweepState, for its title, where it is, the
going run and how it ended. What a colour means comes in as `Tones`."""

from __future__ import annotations

from dataclasses import replace

from rich.table import Table
from rich.text import Text

from tui_bench.analysis.sweep_points import bracket
from tui_bench.engine.sweep_state import SweepState, SweepTitle
from tui_bench.formats import fmt_clock, fmt_count, fmt_latency
from tui_bench.parameter_text import shown
from tui_bench.printable import printable
from tui_bench.redaction import redact_text
from tui_bench.report.text import run_count, run_line
from tui_bench.ui.text.result_text import verdict_rows
from tui_bench.ui.tones import LABEL, Tones
from tui_bench.ui.widgets.sweep_chart import KNEE_MARKER


def header(title: SweepTitle, state: SweepState) -> Text:
    """What is swept: name, tools and URL, then what varies, how often and the SLO."""
    top = Text.assemble((" CAPACITY " if state.open_ended else " SWEEP ", "reverse bold"))
    target = printable(redact_text(title.target))
    name = printable(title.name)
    for part, style in ((name, "bold"), (title.tool_label, "bold"), (target, "")):
        if part:
            top.append(f"  {part}", style)
    varied = [f"{d.name}={','.join(shown(d.name, v) for v in d.values)}" for d in state.plan.vary]
    labels = state.plan.labels
    parts = [
        " × ".join(varied) or "nothing varies",
        f"labels {', '.join(labels)}" if labels else "",
        f"{state.rounds} rounds" if state.rounds > 1 else "",
        f"{_count(len(state.points), 'point')}, "
        + (
            f"{_count(state.done, 'run')} so far"
            if state.open_ended
            else _count(state.total, "run")
        ),
        f"SLO {state.slo_text}" if state.slo_text else "",
    ]
    return Text("\n").join([top, Text(" · ".join(filter(None, parts)), LABEL)])


def _count(n: int, what: str) -> str:
    return f"{n} {what}" + "s" * (n != 1)


def where(state: SweepState, *, stopping: bool) -> Text:
    """`run 3/8 · c=200 rep 2 · ETA 01:20 · running`."""
    going = state.going
    if going is not None:
        parts = [
            run_count(going.index, None if state.open_ended else state.total),
            going.point.name,
        ]
        if state.rounds > 1:
            parts[-1] += f" rep {going.repeat + 1}"
    else:
        parts = [f"{state.done} runs" if state.open_ended else f"{state.done}/{state.total} runs"]
    if state.running:
        parts.append(f"ETA {fmt_clock(state.eta_now)}")
    if stopping and state.running:
        status = "stopping…"
    elif state.cooling_s is not None:
        status = f"cooling down {state.cooling_s:g} s"
    else:
        status = state.status
    return Text(" · ".join([*filter(None, [*parts, _bracket(state)]), status]))


def _bracket(state: SweepState) -> str:
    """A capacity search's narrowing: `held 4,200 · not held 5,600 req/s`, then its answer."""
    if not state.open_ended or state.summary is None:
        return ""
    if not state.running:
        knee = state.knee
        found = state.summary.points[knee].values.get("rate") if knee is not None else None
        return "capacity not found" if found is None else f"capacity {fmt_count(found)} req/s"
    highest, lowest = bracket(state.summary.points[1:], state.slo)
    return f"held {fmt_count(highest)} · not held {fmt_count(lowest)} req/s"


def now(state: SweepState, tones: Tones) -> Text:
    """The going run's numbers as they come, else how the last run went."""
    live = state.live
    if state.going is not None and live is not None:
        text = Text.assemble(("now ", LABEL), f"{fmt_count(live.rps_now)} req/s")
        text.append("  p99 ", LABEL)
        text.append(fmt_latency(live.latency["p99_s"]))
        text.append("  errors ", LABEL)
        text.append(f"{live.error_total:,}", f"bold {tones.error}" if live.error_total else "")
        text.append("  elapsed ", LABEL)
        text.append(fmt_clock(live.elapsed_s))
        return text
    if state.last is not None:
        # The time left is on the line above.
        return Text.assemble(("last ", LABEL), run_line(replace(state.last, eta_s=None)))
    return Text("waiting for the first run", LABEL)


def summary(state: SweepState, tones: Tones) -> Table:
    """How the sweep ended: status, knee, failed thresholds, session, warnings; a long value
    wraps beside its label."""
    grid = Table.grid(padding=(0, 1))
    grid.add_column(no_wrap=True)
    grid.add_column(overflow="fold")
    finished = state.finished
    if finished is None:
        return grid
    session = finished.session
    status = Text.assemble((finished.status, "bold"))
    if finished.message:
        status.append(f" — {finished.message}")
    grid.add_row(Text("status", LABEL), status)
    knee = session.knee
    if knee is not None:
        if knee.point is None:
            found = Text(f"no valid point meets {knee.slo}")
        else:
            found = Text.assemble(
                (f"{KNEE_MARKER} {knee.name}", "bold"),
                f": {fmt_count(knee.rps)} req/s for {knee.slo}",
            )
        grid.add_row(Text("knee", LABEL), found)
    for label, text in verdict_rows(finished.verdicts, tones):
        grid.add_row(label, text)
    grid.add_row(Text("session", LABEL), str(finished.session_path))
    for warning in session.warnings:
        grid.add_row(Text("warning", tones.warning), warning.message)
    return grid
