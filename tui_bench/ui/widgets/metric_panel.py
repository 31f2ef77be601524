"""One bordered panel: a few lines of figures and labelled 1-row sparklines.

Every panel of the live screen is one of these; they differ only in what they are fed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from rich.cells import cell_len
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
        &.-expanded > .spark { height: 1fr; }
        &.-expanded > .spark > Sparkline { height: 1fr; }
    }
    """

    def __init__(
        self, title: str, *, sparklines: Mapping[str, Callable[[float], str]] | None = None, id: str
    ) -> None:
        """`sparklines`: each one's name, and how its greatest value is written beside it."""
        # Its focus is marked by the app's `.framed` rule.
        super().__init__(id=id, classes="framed")
        self._title = self.border_title = title
        self._sparklines = dict(sparklines or {})
        # The last note set: reading border_subtitle back builds its markup each time.
        self._note: str | None = None

    def compose(self) -> ComposeResult:
        yield SteadyStatic(classes="body")
        for name in self._sparklines:
            with Horizontal(classes="spark"):
                yield Label(name)
                yield ZeroSparkline([], name=name)
                yield Label("", classes=f"top -{_css_name(name)}", name=name)

    def show(
        self,
        body: Text,
        series: Mapping[str, list[float]] | None = None,
        *,
        title: str | None = None,
        note: str | None = None,
        shown: Mapping[str, float | None] | None = None,
    ) -> None:
        """`series`: each sparkline's values, when they changed; `shown`: the greatest
        figure of each sparkline's kind the body shows, which its scale reaches too, so
        its `≤` label is never below a figure beside it. `title` and `note` go on the top
        and the bottom border: set only when they change, for setting either repaints the
        whole panel, border and all, even with the same words."""
        self.query_one(".body", SteadyStatic).show(body)
        if title is not None and title != self._title:
            self._title = self.border_title = title
        if note is not None and note != self._note:
            self._note = self.border_subtitle = note
        for spark in self.query(ZeroSparkline):
            name = spark.name
            if name is None:
                continue
            if series is not None and name in series:
                # A new list: Sparkline only notices that, not a changed one.
                spark.data = list(series[name])
            figure = (shown or {}).get(name)
            spark.top = max(
                [*(spark.data or []), *([figure] if figure is not None else [])], default=0.0
            )
            top = self.query_one(f".top.-{_css_name(name)}", Label)
            text = f"≤{self._sparklines[name](spark.top)}" if spark.data else ""
            shown_text = str(top.content)
            if text != shown_text:
                # Sized by its text: a layout pass (of the whole screen) only when its width
                # changes, not when its figure does.
                top.update(text, layout=cell_len(text) != cell_len(shown_text))


def _css_name(name: str) -> str:
    return "".join(c if c.isalnum() else "-" for c in name)
