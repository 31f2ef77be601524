"""The sweep screen's table of points: its columns, each laying out its cells as Rich text
from a PointRow, to a fixed width."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from rich.text import Text

from tui_bench.engine.sweep_state import PointRow, SweepState
from tui_bench.formats import fmt_count, fmt_latency, fmt_share
from tui_bench.parameter_text import shown
from tui_bench.ui.text.text_lines import pct
from tui_bench.ui.tones import LABEL, Tones, validity_text, verdict_style
from tui_bench.ui.widgets.sweep_chart import KNEE_MARKER

GOING_MARK = "▶"


@dataclass(frozen=True)
class Column:
    """A column of the points table. Cells are laid out here, to the column's exact width
    (the table adds no padding): a number's leading space parts it from its neighbour."""

    key: str
    label: str
    width: int
    cell: Callable[[PointRow, Tones], Text]
    left: bool = False

    def fit(self, text: Text) -> Text:
        pad = " " * max(self.width - text.cell_len, 0)
        return text + pad if self.left else Text(pad) + text


def _spread(row: PointRow) -> str:
    """The runs' sd as a share of their mean: `±1.2%`, `±16%`."""
    if row.rps_sd is None or not row.rps:
        return ""
    share = row.rps_sd / row.rps * 100
    return f"±{share:.1f}%" if share < 10 else f"±{share:.0f}%"


def _rps(row: PointRow, tones: Tones) -> Text:
    return Text.assemble((f"{fmt_count(row.rps):>8}", "bold"), (f" {_spread(row):<5}", LABEL))


def _errors(row: PointRow, tones: Tones) -> Text:
    if row.error_rate is None:
        return Text("–")
    return Text(fmt_share(row.error_rate), f"bold {tones.error}" if row.error_rate else "")


def _slo(row: PointRow, tones: Tones) -> Text:
    if row.meets_slo is None:
        return Text()
    # The star before the mark: the marks stay in one column.
    text = Text(f"{KNEE_MARKER} " if row.knee else "", f"bold {tones.warning}")
    if row.meets_slo:
        text.append("✓", verdict_style("pass", tones))
    else:
        text.append("✗", verdict_style("fail", tones))
    return text


def _verdict(row: PointRow, tones: Tones) -> Text:
    if row.verdict is None:
        return Text("–", LABEL)
    return validity_text(row.verdict, tones)


def _latency(key: str) -> Callable[[PointRow, Tones], Text]:
    return lambda row, _: Text(fmt_latency(getattr(row, key)))


def columns(state: SweepState) -> list[Column]:
    """The label and each varied parameter, then the figures; fixed widths, so that the
    table does not shift as figures arrive. 78 columns with a label and one parameter."""
    plan = state.plan
    cols = []
    if plan.labels:
        width = max(len("label"), *(len(p.label or "") for p in state.points))
        cols.append(Column("label", "label", width + 1, lambda r, _: Text(r.label or ""), True))
    for dim in plan.vary:
        name = dim.name
        width = max([len(name), *(len(shown(name, v)) for v in dim.values)])

        def value(row: PointRow, _: Tones, name: str = name) -> Text:
            return Text(shown(name, row.values[name]))

        cols.append(Column(f"v:{name}", name, width + 1, value))
    if not cols:
        width = max(len("point"), *(len(p.name or "all") for p in state.points))
        cols.append(Column("point", "point", width + 1, lambda r, _: Text(r.name or "all"), True))
    runs = f"{state.rounds}/{state.rounds}"
    cols += [
        Column("runs", "runs", max(len(runs), 4) + 1, lambda r, _: Text(f"{r.done}/{r.planned}")),
        Column("rps", "req/s ±  ", 14, _rps),
        Column("p50", "p50", 10, _latency("p50_s")),
        Column("p99", "p99", 10, _latency("p99_s")),
        Column("max", "max", 10, _latency("max_s")),
        Column("errors", "errors", 7, _errors),
        Column("cpu", "server", 7, lambda r, _: Text(pct(r.server_cpu_pct))),
        Column("validity", "validity", 9, _verdict),
    ]
    if state.slo:
        cols.append(Column("slo", "SLO", 4, _slo))
    return cols


def spread(cols: list[Column], width: int) -> list[Column]:
    """The columns widened alike to fill `width` (the first one's going mark counted):
    beyond their figures' room, a wide screen's table parts its columns more."""
    extra = width - 1 - sum(column.width for column in cols)
    if extra <= 0:
        return cols
    each, rest = divmod(extra, len(cols))
    return [replace(c, width=c.width + each + (i < rest)) for i, c in enumerate(cols)]


def head_cell(column: Column, first: bool) -> Text:
    """A column's label, laid out as its cells are."""
    return point_cell(column, Text(column.label, "bold"), first, going=False)


def point_cell(column: Column, text: Text, first: bool, *, going: bool) -> Text:
    """The first column starts with the mark of the point going (one more character)."""
    if not first:
        return column.fit(text)
    return Text.assemble((GOING_MARK if going else " ", "bold"), column.fit(text))
