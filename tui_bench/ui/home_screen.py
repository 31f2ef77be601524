"""`tuibench` with no command: the recent sessions beside a new-run form."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Container, Vertical
from textual.screen import Screen
from textual.widgets import Footer, Static

from tui_bench.storage.store import sessions_dir
from tui_bench.ui.messages import OpenReplay, OpenSessions
from tui_bench.ui.widgets.dialogs import HelpScreen
from tui_bench.ui.widgets.run_form import RunForm
from tui_bench.ui.widgets.session_table import COMPACT_COLUMNS, SessionTable

RECENT = 12
HINT = "enter replay · s all sessions"
EMPTY = "none yet: start a run →"


class HomeScreen(Screen[None]):
    HORIZONTAL_BREAKPOINTS = [  # noqa: RUF012 (Textual types it as a plain list)
        (0, "-narrow"),
        (120, "-wide"),
    ]
    DEFAULT_CSS = """
    HomeScreen { layout: vertical; }
    HomeScreen > #title { height: 1; padding: 0 1; background: $boost; }
    HomeScreen > #body { height: 1fr; layout: vertical; }
    HomeScreen.-wide > #body { layout: horizontal; }
    HomeScreen .box {
        border: round $primary-darken-1;
        border-title-color: $text;
        border-subtitle-color: $text-muted;
    }
    HomeScreen .box:focus-within { border: round $accent; }
    HomeScreen #recent-box { height: 8; }
    HomeScreen.-wide #recent-box { height: 1fr; width: 1fr; }
    HomeScreen #form-box { height: 1fr; }
    HomeScreen.-wide #form-box { width: 1fr; }
    HomeScreen #recent-sessions { height: 1fr; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("s", "sessions", "Sessions", tooltip="browse every session (outside a field)"),
        Binding("q", "quit", "Quit", tooltip="leave tuibench (outside a text field)"),
        Binding("question_mark", "help", "Help", key_display="?", tooltip="this help"),
    ]

    def compose(self) -> ComposeResult:
        yield Static(id="title")
        with Container(id="body"):
            with Vertical(id="recent-box", classes="box"):
                yield SessionTable(
                    self._directory(), columns=COMPACT_COLUMNS, limit=RECENT, id="recent-sessions"
                )
            with Vertical(id="form-box", classes="box"):
                yield RunForm(id="form")
        yield Footer()

    def _directory(self) -> Path:
        # The app's store when it names one (tests do), else the user's.
        return getattr(self.app, "sessions_dir", None) or sessions_dir()

    def on_mount(self) -> None:
        self.query_one("#title", Static).update(
            f"[b]tuibench[/b]  sessions in {self._directory()}  ·  tab: next pane"
        )
        recent = self.query_one("#recent-box")
        recent.border_title = "Recent sessions"
        recent.border_subtitle = HINT
        form = self.query_one("#form-box")
        form.border_title = "New run"
        form.border_subtitle = "ctrl+s start"

    def on_screen_resume(self) -> None:
        # Back from a run: its session is the newest.
        self.query_one(SessionTable).reload_if_changed()

    def on_session_table_loaded(self, event: SessionTable.Loaded) -> None:
        # Back from the first run, the store is no longer empty.
        self.query_one("#recent-box").border_subtitle = HINT if event.count else EMPTY

    def on_session_table_picked(self, event: SessionTable.Picked) -> None:
        event.stop()
        self.post_message(OpenReplay(event.path))

    def action_sessions(self) -> None:
        self.post_message(OpenSessions())

    async def action_quit(self) -> None:
        await self.app.action_quit()

    def action_help(self) -> None:
        keys = [*SessionTable.BINDINGS, *RunForm.BINDINGS, *self.BINDINGS]
        self.app.push_screen(HelpScreen(b for b in keys if isinstance(b, Binding)))
