"""Tones: the colours of errors, warnings and successes taken from a theme, and the words of
the monitor screens painted with them."""

from __future__ import annotations

import gc
import weakref
from pathlib import Path

from rich.text import Text
from textual.app import App
from textual.screen import Screen

from tui_bench.engine.events import (
    RunFinished,
    SecondClosed,
)
from tui_bench.engine.live_state import LiveState
from tui_bench.records.warning import Warning
from tui_bench.spec import RunSpec
from tui_bench.ui.text import monitor_text, result_text
from tui_bench.ui.themes import load_themes
from tui_bench.ui.tones import ANSI, Tones, follow_theme, validity_text, verdict_style


def styles_at(text: Text, needle: str) -> list[str]:
    """The styles of the spans over the first character of `needle` in `text`, the Text's own
    style first."""
    at = text.plain.index(needle)
    spans = [str(span.style) for span in text.spans if span.start <= at < span.end]
    return [str(text.style), *spans] if text.style else spans


def theme_variables(name: str) -> dict[str, str]:
    """The CSS variables of a built-in theme, as the app makes them."""
    (theme,) = (t for t in load_themes().themes if t.name == name)
    return {**theme.to_color_system().generate(), **theme.variables}


def test_tones_are_the_themes_readable_text_shades() -> None:
    dark, light = (
        Tones.of(theme_variables("tuibench-dark")),
        Tones.of(theme_variables("tuibench-light")),
    )
    assert dark.error != light.error and dark.warning != light.warning
    assert dark.success != light.success
    variables = theme_variables("tuibench-light")
    assert light == Tones(
        error=variables["text-error"].lower(),
        warning=variables["text-warning"].lower(),
        success=variables["text-success"].lower(),
    )
    # Not the theme's base colours: those are for backgrounds and borders.
    assert light.error != variables["error"].lower()


def test_a_shade_rich_cannot_take_leaves_the_terminals_colour() -> None:
    tones = Tones.of({"text-error": "auto 60%", "text-warning": "ansi_bright_yellow"})
    assert tones == Tones(error=ANSI.error, warning="color(11)", success=ANSI.success)


def test_the_words_take_their_colours_from_the_tones() -> None:
    tones = Tones.of(theme_variables("tuibench-256"))
    state = LiveState(RunSpec(urls=("http://127.0.0.1:8080/",)))
    row = {"t_s": 0, "rps": 100.0, "good_rps": 97.0, "errors": 3, "2xx": 97, "5xx": 3, "n": 100}
    state.apply(SecondClosed(row))
    warned = Warning("same-machine", "the load generator runs on the server's box")
    state.apply(warned)
    assert f"bold {tones.error}" in styles_at(monitor_text.status(state, tones), "errors 3")
    assert f"bold {tones.warning}" in styles_at(monitor_text.warnings(state, tones), "! ")
    state.apply(RunFinished("completed", 0, None, Path("run.json"), None, warnings=(warned,)))
    assert tones.warning in styles_at(result_text.summary(state, tones), "warning ")
    # The same state in other tones: only the colours differ.
    for words in (monitor_text.status, monitor_text.warnings, result_text.summary):
        assert words(state, ANSI).plain == words(state, tones).plain
        assert words(state, ANSI) != words(state, tones)


class Following(Screen[None]):
    def __init__(self) -> None:
        super().__init__()
        self.painted: list[Tones] = []

    def on_mount(self) -> None:
        follow_theme(self, self._retone)

    def _retone(self, tones: Tones) -> None:
        self.painted.append(tones)


async def test_a_closed_screen_is_not_kept_alive_by_following_the_theme() -> None:
    app = App[None]()
    async with app.run_test() as pilot:
        screen = Following()
        await app.push_screen(screen)
        app.theme = "textual-light"
        await pilot.pause()
        assert len(screen.painted) == 1  # it follows while it is shown
        gone = weakref.ref(screen)
        app.pop_screen()
        await pilot.pause()
        del screen
        gc.collect()
        assert gone() is None


def test_every_verdict_takes_one_style_wherever_it_is_shown() -> None:
    tones = Tones(success="#00ff00", error="#ff0000", warning="#ffff00")
    loud_error = f"bold {tones.error}"
    assert [verdict_style(v, tones) for v in ("invalid", "worse", "fail")] == [loud_error] * 3
    assert verdict_style("suspect", tones) == tones.warning
    assert verdict_style("likely worse", tones) == tones.error
    assert verdict_style("better", tones) == f"bold {tones.success}"
    assert verdict_style("likely better", tones) == verdict_style("pass", tones) == tones.success
    for quiet in ("valid", "same", "no difference", "insufficient data", None):
        assert verdict_style(quiet, tones) == "dim"
    assert validity_text("invalid", tones).plain == "INVALID"
    assert validity_text("suspect", tones).style == tones.warning
