"""The compare screen's words: the two sides' header, the line of set-up differences, the
tables of metrics and of differences, as Rich text. What a colour means comes in as `Tones`."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from tui_bench.analysis.compare import (
    Difference,
    MetricDelta,
    fmt_delta,
    fmt_delta_pct,
    fmt_value,
    started,
    target,
    tool_label,
)
from tui_bench.analysis.names import TESTED
from tui_bench.analysis.significance import (
    Report,
    Side,
    fmt_ci,
    fmt_n,
    fmt_p,
    side_title,
)
from tui_bench.report.column_fit import MIN_ELIDED_WIDTH
from tui_bench.ui.text.session_cells import elide_middle
from tui_bench.ui.tones import LABEL, Tones, verdict_style
from tui_bench.ui.widgets.compare_chart import hex_colour

# A statistic still being computed.
PENDING = "…"


def mark(letter: str) -> Text:
    # A span, not the Text's own style: a table would paint its whole cell with that.
    return Text.assemble((f" {letter} ", f"bold #000000 on {hex_colour(letter)}"))


def side_header(side: Side) -> Text:
    """`name-or-id`, or for a sweep point `name-or-id@c=200, 10 runs`."""
    if not side.is_point:
        return Text(side_title(side), "bold")
    return Text.assemble((side_title(side), "bold"), f", {side.runs_label}")


class MiddleElided:
    """One line of text that, short of room, gives up its middle, never breaking a word: the
    end of a URL's path is what tells two runs apart."""

    def __init__(self, text: str | Text) -> None:
        self.text = Text(text, no_wrap=True) if isinstance(text, str) else text

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement(min(MIN_ELIDED_WIDTH, self.text.cell_len), self.text.cell_len)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield elide_middle(self.text, options.max_width)


def sessions_header(a: Side, b: Side) -> Table:
    grid = Table.grid(padding=(0, 1))
    grid.add_column(no_wrap=True)
    # A run's id is one word: folded, it took two lines and pushed the table down; it and
    # the URL share what the date and the tool leave, each given up in its middle.
    grid.add_column(ratio=1)
    grid.add_column(no_wrap=True, style=LABEL)
    grid.add_column(no_wrap=True)
    grid.add_column(ratio=2)
    for letter, side in (("A", a), ("B", b)):
        grid.add_row(
            mark(letter),
            MiddleElided(side_header(side)),
            started(side.session),
            tool_label(side.shown),
            MiddleElided(target(side.shown)),
        )
    return grid


def differences_line(differences: Sequence[Difference], tones: Tones) -> Text:
    if not differences:
        return Text("same set-up: the runs differ only in what they measured", LABEL)
    known = [d for d in differences if d.a is not None and d.b is not None]
    unknown = len(differences) - len(known)
    badge_style = f"bold reverse {tones.warning}"
    if not known:
        return Text.assemble(
            (" set-up unknown ", badge_style),
            f" {unknown} fields are known for one run only: ",
            ", ".join(d.label for d in differences),
        )
    badge = f" {len(known)} set-up difference{'s' if len(known) > 1 else ''} "
    line = Text.assemble((badge, badge_style), " ", ", ".join(d.label for d in known))
    if unknown:
        line.append(f"; {unknown} unknown", LABEL)
    return line


def verdicts_table(deltas: Sequence[MetricDelta], report: Report | None, tones: Tones) -> Table:
    """The tested family: the medians, Δ%, its 95 % CI, the adjusted p, n and the verdict
    (`PENDING` until `report` is known). Δ% is coloured by the verdict, not by its sign."""
    table = _table("metric", "Δ%", "95% CI", "p adj", "n")
    # The one column that may wrap ("insufficient data") on a narrow terminal.
    table.add_column("B is")
    for d in sorted((d for d in deltas if d.name in TESTED), key=lambda d: TESTED.index(d.name)):
        verdict = report.verdict_of(d.name) if report else None
        if verdict is None:
            delta_pct = Text(fmt_delta_pct(d.delta_pct), LABEL)
            table.add_row(*_values(d), delta_pct, *[Text(PENDING, LABEL)] * 4)
            continue
        c = verdict.comparison
        style = verdict_style(c.verdict, tones)
        table.add_row(
            *_values(d),
            Text(fmt_delta_pct(c.delta_pct), style),
            Text(fmt_ci(c.ci_low_pct, c.ci_high_pct), style),
            fmt_p(c.p_adjusted),
            Text(fmt_n(c), LABEL),
            Text(c.verdict, style),
        )
    return table


def others_table(deltas: Sequence[MetricDelta], tones: Tones) -> Table:
    """The metrics outside the family with their plain change of the medians, coloured by
    its direction (dim within 2 %). No word: better and worse are what the tests say."""
    table = _table("not tested", "Δ", "Δ%")
    for d in deltas:
        if d.name in TESTED:
            continue
        style = verdict_style(d.change, tones)
        table.add_row(
            *_values(d),
            Text(fmt_delta(d.unit, d.delta), style),
            Text(fmt_delta_pct(d.delta_pct), style),
        )
    return table


def _table(first: str, *numbers: str) -> Table:
    table = Table(box=None, padding=(0, 1, 0, 0), pad_edge=False, header_style="bold")
    table.add_column(first, style=LABEL, no_wrap=True)
    table.add_column(mark("A"), justify="right", no_wrap=True)
    table.add_column(mark("B"), justify="right", no_wrap=True)
    for header in numbers:
        table.add_column(header, justify="right", no_wrap=True)
    return table


def _values(d: MetricDelta) -> list[str]:
    return [d.label, fmt_value(d.unit, d.a), fmt_value(d.unit, d.b)]


def notes_text(report: Report | None) -> Text:
    if report is None:
        return Text("testing the metrics run by run…", LABEL)
    return Text("\n").join(Text(f"• {note}") for note in report.notes)


def differences_table(differences: Sequence[Difference]) -> Table | Text:
    if not differences:
        return Text(
            "tool, version, flags, protocol, load, URL, body size, host and server all match",
            LABEL,
        )
    table = Table(box=None, padding=(0, 1), expand=True, header_style="bold")
    table.add_column("", style=LABEL, no_wrap=True)
    table.add_column(mark("A"), overflow="fold", ratio=1)
    table.add_column(mark("B"), overflow="fold", ratio=1)
    for diff in differences:
        table.add_row(diff.label, _value(diff.a), _value(diff.b))
    return table


def _value(value: str | None) -> Text:
    return Text("unknown", "italic dim") if value is None else Text(value)


def chart_note(a: Side, b: Side) -> str:
    """Which run a sweep point's line is."""
    points = [letter for letter, side in (("A", a), ("B", b)) if side.is_point]
    return f"first run of {' and '.join(points)}" if points else ""
