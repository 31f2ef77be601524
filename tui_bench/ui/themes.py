"""Colour themes as TOML files: the built-in ones, then the user's own.

The user's themes live in $XDG_CONFIG_HOME/tuibench/themes/*.toml (~/.config/...) and may
replace a built-in theme by using its name. A file's fields are those of `textual.theme.Theme`.
A file that cannot be used is left out with one short problem line; the others still load.
"""

from __future__ import annotations

import dataclasses
import os
import tomllib
import typing
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from textual.color import Color, ColorParseError
from textual.css.errors import StylesheetError
from textual.css.stylesheet import Stylesheet
from textual.css.tokenizer import TokenError
from textual.theme import Theme

DEFAULT_THEME = "tuibench-dark"
# Where a wheel installs the built-in themes, below its prefix (pyproject's data-files).
DATA_PARTS = ("share", "tuibench", "themes")

_HINTS = typing.get_type_hints(Theme)
_REQUIRED = frozenset(
    f.name
    for f in dataclasses.fields(Theme)
    if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
)
_STRINGS = (str, str | None)
COLOUR_FIELDS = tuple(n for n, hint in _HINTS.items() if hint in _STRINGS and n != "name")
_BOOLS = tuple(n for n, hint in _HINTS.items() if hint is bool)
_NUMBERS = tuple(n for n, hint in _HINTS.items() if hint is float)


class ThemeFileError(ValueError):
    """Why a theme file cannot be used, in a few words."""


@dataclass(frozen=True)
class LoadedThemes:
    themes: tuple[Theme, ...]
    problems: tuple[str, ...]

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(t.name for t in self.themes)


def user_themes_dir() -> Path:
    config_home = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(config_home) / "tuibench" / "themes"


def builtin_themes_dir() -> Path:
    """From a wheel, the copy it installed below its prefix (share/tuibench/themes); in a
    checkout or an editable install, where no copy is made, themes/ at the top of the tree."""
    root = Path(__file__).resolve().parents[2]
    if (root / "pyproject.toml").is_file():
        # A source tree, never a wheel's site-packages: no distribution to look through
        # (importing importlib.metadata alone took longer than reading the themes).
        return root / "themes"
    from importlib import metadata

    # The distribution beside this very package, not the first of that name on sys.path.
    for dist in metadata.distributions(name="tuibench", path=[str(root)]):
        for file in dist.files or ():
            if file.parent.parts[-len(DATA_PARTS) :] == DATA_PARTS:
                return Path(file.locate()).parent
    return root / "themes"


def load_themes(directories: Sequence[Path] | None = None) -> LoadedThemes:
    """The themes of every *.toml file in `directories` (by default the built-in ones, then the
    user's), a later theme replacing an earlier one of the same name; one problem per bad file."""
    builtin = builtin_themes_dir()
    if directories is None:
        directories = (builtin, user_themes_dir())
    themes: dict[str, Theme] = {}
    problems: list[str] = []
    for directory in directories:
        if directory == builtin and not directory.is_dir():
            problems.append(f"built-in themes not found in {directory}")
        for path in sorted(directory.glob("*.toml")):
            try:
                theme = read_theme(path)
            except ThemeFileError as exc:
                problems.append(f"{path.name}: {exc}")
                continue
            themes[theme.name] = theme
    return LoadedThemes(tuple(themes.values()), tuple(problems))


def read_theme(path: Path) -> Theme:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise ThemeFileError(f"cannot read it ({exc.__class__.__name__})") from exc
    except tomllib.TOMLDecodeError as exc:
        raise ThemeFileError(f"bad TOML: {exc}") from exc
    return theme_from_fields(data)


def theme_from_fields(data: Mapping[str, object]) -> Theme:
    """A Theme from a TOML table, every field checked as Textual would use it."""
    unknown = sorted(set(data) - set(_HINTS))
    if unknown:
        raise ThemeFileError(f"unknown field {_names(unknown)}")
    missing = sorted(_REQUIRED - set(data))
    if missing:
        raise ThemeFileError(f"missing field {_names(missing)}")
    name = data["name"]
    if not isinstance(name, str) or not name.strip():
        raise ThemeFileError("'name' must be a non-empty string")
    for field in COLOUR_FIELDS:
        if field in data:
            _check_colour(field, data[field])
    for field in _BOOLS:
        if field in data and not isinstance(data[field], bool):
            raise ThemeFileError(f"'{field}' must be true or false")
    for field in _NUMBERS:
        value = data.get(field)
        if field in data and not (_is_number(value) and 0 <= value <= 1):
            raise ThemeFileError(f"'{field}' must be a number from 0 to 1")
    variables = data.get("variables", {})
    if not isinstance(variables, dict) or not all(isinstance(v, str) for v in variables.values()):
        raise ThemeFileError("'variables' must be a table of strings")
    fields = {k: v for k, v in data.items() if k != "variables"}
    theme = Theme(**fields)  # type: ignore[arg-type]
    _check_variables(theme, variables)
    theme.variables = dict(variables)
    return theme


def _names(fields: Sequence[str]) -> str:
    return ", ".join(repr(f) for f in fields)


def _is_number(value: object) -> typing.TypeGuard[float]:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _check_colour(field: str, value: object) -> None:
    if isinstance(value, str):
        try:
            Color.parse(value)
        except ColorParseError:
            pass
        else:
            return
    raise ThemeFileError(f"'{field}': {value!r} is not a colour")


def _check_variables(theme: Theme, variables: Mapping[str, str]) -> None:
    """Only variables the theme defines may be set; a value Textual's CSS would reject is an
    error here, where it names the file, and not a crash when the theme is chosen."""
    generated = theme.to_color_system().generate()
    unknown = sorted(set(variables) - set(generated))
    if unknown:
        raise ThemeFileError(f"unknown variable {_names(unknown)}")
    sheet_variables = {**generated, **variables}
    # All of them in one sheet: a sheet tokenizes every variable it is given (some 170), and
    # the themes are loaded before the first frame. One at a time only to name a bad one.
    if _parses(sheet_variables, variables):
        return
    for name, value in variables.items():
        if not _parses(sheet_variables, (name,)):
            raise ThemeFileError(f"variable '{name}': {value!r} is not a valid value")


def _parses(sheet_variables: Mapping[str, str], names: Iterable[str]) -> bool:
    """Whether each of `names` is a value Textual's CSS takes where such a variable is used."""
    sheet = Stylesheet(variables=dict(sheet_variables))
    for name in names:
        rule = "text-style" if "style" in name.split("-") else "color"
        sheet.add_source(f"Screen {{ {rule}: ${name}; }}", read_from=("theme", name))
    try:
        sheet.parse()
    except (StylesheetError, TokenError):
        return False
    return True
