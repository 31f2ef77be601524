"""One bordered panel: a few lines of figures and labelled 1-row sparklines.

Every panel of the live screen is one of these; they differ only in what they are fed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Label

from tui_bench.ui.widgets.steady_static import SteadyStatic
from tui_bench.ui.widgets.zero_sparkline import ZeroSparkline


class MetricPanel(Vertical, can_focus=True):
    DEFAULT_CSS = """
    MetricPanel {
        border: round $primary-darken-1;
        border-title-color: $text;
        height: 1fr;
        padding: 0 1;
        overflow: hidden hidden;
        &.-alert { border: round $error; }
        & > .body { height: auto; }
        & > .spark { height: 1; }
        & > .spark > Label { width: 6; color: $text-muted; }
        & > .spark > Sparkline { width: 1fr; height: 1; }
        & > .spark > .top { width: auto; min-width: 5; padding-left: 1; color: $text-muted; }
        &.-expanded > .spark { height: 1fr; max-height: 8; }
        &.-expanded > .spark > Sparkline { height: 1fr; }
    }
    """

    def __init__(
        self, title: str, *, sparklines: Mapping[str, Callable[[float], str]] | None = None, id: str
    ) -> None:
        """`sparklines`: each one's name, and how its greatest value is written beside it."""
        # Its focus is marked by the app's `.framed` rule.
        super().__init__(id=id, classes="framed")
        self.border_title = title
        self._sparklines = dict(sparklines or {})
        # The last note set: reading border_subtitle back builds its markup each time.
        self._note: str | None = None

    def compose(self) -> ComposeResult:
        yield SteadyStatic(classes="body")
        for name in self._sparklines:
            with Horizontal(classes="spark"):
                yield Label(name)
                yield ZeroSparkline([], name=name)
                yield Label("", classes="top", name=name)

    def show(
        self,
        body: Text,
        series: Mapping[str, list[float]] | None = None,
        *,
        note: str | None = None,
    ) -> None:
        """`note` goes on the bottom border (set only when it changes: it repaints the
        border)."""
        self.query_one(".body", SteadyStatic).show(body)
        if note is not None and note != self._note:
            self._note = self.border_subtitle = note
        if series is None:
            return
        for spark in self.query(ZeroSparkline):
            if spark.name is not None and spark.name in series:
                # A new list: Sparkline only notices that, not a changed one.
                spark.data = list(series[spark.name])
        for top in self.query(".top").results(Label):
            if top.name is not None and top.name in series:
                values = series[top.name]
                text = f"≤{self._sparklines[top.name](max(values))}" if values else ""
                if text != top.content:
                    top.update(text)
