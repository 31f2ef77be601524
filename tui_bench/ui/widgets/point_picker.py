"""Which point of a sweep stands for a side of a comparison: a modal list of the sweep's
points, each with its req/s and p99 (the medians of its completed runs, as the comparison
takes them) and its runs. Enter picks, escape cancels the comparison.

The points are named as `tuibench compare ID@POINT` names them (`significance.point_refs`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import DataTable, Static

from tui_bench.analysis.compare import METRICS, fmt_value, session_title
from tui_bench.analysis.significance import Side, median_of, point_refs, side_of
from tui_bench.printable import printable
from tui_bench.storage.session import Session
from tui_bench.ui.widgets.dialogs import DIALOG_CSS

RPS, P99 = (next(m for m in METRICS if m.name == name) for name in ("rps", "p99_s"))
ROLES = {"A": "A, the baseline", "B": "B, compared with A"}


@dataclass(frozen=True)
class PointChoice:
    """One point of a sweep as the picker lists it; `ref` is how `ID@POINT` names it (None
    for a single run)."""

    ref: str | None
    side: Side
    rps: float | None
    p99_s: float | None

    @classmethod
    def of(cls, side: Side, ref: str | None = None) -> PointChoice:
        """A point is listed by its figures as every view shows them (records.sweep_point);
        a single run by its own."""
        summary = side.summary
        if summary is None:
            return cls(ref, side, median_of(RPS, side), median_of(P99, side))
        return cls(ref, side, summary.rps_figure, summary.latency_figure("p99_s"))


def point_choices(session: Session) -> list[PointChoice]:
    """Every point of a sweep, in the plan's order. It reads every run's result: call it
    off the event loop."""
    return [PointChoice.of(side_of(session, ref), ref) for ref in point_refs(session)]


class PointPicker(ModalScreen[PointChoice | None]):
    """Asks which point of a sweep is side `letter` ("A" or "B"); dismissed with the
    chosen point, or None when the comparison is cancelled. `taken` is the point already
    picked as A when B comes from the same sweep: it is marked and cannot be B too."""

    DEFAULT_CSS = (
        DIALOG_CSS.format(name="PointPicker")
        + """
    PointPicker DataTable { height: auto; max-height: 12; margin: 1 0; }
    PointPicker .hint { color: $text-muted; }
    """
    )
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(
        self,
        session: Session,
        choices: Sequence[PointChoice],
        letter: str,
        *,
        taken: str | None = None,
    ) -> None:
        super().__init__()
        self.session = session
        self.choices = tuple(choices)
        self.letter = letter
        self.taken = taken

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(
                Text.assemble(
                    "Compare: which point of ",
                    (session_title(self.session), "bold"),
                    f" is {ROLES.get(self.letter, self.letter)}?",
                )
            )
            yield DataTable[Text](cursor_type="row", zebra_stripes=True, id="points")
            yield Static(
                "req/s and p99: the medians of the point's completed runs\n"
                f"↑↓ choose · enter picks {self.letter} · escape cancels the comparison",
                classes="hint",
            )

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        if self.taken is not None:
            table.add_column(" ", key="mark")
        table.add_column("point", key="point")
        table.add_column(Text("req/s", justify="right"), key="rps")
        table.add_column(Text("p99", justify="right"), key="p99")
        table.add_column("runs", key="runs")
        for choice in self.choices:
            cells = [
                Text(choice.ref or "", "bold"),
                Text(fmt_value(RPS.unit, choice.rps), justify="right"),
                Text(fmt_value(P99.unit, choice.p99_s), justify="right"),
                Text(choice.side.runs_label),
            ]
            if self.taken is not None:
                cells.insert(0, Text("A", "bold reverse") if choice.ref == self.taken else Text(""))
            table.add_row(*cells, key=choice.ref)
        # B of the same sweep as A: start on the point after A's.
        refs = [choice.ref for choice in self.choices]
        if self.taken in refs:
            table.move_cursor(row=(refs.index(self.taken) + 1) % len(refs))
        table.focus()

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        choice = self.choices[event.cursor_row]
        if choice.ref == self.taken:
            self.notify(
                printable(f"{choice.ref} is A already: pick another point for B"),
                severity="warning",
                markup=False,
            )
            return
        self.dismiss(choice)

    def action_cancel(self) -> None:
        self.dismiss(None)
