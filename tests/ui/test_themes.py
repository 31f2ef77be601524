"""Colour themes: the TOML loader on good and bad files, and the app that registers them."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest
from textual.app import ComposeResult
from textual.notifications import SeverityLevel
from textual.screen import Screen
from textual.widgets import Static

from tui_bench.errors import UsageError
from tui_bench.ui import themes
from tui_bench.ui.app import TuibenchApp
from tui_bench.ui.themes import DEFAULT_THEME, load_themes, user_themes_dir

BUILTIN = ("tuibench-256", "tuibench-dark", "tuibench-light")
GOOD = """
name = "ocean"
primary = "#2080c0"
background = "#001020"
dark = true
[variables]
footer-key-foreground = "#ffcc00"
block-cursor-text-style = "bold"
"""
# The xterm 256-colour palette past the 16 system colours a terminal may redefine.
LEVELS = (0, 95, 135, 175, 215, 255)
PALETTE = {f"#{r:02x}{g:02x}{b:02x}" for r in LEVELS for g in LEVELS for b in LEVELS} | {
    f"#{v:02x}{v:02x}{v:02x}" for v in range(8, 239, 10)
}


@pytest.fixture(autouse=True)
def config_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The user's themes come from a fresh config dir, never the real one."""
    home = tmp_path / "config"
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home))
    return home


def user_theme(filename: str, text: str) -> Path:
    directory = user_themes_dir()
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / filename
    path.write_text(text, encoding="utf-8")
    return path


# Loading, without an app


def test_the_builtin_themes_load_without_problems() -> None:
    loaded = load_themes()
    assert loaded.problems == ()
    assert sorted(loaded.names) == list(BUILTIN)
    light = next(t for t in loaded.themes if t.name == "tuibench-light")
    assert light.dark is False


def test_the_256_colour_theme_uses_only_palette_colours() -> None:
    path = themes.builtin_themes_dir() / "tuibench-256.toml"
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    colours = [data[f] for f in themes.COLOUR_FIELDS if f in data]
    colours += [v for k, v in data["variables"].items() if "style" not in k.split("-")]
    assert len(colours) > 10
    assert [c for c in colours if c.lower() not in PALETTE] == []


def test_a_wheel_installs_the_builtin_themes_where_they_are_looked_for() -> None:
    root = Path(__file__).parents[2]
    setuptools = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))["tool"][
        "setuptools"
    ]
    assert setuptools["data-files"] == {"/".join(themes.DATA_PARTS): ["themes/*.toml"]}
    assert themes.builtin_themes_dir() == root / "themes"


def test_user_themes_load_from_the_config_dir(config_home: Path) -> None:
    user_theme("ocean.toml", GOOD)
    loaded = load_themes()
    assert loaded.problems == ()
    ocean = next(t for t in loaded.themes if t.name == "ocean")
    assert ocean.primary == "#2080c0" and ocean.dark
    assert ocean.variables == {
        "footer-key-foreground": "#ffcc00",
        "block-cursor-text-style": "bold",
    }
    assert user_themes_dir() == config_home / "tuibench" / "themes"


def test_xdg_config_home_defaults_to_dot_config(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("XDG_CONFIG_HOME")
    monkeypatch.setenv("HOME", "/home/someone")
    assert user_themes_dir() == Path("/home/someone/.config/tuibench/themes")


def test_a_user_theme_replaces_a_builtin_one_of_the_same_name() -> None:
    user_theme("mine.toml", 'name = "tuibench-dark"\nprimary = "#ff0000"\n')
    loaded = load_themes()
    assert loaded.names.count("tuibench-dark") == 1
    dark = next(t for t in loaded.themes if t.name == "tuibench-dark")
    assert dark.primary == "#ff0000"


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ('name = "x"\nprimary = "#123456', "bad TOML"),
        ('primary = "#123456"', "missing field 'name'"),
        ('name = "x"', "missing field 'primary'"),
        ('name = "x"\nprimary = "#123456"\nprimray = "#000"', "unknown field 'primray'"),
        ('name = "x"\nprimary = "bluish"', "'primary': 'bluish' is not a colour"),
        ('name = "x"\nprimary = 12', "'primary': 12 is not a colour"),
        ('name = ""\nprimary = "#123456"', "'name' must be a non-empty string"),
        ('name = "x"\nprimary = "#123456"\ndark = "yes"', "'dark' must be true or false"),
        ('name = "x"\nprimary = "#123456"\ntext_alpha = 2', "'text_alpha' must be a number"),
        ('name = "x"\nprimary = "#123456"\nvariables = 3', "'variables' must be a table"),
        (
            'name = "x"\nprimary = "#123456"\n[variables]\nfooter-key-colour = "#fff"',
            "unknown variable 'footer-key-colour'",
        ),
        (
            'name = "x"\nprimary = "#123456"\n[variables]\nfooter-key-foreground = "nope"',
            "variable 'footer-key-foreground': 'nope' is not a valid value",
        ),
        (
            'name = "x"\nprimary = "#123456"\n[variables]\nlink-style = "wobbly"',
            "variable 'link-style': 'wobbly' is not a valid value",
        ),
    ],
)
def test_a_bad_file_gives_one_problem_and_the_others_still_load(text: str, reason: str) -> None:
    user_theme("broken.toml", text)
    user_theme("ocean.toml", GOOD)
    loaded = load_themes()
    assert len(loaded.problems) == 1
    problem = loaded.problems[0]
    assert problem.startswith("broken.toml: ") and reason in problem
    assert "\n" not in problem
    assert set(loaded.names) == {*BUILTIN, "ocean"}


def test_missing_builtin_themes_are_a_problem(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(themes, "builtin_themes_dir", lambda: tmp_path / "nowhere")
    user_theme("ocean.toml", GOOD)
    loaded = load_themes()
    assert loaded.names == ("ocean",)
    assert loaded.problems == (f"built-in themes not found in {tmp_path / 'nowhere'}",)


# The app


class Blank(Screen[None]):
    def compose(self) -> ComposeResult:
        yield Static("ready", id="ready")


class RecordingApp:
    """The app on a blank first screen, keeping every notification it shows."""

    def __init__(self, theme: str | None = None) -> None:
        self.app = TuibenchApp(lambda app: Blank(), theme=theme)
        self.notes: list[tuple[SeverityLevel, str]] = []
        show = self.app.notify

        def notify(message: str, *, severity: SeverityLevel = "information", **kw: Any) -> None:
            self.notes.append((severity, message))
            show(message, severity=severity, **kw)

        self.app.notify = notify  # type: ignore[method-assign]


async def test_the_default_theme_is_tuibench_dark_and_there_is_no_notification() -> None:
    recording = RecordingApp()
    app = recording.app
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.pause()
        assert app.theme == DEFAULT_THEME
        assert recording.notes == []


async def test_bad_files_give_one_warning_and_the_app_still_starts() -> None:
    # The value looks like markup: shown as markup, the notification itself would fail.
    user_theme("a-broken.toml", 'name = "x"\nprimary = "[/x]"')
    user_theme("b-broken.toml", "name = ")
    user_theme("ocean.toml", GOOD)
    recording = RecordingApp()
    app = recording.app
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        while not recording.notes:
            await pilot.pause()
        await pilot.pause()
        assert isinstance(app.screen, Blank)
        assert len(recording.notes) == 1
        severity, message = recording.notes[0]
        assert severity == "warning"
        lines = message.splitlines()
        assert len(lines) == 2
        assert lines[0].startswith("a-broken.toml: ") and "[/x]" in lines[0]
        assert lines[1].startswith("b-broken.toml: bad TOML")
        assert app.theme == DEFAULT_THEME
        assert "ocean" in app.available_themes


async def test_theme_names_a_user_theme() -> None:
    user_theme("ocean.toml", GOOD)
    app = RecordingApp(theme="ocean").app
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert app.theme == "ocean"
        assert app.theme_variables["footer-key-foreground"] == "#ffcc00"


def test_an_unknown_theme_is_a_one_line_usage_error_listing_the_names() -> None:
    user_theme("ocean.toml", GOOD)
    with pytest.raises(UsageError) as raised:
        RecordingApp(theme="no-such-theme")
    message = str(raised.value)
    assert "\n" not in message
    assert "'no-such-theme'" in message
    for name in (*BUILTIN, "ocean", "textual-dark"):
        assert name in message


async def test_every_builtin_theme_can_be_chosen_while_running() -> None:
    recording = RecordingApp()
    app = recording.app
    async with app.run_test(size=(80, 24)) as pilot:
        for name in (*BUILTIN, DEFAULT_THEME):
            app.theme = name
            await pilot.pause()
            assert app.current_theme.name == name
        assert isinstance(app.screen, Blank)
        assert recording.notes == []


def painted(app: TuibenchApp) -> tuple[object, ...]:
    """What a theme decides in an app: its classes, CSS variables, line filters (the ANSI
    colours' mapping among them) and the colours of the screen and a widget."""
    filters = [(type(f), vars(f)) for f in app.get_line_filters()]
    ready = app.screen.query_one("#ready").styles
    return (
        app.current_theme.name,
        sorted(app.classes),
        app.theme_variables,
        filters,
        app.screen.styles.background,
        ready.color,
        ready.background,
    )


@pytest.mark.parametrize("name", BUILTIN)
async def test_starting_on_a_theme_paints_as_choosing_it(name: str) -> None:
    """The theme the app starts on is set without Textual's watcher, which parsed the whole
    stylesheet a second time before the first frame: the app must look as if the theme had
    been chosen while it ran, from one of the other darkness."""
    started = TuibenchApp(lambda app: Blank(), theme=name)
    async with started.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        on_start = painted(started)
    other = "textual-light" if started.current_theme.dark else "textual-dark"
    chosen = TuibenchApp(lambda app: Blank(), theme=other)
    async with chosen.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert painted(chosen)[0] == other
        chosen.theme = name
        await pilot.pause()
        assert painted(chosen) == on_start
