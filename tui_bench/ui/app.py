"""The Textual app: the live monitor of one run (and of its re-runs)."""

from __future__ import annotations

from textual.app import App

from tui_bench.engine.events import RunFinished
from tui_bench.errors import UsageError
from tui_bench.spec import RunSpec
from tui_bench.ui.live_screen import EngineFactory, LiveScreen


class TuibenchApp(App[int]):
    """Returns the run's exit status (0 completed, 1 failed, 130 interrupted)."""

    TITLE = "tuibench"
    # Its footer hint takes room the keys need at 80 columns; every action has a key.
    ENABLE_COMMAND_PALETTE = False
    # On the app: a default screen's own CSS_PATH is not loaded.
    CSS_PATH = "live_screen.tcss"

    def __init__(
        self,
        spec: RunSpec,
        engine_factory: EngineFactory,
        *,
        tool_label: str,
        basic: bool = False,
        theme: str | None = None,
    ) -> None:
        super().__init__()
        if theme is not None:
            if theme not in self.available_themes:
                names = ", ".join(sorted(self.available_themes))
                raise UsageError(f"unknown theme {theme!r}: choose one of {names}")
            self.theme = theme
        self.live = LiveScreen(spec, engine_factory, tool_label=tool_label, basic=basic)

    @property
    def finished(self) -> RunFinished | None:
        """How the last run ended; None if the app was left before any run ended."""
        return self.live.state.finished

    async def action_quit(self) -> None:
        # ctrl+q too must not drop a going run unsaved: it asks, like q.
        self.live.action_quit_run()

    def get_default_screen(self) -> LiveScreen:
        return self.live
