"""The replay screen: the live monitor's panels fed from a saved session instead of a process.

A Player (engine/replay) holds the position and the state there; a playback timer moves the
position by the time passed times the speed, and the monitor's paint timer paints the state
as it would a live run's, only when something changed.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

from textual.binding import Binding, BindingType

from tui_bench.analysis.compare import session_title
from tui_bench.engine.live_state import LiveState
from tui_bench.engine.replay import Player, timeline
from tui_bench.errors import SessionError
from tui_bench.runners.tools import tool_label
from tui_bench.spec import RunSpec
from tui_bench.storage.session import Session
from tui_bench.ui.screens.monitor_screen import (
    CHART,
    EXPAND,
    HELP,
    LOG,
    NUMBERS_HZ,
    THEME,
    ZOOM,
    MonitorScreen,
)
from tui_bench.ui.text import replay_text
from tui_bench.ui.widgets.steady_static import SteadyStatic

# Playback speeds, None for max: the whole session in about MAX_PLAY_S, never slower than
# MAX_AT_LEAST times real time.
SPEEDS = (1.0, 2.0, 5.0, 10.0, None)
SPEED_LABELS = tuple("max" if s is None else f"{s:g}x" for s in SPEEDS)
SPEED_KEYS = ("1", "2", "5", "0", "m")
MAX_PLAY_S = 5.0
MAX_AT_LEAST = 20.0

PLAYBACK_ACTIONS = frozenset({"toggle_play", "seek", "jump", "speed", "step_speed"})
SEEK = Binding.Group("Seek", compact=True)
SPEED = Binding.Group("Speed", compact=True)
QUIT = Binding("q", "back", "Back", tooltip="back (quit when opened from the command line)")
# Sessions older than `raw_times` show the whole output from the start.
LOG_TIMED = "Tool output (each line when it was printed)"
LOG_UNTIMED = "Tool output (whole run: lines are not timed)"


def _about(keys: str, what: str) -> Binding:
    """A line of the key help that stands for several bindings."""
    return Binding(keys, "", key_display=keys, tooltip=what)


KEY_HELP = (
    _about("space", "play / pause (at the end: play again)"),
    _about("← →", "back / forward 1 s"),
    _about("⇧← ⇧→ [ ]", "back / forward 10 s"),
    _about("pgup pgdn < >", "back / forward 1 minute"),
    _about("{ }", "back / forward 1 hour"),
    _about("home end", "to the start / the end"),
    _about("- +", "slower / faster"),
    _about(
        " ".join(SPEED_KEYS),
        f"speed {' '.join(SPEED_LABELS)} (max: all in {MAX_PLAY_S:g} s)",
    ),
    QUIT,
    EXPAND,
    LOG,
    CHART,
    ZOOM,
    THEME,
    HELP,
)


@dataclass(frozen=True)
class Title:
    """What the header says the session was."""

    session: str
    tool_label: str


class ReplayScreen(MonitorScreen):
    # Help lists the keys of one kind on one line (KEY_HELP); the footer shows the main ones.
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("space", "toggle_play", "Play"),
        Binding("left", "seek(-1)", "-1 s", key_display="←", group=SEEK, priority=True),
        Binding("right", "seek(1)", "+1 s", key_display="→", group=SEEK, priority=True),
        Binding("shift+left,left_square_bracket", "seek(-10)", "-10 s", show=False, priority=True),
        Binding("shift+right,right_square_bracket", "seek(10)", "+10 s", show=False, priority=True),
        Binding("pageup,less_than_sign", "seek(-60)", "-1 min", show=False, priority=True),
        Binding("pagedown,greater_than_sign", "seek(60)", "+1 min", show=False, priority=True),
        Binding("left_curly_bracket", "seek(-3600)", "-1 h", show=False, priority=True),
        Binding("right_curly_bracket", "seek(3600)", "+1 h", show=False, priority=True),
        Binding("home", "jump(False)", "Start", show=False, priority=True),
        Binding("end", "jump(True)", "End", show=False, priority=True),
        Binding("minus", "step_speed(-1)", "Slower", key_display="-", group=SPEED),
        Binding("plus", "step_speed(1)", "Faster", key_display="+", group=SPEED),
        *(
            Binding(key, f"speed({i})", label, show=False)
            for i, (key, label) in enumerate(zip(SPEED_KEYS, SPEED_LABELS, strict=True))
        ),
        QUIT,
        EXPAND,
        LOG,
        CHART,
        ZOOM,
        THEME,
        HELP,
    ]

    def __init__(
        self,
        session: Session,
        *,
        basic: bool,
        path: Path | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        # The spec is read with the rest of the session, off the event loop; none until then.
        super().__init__(LiveState(RunSpec(urls=())), basic=basic)
        self.session = session
        self.path = path
        self.player: Player | None = None
        self.playing = False
        self.speed_index = 0
        self._title = Title(session_title(session), "")
        self._note: str | None = "loading…"
        self._clock = clock
        self._played_until = 0.0

    @property
    def position(self) -> float:
        return self.player.position if self.player else 0.0

    @property
    def length(self) -> float:
        return self.player.timeline.length_s if self.player else 0.0

    @property
    def speed(self) -> float:
        speed = SPEEDS[self.speed_index]
        return speed if speed is not None else max(MAX_AT_LEAST, self.length / MAX_PLAY_S)

    @property
    def speed_label(self) -> str:
        return SPEED_LABELS[self.speed_index]

    def begin(self) -> None:
        self.set_interval(1 / NUMBERS_HZ, self.advance)
        self.run_worker(self._load(), name="load", exclusive=True)

    async def _load(self) -> None:
        try:
            player, title = await asyncio.to_thread(_open, self.session, self.path)
        except SessionError as exc:
            self._note = f"cannot replay: {exc}"
            self.notify(str(exc), severity="error", timeout=10)
            self.mark_dirty()
            return
        self.player, self._title, self._note = player, title, None
        self.query_one("#log").border_title = (
            LOG_TIMED if player.timeline.lines_timed else LOG_UNTIMED
        )
        self.show_state(player.state)
        self.refresh_bindings()
        self.play()

    # Playback

    def play(self) -> None:
        if self.player is None or not self.player.timeline.playable:
            return
        if self.player.at_end:
            self.seek_to(0.0)
        self.playing = True
        self._played_until = self._clock()
        self.mark_dirty()

    def pause(self) -> None:
        self.playing = False
        self.mark_dirty()

    def advance(self) -> None:
        """The playback clock: move by the time passed since the last tick, times the speed."""
        if not self.playing or self.player is None:
            return
        now = self._clock()
        self._move_to(self.position + (now - self._played_until) * self.speed)
        self._played_until = now

    def seek_to(self, t: float) -> None:
        """A move asked for: painted at the next tick, not with the next second played."""
        self._move_to(t)
        self.mark_dirty()

    def _move_to(self, t: float) -> None:
        player = self.player
        if player is None:
            return
        player.seek(t)
        if player.state is not self.state:
            # Moving back rebuilt the state: everything is painted afresh.
            self.show_state(player.state)
        if self.playing and player.at_end:
            # Stopped at the end, as a finished run: the summary shows.
            self.pause()

    # Painting

    def paint_header(self) -> None:
        title = self._title
        self.query_one("#header", SteadyStatic).show(
            replay_text.replay_header(
                self.state,
                session=title.session,
                tool_label=title.tool_label,
                position=self.position,
                length=self.length,
                speed=self.speed_label,
                playing=self.playing,
                note=self._note,
            )
        )

    # Actions

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in PLAYBACK_ACTIONS and not (self.player and self.player.timeline.playable):
            return None  # shown greyed out: nothing to play
        return True

    def action_toggle_play(self) -> None:
        if self.playing:
            self.pause()
        else:
            self.play()

    def action_seek(self, seconds: float) -> None:
        self.seek_to(self.position + seconds)

    def action_jump(self, to_end: bool) -> None:
        self.seek_to(self.length if to_end else 0.0)

    def action_speed(self, index: int) -> None:
        self.speed_index = index
        self.mark_dirty()

    def action_step_speed(self, step: int) -> None:
        self.action_speed(min(max(self.speed_index + step, 0), len(SPEEDS) - 1))

    def action_back(self) -> None:
        self.leave(0)

    def help_keys(self) -> list[Binding]:
        return list(KEY_HELP)


def _open(session: Session, path: Path | None) -> tuple[Player, Title]:
    """The session's timeline and title; reading every sample takes a while on long runs."""
    tl = timeline(session, path)
    tool = session.part("tool")
    label = tool_label(tool.get("name"), tool.get("version"))
    return Player(tl), Title(session_title(session), label)
