"""`tuibench` with no command: the recent sessions beside a new-run form."""

from __future__ import annotations

import asyncio
from importlib import import_module
from pathlib import Path
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Container, Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import Footer, Static

from tui_bench.report.column_fit import COMPACT_DROP_ORDER
from tui_bench.storage.layout import sessions_dir
from tui_bench.ui.messages import OpenReplay, OpenSessions
from tui_bench.ui.widgets.form_width import WIDE_CLASS, WIDE_FROM
from tui_bench.ui.widgets.session_table import COMPACT_COLUMNS, SessionTable

RECENT = 12
HINT = "enter replay · s all sessions"
EMPTY = "none yet: n starts a run"


class HomeScreen(Screen[None]):
    HORIZONTAL_BREAKPOINTS = [  # noqa: RUF012 (Textual types it as a plain list)
        (0, "-narrow"),
        # The form as wide as the screen but for its box's border; from 120 columns on it has
        # half of them, too few for its wide layout.
        (WIDE_FROM + 2, WIDE_CLASS),
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
    HomeScreen #recent-box { height: 8; }
    HomeScreen.-wide #recent-box { height: 1fr; width: 1fr; }
    HomeScreen #form-box { height: 1fr; }
    HomeScreen.-wide #form-box { width: 1fr; }
    HomeScreen #recent-sessions { height: 1fr; }
    """
    # Not a text field: a newcomer's first `?` opens the help and `q` quits.
    AUTO_FOCUS = "#recent-sessions"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "new_run", "New run", tooltip="to the run form's URL (outside the form)"),
        Binding("s", "sessions", "Sessions", tooltip="browse every session (outside the form)"),
        Binding("q", "quit", "Quit", tooltip="leave tuibench (outside the form)"),
        Binding("escape", "to_recent", "Recent", tooltip="from the form to the recent sessions"),
        Binding("question_mark", "help", "Help", key_display="?", tooltip="this help"),
    ]

    def compose(self) -> ComposeResult:
        yield Static(id="title")
        with Container(id="body"):
            with Vertical(id="recent-box", classes="box framed"):
                yield SessionTable(
                    self._directory(),
                    columns=COMPACT_COLUMNS,
                    drop=COMPACT_DROP_ORDER,
                    limit=RECENT,
                    id="recent-sessions",
                )
            # The form is mounted once the first frame is up: it is most of the screen's
            # widgets, and styling and laying them out held that frame back.
            yield Vertical(id="form-box", classes="box framed")
        yield Footer()

    def __init__(self) -> None:
        super().__init__()
        self._form_mounted = asyncio.Event()
        self._left = False

    def _directory(self) -> Path:
        # The app's store when it names one (tests do), else the user's.
        return getattr(self.app, "sessions_dir", None) or sessions_dir()

    def on_mount(self) -> None:
        self.query_one("#title", Static).update(
            f"[b]tuibench[/b]  sessions in {self._directory()}  ·  n: new run  ·  esc: recent"
        )
        recent = self.query_one("#recent-box")
        recent.border_title = "Recent sessions"
        recent.border_subtitle = HINT
        form = self.query_one("#form-box")
        form.border_title = "New run"
        form.border_subtitle = "ctrl+s start"
        self.call_after_refresh(self._mount_form)

    async def _mount_form(self) -> None:
        # Its module too comes after the first frame (it imports what every field reads),
        # off the event loop: the recent sessions take keys meanwhile.
        await asyncio.to_thread(import_module, "tui_bench.ui.widgets.run_form")
        from tui_bench.ui.widgets.run_form import RunForm

        await self.query_one("#form-box").mount(RunForm(id="form"))
        self._form_mounted.set()

    async def settled(self) -> None:
        """Once the form is mounted: leaving the app while it mounts would remove its
        widgets (Textual's own among them) in the middle of their mounting."""
        await self._form_mounted.wait()

    def on_screen_suspend(self) -> None:
        # Handled once the screen that covers this one is the app's.
        self._left = not isinstance(self.app.screen, ModalScreen)

    def on_screen_resume(self) -> None:
        # Back from a run: its session is the newest.
        self.query_one(SessionTable).reload_if_changed()
        # A dialog (help, a secret asked for) gives the focus back to the field it was asked
        # from. Back from a run, a sweep, a replay or the browser the screen starts over as the
        # first time, on the recent sessions: a `q` left in the form would replace its URL.
        if self._left:
            self._left = False
            self.action_to_recent()

    def on_session_table_loaded(self, event: SessionTable.Loaded) -> None:
        # Back from the first run, the store is no longer empty.
        self.query_one("#recent-box").border_subtitle = HINT if event.count else EMPTY

    def on_session_table_picked(self, event: SessionTable.Picked) -> None:
        event.stop()
        self.post_message(OpenReplay(event.path))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # In the form a letter is typed (or meant for a field): the screen's letters act
        # only outside it, and escape leads out.
        in_form = any(form.has_focus_within for form in self.query("#form"))
        if action in ("sessions", "quit", "new_run"):
            return not in_form
        if action == "to_recent":
            return in_form
        return True

    def action_to_recent(self) -> None:
        self.query_one(SessionTable).focus()

    async def action_new_run(self) -> None:
        # Pressed as the screen opens, it waits for the form rather than doing nothing.
        await self._form_mounted.wait()
        self.query_one("#urls").focus()

    def action_sessions(self) -> None:
        self.post_message(OpenSessions())

    async def action_quit(self) -> None:
        await self.app.action_quit()

    def action_help(self) -> None:
        from tui_bench.ui.widgets.dialogs import HelpScreen
        from tui_bench.ui.widgets.run_form import RunForm

        keys = [*SessionTable.BINDINGS, *RunForm.BINDINGS, *self.BINDINGS]
        self.app.push_screen(HelpScreen(b for b in keys if isinstance(b, Binding)))
