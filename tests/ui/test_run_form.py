"""The run form driven by keys: field errors, the spec's error, StartRun, recent configs."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import Button, Checkbox, Input, Select, Static

from tui_bench.engine.request import RunRequest
from tui_bench.spec import RunSpec
from tui_bench.storage import recent
from tui_bench.ui import app as app_module
from tui_bench.ui.app import TuibenchApp
from tui_bench.ui.messages import StartRun
from tui_bench.ui.run_form import RunFormScreen
from tui_bench.ui.widgets.dialogs import HelpScreen
from tui_bench.ui.widgets.run_form import RunForm, read_headers, with_scheme

URL = "http://127.0.0.1:8080/"
LABELLED = RunRequest(
    RunSpec(
        urls=(URL,),
        connections=100,
        threads=2,
        duration_s=3.0,
        warm_up_s=1.0,
        streams=10,
        headers=("X-A: 1", "Cookie: a=1; b=2"),
        compress="gzip",
    ),
    server_mode="pid",
    server_pid=1234,
    name="before",
    tags=("nginx", "h2c"),
)
AB = RunRequest(
    RunSpec(urls=(URL,), tool="ab", connections=8, requests=20000, keepalive=True),
    server_mode="none",
)


@pytest.fixture(autouse=True)
def config_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Recent configs go to a fresh directory, never the user's."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    return tmp_path / "config"


class FormApp(TuibenchApp):
    """Records the runs it is asked to start instead of starting them."""

    # A relative CSS_PATH is read beside the subclass's module.
    CSS_PATH = str(Path(app_module.__file__).with_name(TuibenchApp.CSS_PATH))

    def __init__(self, request: RunRequest | None = None) -> None:
        super().__init__(lambda app: RunFormScreen(request))
        self.started: list[RunRequest] = []
        self.notices: list[str] = []

    async def on_start_run(self, message: StartRun) -> None:
        self.started.append(message.request)

    def notify(self, message: str, **kwargs: Any) -> None:
        self.notices.append(message)
        super().notify(message, **kwargs)


async def until(pilot: Pilot[Any], condition: Callable[[], bool]) -> None:
    for _ in range(300):
        if condition():
            return
        await pilot.pause()
    raise AssertionError("the form did not get there")


def form_of(pilot: Pilot[Any]) -> RunForm:
    return pilot.app.screen.query_one(RunForm)


def status(form: RunForm) -> str:
    return str(form.query_one("#status", Static).render())


def error(form: RunForm, field: str) -> str:
    widget = form.query_one(f"#{field}-error", Static)
    return str(widget.render()) if widget.display else ""


def value(form: RunForm, field: str) -> str:
    return form.query_one(f"#{field}", Input).value


async def ready(pilot: Pilot[Any], expected_status: str = "ready: ") -> RunForm:
    """The recent configs are read and every change message is handled."""
    form = form_of(pilot)
    await until(pilot, lambda: form.recent is not None and expected_status in status(form))
    return form


async def type_into(pilot: Pilot[Any], field: str, text: str) -> None:
    form = form_of(pilot)
    form.query_one(f"#{field}", Input).focus()
    await pilot.press("home", "ctrl+k", *text)


def start_enabled(form: RunForm) -> bool:
    return form.valid and not form.query_one("#start", Button).disabled


async def test_opened_empty_it_has_the_cli_defaults_and_waits_for_a_url() -> None:
    async with FormApp().run_test(size=(160, 48)) as pilot:
        form = await ready(pilot, "no URL given")
        assert form.query_one("#tool", Select).value == "h2load"
        assert (value(form, "connections"), value(form, "threads")) == ("10", "1")
        assert value(form, "duration") == "10s"
        assert form.query_one("#mode", Select).value == "duration"
        assert not start_enabled(form)
        await pilot.press("ctrl+s")
        await type_into(pilot, "urls", URL)
        await until(pilot, lambda: start_enabled(form))
        assert "h2load c10 t1 h2c -d 10s" in status(form)
    assert pilot.app.started == []  # type: ignore[attr-defined]


async def test_a_bad_value_shows_its_error_beside_the_field_and_disables_start() -> None:
    async with FormApp(LABELLED).run_test(size=(160, 48)) as pilot:
        form = await ready(pilot)
        assert start_enabled(form)
        await type_into(pilot, "connections", "0")
        await until(pilot, lambda: error(form, "connections") != "")
        assert error(form, "connections") == "expected at least 1, got 0"
        assert status(form) == "connections -c: expected at least 1, got 0"
        assert not start_enabled(form)
        assert form.query_one("#connections", Input).has_class("-invalid")
        await pilot.press("ctrl+s")
        await type_into(pilot, "duration", "ten")
        await until(pilot, lambda: "bad duration 'ten'" in error(form, "duration"))
        await type_into(pilot, "connections", "100")
        await type_into(pilot, "duration", "3s")
        await until(pilot, lambda: start_enabled(form))
        assert error(form, "connections") == error(form, "duration") == ""
    assert pilot.app.started == []  # type: ignore[attr-defined]


async def test_the_specs_own_error_shows_under_the_form() -> None:
    async with FormApp(LABELLED).run_test(size=(160, 48)) as pilot:
        form = await ready(pilot)
        await type_into(pilot, "threads", "200")
        await until(pilot, lambda: "-t 200 is more than -c 100" in status(form))
        assert error(form, "threads") == ""
        assert not start_enabled(form)
        await type_into(pilot, "headers", "no colon")
        await type_into(pilot, "threads", "2")
        await until(pilot, lambda: "bad header 'no colon'" in status(form))


async def test_a_valid_form_posts_start_run_with_the_exact_request(config_home: Path) -> None:
    app = FormApp()
    async with app.run_test(size=(160, 48)) as pilot:
        form = await ready(pilot, "no URL given")
        await type_into(pilot, "urls", URL)
        for field, text in [
            ("connections", "100"),
            ("threads", "2"),
            ("streams", "10"),
            ("duration", "3s"),
            ("warm_up", "1s"),
            ("headers", "X-A: 1; Cookie: a=1; b=2"),
            ("name", "before"),
            ("tags", "nginx, h2c,"),
        ]:
            await type_into(pilot, field, text)
        form.query_one("#compress", Select).value = "gzip"
        form.query_one("#server_mode", Select).value = "pid"
        await until(pilot, lambda: not form.query_one("#server_pid", Input).disabled)
        await type_into(pilot, "server_pid", "1234")
        await until(pilot, lambda: start_enabled(form) and "server pid 1234" in status(form))
        await pilot.press("ctrl+s")
        await until(pilot, lambda: form.recent == [LABELLED])
    assert app.started == [LABELLED]
    assert recent.load(config_home / "tuibench" / "recent.json") == [LABELLED]


async def test_switching_the_tool_takes_away_what_it_does_not_take() -> None:
    async with FormApp(LABELLED).run_test(size=(160, 48)) as pilot:
        form = await ready(pilot)
        only_h2load = ["#streams", "#warm_up", "#protocol"]
        assert not any(form.query_one(s).disabled for s in only_h2load)
        assert form.query_one("#keepalive", Checkbox).disabled
        form.query_one("#tool", Select).focus()
        await pilot.press("enter", "down", "enter")
        await until(pilot, lambda: "ready: wrk" in status(form))
        assert all(form.query_one(s).disabled for s in only_h2load)
        assert not any(form.query_one(f"#row-{s[1:]}").display for s in only_h2load)
        # Kept for when h2load comes back, but not part of a wrk run.
        assert value(form, "streams") == "10"
        wrk = form.request().spec
        assert (wrk.tool, wrk.streams, wrk.warm_up_s, wrk.h1) == ("wrk", None, None, False)
        form.query_one("#tool", Select).value = "ab"
        await until(pilot, lambda: "ready: ab" in status(form))
        assert not form.query_one("#keepalive", Checkbox).disabled
        assert form.query_one("#threads", Input).disabled
        form.query_one("#mode", Select).value = "count"
        await until(pilot, lambda: error(form, "requests") == "required")
        assert form.query_one("#duration", Input).disabled
        assert not start_enabled(form)


async def test_wrk_in_count_mode_is_refused_by_the_spec() -> None:
    async with FormApp(AB).run_test(size=(160, 48)) as pilot:
        form = await ready(pilot)
        form.query_one("#tool", Select).value = "wrk"
        await until(pilot, lambda: "wrk runs for a duration" in status(form))
        assert not start_enabled(form)


async def test_protocol_and_url_scheme_follow_each_other() -> None:
    async with FormApp(LABELLED).run_test(size=(160, 48)) as pilot:
        form = await ready(pilot)
        protocol = form.query_one("#protocol", Select)
        assert protocol.value == "h2c"
        protocol.value = "h2"
        await until(pilot, lambda: value(form, "urls") == "https://127.0.0.1:8080/")
        await type_into(pilot, "urls", "http://127.0.0.1:9000/ http://127.0.0.1:9000/x")
        await until(pilot, lambda: protocol.value == "h2c")
        protocol.value = "h1"
        await until(pilot, lambda: " http/1.1 " in status(form))
        await type_into(pilot, "urls", "https://127.0.0.1:9443/")
        await until(pilot, lambda: "https://127.0.0.1:9443/" in status(form))
        assert protocol.value == "h1" and form.request().spec.h1


async def test_picking_a_recent_config_fills_the_form(config_home: Path) -> None:
    path = config_home / "tuibench" / "recent.json"
    recent.remember(AB, path)
    recent.remember(LABELLED, path)
    async with FormApp().run_test(size=(160, 48)) as pilot:
        form = await ready(pilot, "before [nginx] [h2c]")
        assert form.request() == LABELLED  # opened without a request: the newest
        picker = form.query_one("#recent", Select)
        picker.focus()
        await pilot.press("enter", "down", "down", "enter")
        await until(pilot, lambda: "ready: ab" in status(form))
        assert form.request() == AB
        assert (value(form, "connections"), value(form, "requests")) == ("8", "20000")
        assert form.query_one("#keepalive", Checkbox).value
        assert form.query_one("#server_mode", Select).value == "none"
        assert picker.value == Select.NULL


async def test_a_damaged_recent_file_opens_the_defaults(config_home: Path) -> None:
    path = config_home / "tuibench" / "recent.json"
    path.parent.mkdir(parents=True)
    path.write_text("{ half a file")
    async with FormApp().run_test(size=(80, 24)) as pilot:
        form = await ready(pilot, "no URL given")
        assert form.recent == []


async def test_an_unwritable_recent_file_is_a_warning_not_a_crash(config_home: Path) -> None:
    config_home.mkdir(parents=True)
    (config_home / "tuibench").write_text("a file where the directory should be")
    app = FormApp(LABELLED)
    async with app.run_test(size=(160, 48)) as pilot:
        await ready(pilot)
        await pilot.press("ctrl+s")
        await until(pilot, lambda: any("not saved" in notice for notice in app.notices))
    assert app.started == [LABELLED]


async def test_escape_goes_back_or_leaves_when_it_is_the_only_screen() -> None:
    app = FormApp(LABELLED)
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        await pilot.press("escape")
        await until(pilot, lambda: app.return_value == 0)

    class Below(Screen[None]):
        pass

    app = FormApp(LABELLED)
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        await app.push_screen(Below())
        await app.push_screen(RunFormScreen(LABELLED))
        await ready(pilot)
        await pilot.press("q")  # focus is in the URL field: q is typed, not a key
        assert value(form_of(pilot), "urls").endswith("q")
        form_of(pilot).query_one("#tool", Select).focus()
        await pilot.press("q")
        await until(pilot, lambda: isinstance(app.screen, Below))


async def test_help_lists_the_keys() -> None:
    async with FormApp(LABELLED).run_test(size=(80, 24)) as pilot:
        form = await ready(pilot)
        form.query_one("#tool", Select).focus()
        await pilot.press("question_mark")
        assert isinstance(pilot.app.screen, HelpScreen)
        text = str(pilot.app.screen.query_one("#help", Static).render())
        assert "start the run" in text and "back" in text


def test_headers_split_on_semicolons_only_before_a_new_name() -> None:
    assert read_headers("X-A: 1; Cookie: a=1; b=2; Accept: text/html;q=0.9") == (
        "X-A: 1",
        "Cookie: a=1; b=2",
        "Accept: text/html;q=0.9",
    )
    assert read_headers("X-A: 1;") == ("X-A: 1",)
    assert read_headers("  ;  ") == ()


def test_with_scheme_rewrites_only_http_urls() -> None:
    assert with_scheme("http://a/ HTTPS://b:1/x junk", "https") == "https://a/ https://b:1/x junk"


# Snapshots


async def _filled(pilot: Pilot[Any]) -> None:
    """Two fields in error: at 80x24 more than fits."""
    form = await ready(pilot)
    await type_into(pilot, "connections", "0")
    await type_into(pilot, "duration", "ten")
    await until(pilot, lambda: error(form, "duration") != "")
    for widget in form.query(Input):
        widget.cursor_blink = False


def test_snapshot_80x24(snap_compare: Any) -> None:
    assert snap_compare(FormApp(LABELLED), terminal_size=(80, 24), run_before=_filled)


def test_snapshot_160x48(snap_compare: Any) -> None:
    assert snap_compare(FormApp(LABELLED), terminal_size=(160, 48), run_before=_filled)


async def test_at_80x24_the_form_scrolls_to_its_last_field() -> None:
    async with FormApp(LABELLED).run_test(size=(80, 24)) as pilot:
        await _filled(pilot)
        form = form_of(pilot)
        fields = form.query_one("#fields")
        last_group = form.query_one("#labels")
        assert fields.max_scroll_y > 0
        assert not fields.region.contains_region(last_group.region)
        form.query_one("#tags", Input).focus()
        fields.scroll_end(animate=False)
        await until(pilot, lambda: fields.region.contains_region(last_group.region))
        # The bar with Start and the form's error stays in view.
        assert pilot.app.screen.region.contains_region(form.query_one("#bar").region)
