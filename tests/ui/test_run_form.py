"""The run form driven by keys: field errors, the spec's error, StartRun, the Sweep group and
StartSweep, recent configs."""

from __future__ import annotations

import itertools
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import Button, Checkbox, Input, Select, Static

from tests.ui import help_text, until
from tui_bench.request import recent
from tui_bench.request.recent import Config
from tui_bench.request.run import RunRequest
from tui_bench.request.sweep_settings import SweepSettings
from tui_bench.spec import RunSpec
from tui_bench.ui import app as app_module
from tui_bench.ui.app import TuibenchApp
from tui_bench.ui.messages import StartRun, StartSweep
from tui_bench.ui.screens.run_form_screen import RunFormScreen
from tui_bench.ui.widgets.run_form import RunForm
from tui_bench.ui.widgets.secret_dialog import SecretDialog

URL = "http://127.0.0.1:8080/"
LABELLED = RunRequest(
    RunSpec(
        urls=(URL,),
        connections=100,
        threads=2,
        duration_s=3.0,
        warm_up_s=1.0,
        streams=10,
        headers=("X-A: 1", "X-Mix: a=1; b=2"),
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
SWEEP = SweepSettings(
    vary=("c=10,50,100", "m=1,10"), repeat=3, cool_down_s=1.0, slo="p99<50ms,errors<1%"
)
# LABELLED swept so: 18 runs of 3 s and a 1 s warm-up, 17 cool-downs of 1 s: 89 s.
SWEEP_READY = "ready: sweep of 6 points × 3 = 18 runs, about 1 min · c=10,50,100 × m=1,10"


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
        self.swept: list[Config] = []
        self.notices: list[str] = []

    async def on_start_run(self, message: StartRun) -> None:
        self.started.append(message.request)
        self.screen.query_one(RunForm).started()

    async def on_start_sweep(self, message: StartSweep) -> None:
        self.swept.append(Config(message.request, message.sweep))
        self.screen.query_one(RunForm).started()

    def notify(self, message: str, **kwargs: Any) -> None:
        self.notices.append(message)
        super().notify(message, **kwargs)


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
    """Replace what the field holds, as a paste would: one change, not one per key (the
    keyboard path is typed key by key once, in the first test)."""
    widget = form_of(pilot).query_one(f"#{field}", Input)
    widget.focus()
    widget.value = text
    await pilot.pause()


def start_enabled(form: RunForm) -> bool:
    return form.valid and not form.query_one("#start", Button).disabled


def shows_error(form: RunForm, field: str, reason: str) -> bool:
    return reason in error(form, field)


def start_label(form: RunForm) -> str:
    return str(form.query_one("#start", Button).label)


def shown(form: RunForm, field: str) -> bool:
    return form.query_one(f"#row-{field}").display


async def pick_by_keys(pilot: Pilot[Any], picker: Select[Any], downs: int) -> None:
    """Open the picker, go down `downs` options and take that one, as a user would."""
    picker.focus()
    await pilot.press("enter")
    # Keys pressed before the list has opened would go to the closed picker.
    await until(pilot, lambda: picker.expanded, "the picker's list")
    await pilot.press(*["down"] * downs, "enter")


async def toggle_sweep(pilot: Pilot[Any]) -> None:
    form = form_of(pilot)
    ticked = form.query_one("#sweep", Checkbox)
    was = ticked.value
    ticked.focus()
    await pilot.press("space")
    await until(pilot, lambda: shown(form, "vary") != was)


async def type_sweep(pilot: Pilot[Any], sweep: SweepSettings) -> None:
    for field, text in [
        ("vary", "; ".join(sweep.vary)),
        ("ramp", "; ".join(sweep.ramp)),
        ("repeat", str(sweep.repeat)),
        ("cool_down", f"{sweep.cool_down_s:g}s"),
        ("slo", sweep.slo or ""),
    ]:
        await type_into(pilot, field, text)


async def test_opened_empty_it_has_the_cli_defaults_and_waits_for_a_url() -> None:
    async with FormApp().run_test(size=(160, 48)) as pilot:
        form = await ready(pilot, "no URL given")
        assert form.query_one("#tool", Select).value == "h2load"
        assert (value(form, "connections"), value(form, "threads")) == ("10", "1")
        assert value(form, "duration") == "10s"
        assert form.query_one("#mode", Select).value == "duration"
        assert not start_enabled(form)
        await pilot.press("ctrl+s")
        form.query_one("#urls", Input).focus()
        await pilot.press(*URL)
        await until(pilot, lambda: start_enabled(form))
        assert "h2load c10 t1 h2c -d 10s" in status(form)
    assert pilot.app.started == []  # type: ignore[attr-defined]


async def test_typing_a_url_key_by_key_lays_the_form_out_again_only_when_a_line_grows(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    layouts = 0
    relayout = Screen._refresh_layout

    def counted(screen: Screen[Any], *args: Any, **kwargs: Any) -> None:
        nonlocal layouts
        layouts += 1
        relayout(screen, *args, **kwargs)

    async with FormApp(LABELLED).run_test(size=(160, 48)) as pilot:
        form = await ready(pilot)
        form.query_one("#urls", Input).focus()
        await pilot.pause()
        monkeypatch.setattr(Screen, "_refresh_layout", counted)
        path = "api/items/42"
        await pilot.press("end", *path)
        await until(pilot, lambda: value(form, "urls").endswith(path) and path in status(form))
        # Each key changes the ready line, never its height: a repaint, not a layout pass of
        # the whole form (once ~85 ms a key).
        assert layouts <= 1, layouts


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


async def test_every_count_typed_key_by_key_says_what_is_wrong_with_the_clis_limits() -> None:
    async with FormApp(LABELLED).run_test(size=(160, 48)) as pilot:
        form = await ready(pilot)
        connections = form.query_one("#connections", Input)
        connections.focus()
        await pilot.press("end", "backspace", "backspace", "backspace", "a", "b", "c")
        await until(pilot, lambda: error(form, "connections") != "")
        assert connections.value == "abc"
        assert error(form, "connections") == "expected a whole number, got 'abc'"
        await pilot.press("backspace", "backspace", "backspace", *"500000000")
        # The command line's -c refuses it in the same words.
        reason = "expected at most 1,000,000, got 500,000,000"
        await until(pilot, lambda: error(form, "connections") == reason)
        assert status(form) == f"connections -c: {reason}" and not start_enabled(form)
        for field, text in [("threads", "5000"), ("streams", "3000000000")]:
            await type_into(pilot, field, text)
            await until(pilot, lambda f=field: "expected at most" in error(form, f))  # type: ignore[misc]
        await type_into(pilot, "connections", "100")
        await type_into(pilot, "threads", "2")
        await type_into(pilot, "streams", "10")
        await until(pilot, lambda: start_enabled(form))


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
            ("headers", "X-A: 1; X-Mix: a=1; b=2"),
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
        await until(pilot, lambda: form.recent == [Config(LABELLED)])
    assert app.started == [LABELLED]
    assert app.swept == []
    assert recent.load(config_home / "tuibench" / "recent.json") == [Config(LABELLED)]


async def test_switching_the_tool_takes_away_what_it_does_not_take() -> None:
    async with FormApp(LABELLED).run_test(size=(160, 48)) as pilot:
        form = await ready(pilot)
        only_h2load = ["#streams", "#warm_up", "#protocol"]
        assert not any(form.query_one(s).disabled for s in only_h2load)
        assert form.query_one("#keepalive", Checkbox).disabled
        await pick_by_keys(pilot, form.query_one("#tool", Select), downs=1)
        await until(pilot, lambda: "ready: wrk" in status(form))
        assert all(form.query_one(s).disabled for s in only_h2load)
        assert not any(form.query_one(f"#row-{s[1:]}").display for s in only_h2load)
        # Kept for when h2load comes back, but not part of a wrk run.
        assert value(form, "streams") == "10"
        wrk = form.typed().request().spec
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


async def test_the_sweep_group_is_off_until_ticked_then_checks_each_field() -> None:
    async with FormApp(LABELLED).run_test(size=(160, 48)) as pilot:
        form = await ready(pilot)
        fields = ("vary", "ramp", "repeat", "cool_down", "slo")
        assert shown(form, "sweep") and not any(shown(form, f) for f in fields)
        assert (value(form, "repeat"), value(form, "cool_down")) == ("1", "2s")
        await toggle_sweep(pilot)
        assert all(shown(form, f) for f in fields)
        await until(pilot, lambda: "nothing varied: one run" in status(form))
        assert start_enabled(form) and start_label(form) == "Start"
        # The form's error names the field, unless the parser's reason already does.
        for field, text, reason, named in [
            ("vary", "c=10,x", "--vary c=10,x: expected a whole number, got 'x'", ""),
            ("vary", "c=10; q=1", "--vary q=1: unknown parameter 'q'", ""),
            ("ramp", "t=10/3", "--ramp t=10/3: 10 is not a multiple of 3", ""),
            ("repeat", "0", "expected at least 1, got 0", "repeat: "),
            ("cool_down", "soon", "bad duration 'soon'", "cool-down: "),
            ("slo", "p99<50ms,", "bad SLO 'p99<50ms,': an empty clause", ""),
        ]:
            await type_into(pilot, field, text)
            await until(pilot, partial(shows_error, form, field, reason))
            assert status(form) == named + error(form, field)
            assert not start_enabled(form)
            await type_into(pilot, field, {"repeat": "1", "cool_down": "2s"}.get(field, ""))
        await type_sweep(pilot, SWEEP)
        await until(pilot, lambda: start_enabled(form) and status(form) == SWEEP_READY)
        assert start_label(form) == "Start sweep"
        assert not any(error(form, f) for f in fields)
        # Every point must be valid: c=1 with -t 2 is not.
        await type_into(pilot, "vary", "c=1,10")
        await until(pilot, lambda: "point c=1: -t 2 is more than -c 1" in status(form))
        assert error(form, "vary") == "" and not start_enabled(form)


async def test_start_posts_start_sweep_and_remembers_the_sweep(config_home: Path) -> None:
    app = FormApp(LABELLED)
    async with app.run_test(size=(160, 48)) as pilot:
        form = await ready(pilot)
        await toggle_sweep(pilot)
        await type_sweep(pilot, SWEEP)
        await until(pilot, lambda: start_enabled(form) and status(form) == SWEEP_READY)
        await pilot.press("ctrl+s")
        await until(pilot, lambda: form.recent == [Config(LABELLED, SWEEP)])
    assert app.swept == [Config(LABELLED, SWEEP)]
    assert app.started == []
    path = config_home / "tuibench" / "recent.json"
    assert recent.load(path) == [Config(LABELLED, SWEEP)]


async def test_unticked_or_varying_nothing_the_form_starts_a_single_run() -> None:
    app = FormApp(LABELLED)
    async with app.run_test(size=(160, 48)) as pilot:
        form = await ready(pilot)
        await toggle_sweep(pilot)
        await type_into(pilot, "vary", "c=10,50")
        await until(pilot, lambda: "ready: sweep of 2 points" in status(form))
        await toggle_sweep(pilot)
        await until(pilot, lambda: status(form).startswith("ready: h2load c100"))
        assert value(form, "vary") == "c=10,50", "kept for when the group is ticked again"
        assert form.config() == Config(LABELLED)
        await toggle_sweep(pilot)
        await type_into(pilot, "vary", "")
        await type_into(pilot, "repeat", "1")
        await until(pilot, lambda: "nothing varied: one run" in status(form))
        await pilot.press("ctrl+s")
        await until(pilot, lambda: app.started == [LABELLED])
    assert app.swept == []


async def test_a_sweep_of_the_url_needs_none_in_the_url_field() -> None:
    app = FormApp()
    async with app.run_test(size=(160, 48)) as pilot:
        form = await ready(pilot, "no URL given")
        await toggle_sweep(pilot)
        await type_into(pilot, "vary", f"url={URL}a,{URL}b")
        # Two runs of the default 10 s and one cool-down of 2 s.
        await until(pilot, lambda: "ready: sweep of 2 points, about 22 s · url=" in status(form))
        await type_into(pilot, "repeat", "2")
        await until(pilot, lambda: "× 2 = 4 runs, about 46 s" in status(form))
        await pilot.press("ctrl+s")
        await until(pilot, lambda: len(app.swept) == 1)
    config = app.swept[0]
    assert config.request.spec.urls == ()
    assert config.sweep == SweepSettings(vary=(f"url={URL}a,{URL}b",), repeat=2)


async def test_picking_a_recent_sweep_ticks_and_fills_the_group(config_home: Path) -> None:
    path = config_home / "tuibench" / "recent.json"
    recent.remember(Config(AB), path)
    recent.remember(Config(LABELLED, SWEEP), path)
    async with FormApp().run_test(size=(160, 48)) as pilot:
        form = await ready(pilot, SWEEP_READY)
        assert form.config() == Config(LABELLED, SWEEP)
        assert form.query_one("#sweep", Checkbox).value
        assert value(form, "vary") == "c=10,50,100; m=1,10"
        assert (value(form, "repeat"), value(form, "cool_down")) == ("3", "1s")
        picker = form.query_one("#recent", Select)
        await pick_by_keys(pilot, picker, downs=2)
        await until(pilot, lambda: "ready: ab" in status(form))
        assert not form.query_one("#sweep", Checkbox).value and not shown(form, "vary")
        assert form.config() == Config(AB)


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
        assert protocol.value == "h1" and form.typed().request().spec.h1


async def test_picking_a_recent_config_fills_the_form(config_home: Path) -> None:
    path = config_home / "tuibench" / "recent.json"
    recent.remember(Config(AB), path)
    recent.remember(Config(LABELLED), path)
    async with FormApp().run_test(size=(160, 48)) as pilot:
        form = await ready(pilot, "before [nginx] [h2c]")
        assert form.typed().request() == LABELLED  # opened without a request: the newest
        picker = form.query_one("#recent", Select)
        await pick_by_keys(pilot, picker, downs=2)
        await until(pilot, lambda: "ready: ab" in status(form))
        assert form.typed().request() == AB
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
        # Nor on a drop-down: a letter in the form is never the screen's key.
        form_of(pilot).query_one("#tool", Select).focus()
        await pilot.press("q")
        await pilot.pause()
        assert isinstance(app.screen, RunFormScreen)
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, Below))


async def test_help_lists_the_keys() -> None:
    async with FormApp(LABELLED).run_test(size=(80, 24)) as pilot:
        form = await ready(pilot)
        form.query_one("#tool", Select).focus()
        text = await help_text(pilot)
        assert "start the run or the sweep" in text and "back" in text


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


def test_snapshot_120x40(snap_compare: Any) -> None:
    assert snap_compare(FormApp(LABELLED), terminal_size=(120, 40), run_before=_filled)


def test_snapshot_160x48(snap_compare: Any) -> None:
    assert snap_compare(FormApp(LABELLED), terminal_size=(160, 48), run_before=_filled)


async def test_at_160x48_the_form_is_single_spaced_and_does_not_scroll() -> None:
    async with FormApp(LABELLED).run_test(size=(160, 48)) as pilot:
        await _filled(pilot)
        form = form_of(pilot)
        assert form.query_one("#fields").max_scroll_y == 0
        rows = [row for row in form.query_one("#load").query(".row") if row.display]
        # No blank line between fields: each row ends where the next starts.
        for row, below in itertools.pairwise(rows):
            assert row.region.bottom == below.region.y, (row.id, row.region, below.region)


async def _swept(pilot: Pilot[Any]) -> None:
    """The recent sweep filled in, scrolled to its group, the ramp in error."""
    form = await ready(pilot, SWEEP_READY)
    await type_into(pilot, "ramp", "t=10/3")
    await until(pilot, lambda: error(form, "ramp") != "")
    for widget in form.query(Input):
        widget.cursor_blink = False
    form.query_one("#fields").scroll_end(animate=False)
    await pilot.pause()


@pytest.mark.parametrize("size", [(80, 24), (120, 40), (160, 48)])
def test_snapshot_sweep(snap_compare: Any, config_home: Path, size: tuple[int, int]) -> None:
    recent.remember(Config(LABELLED, SWEEP), config_home / "tuibench" / "recent.json")
    assert snap_compare(FormApp(), terminal_size=size, run_before=_swept)


async def test_at_80x24_the_form_scrolls_to_its_last_field() -> None:
    async with FormApp(LABELLED).run_test(size=(80, 24)) as pilot:
        await _filled(pilot)
        form = form_of(pilot)
        fields = form.query_one("#fields")
        last_group = form.query_one("#sweep-group")
        assert fields.max_scroll_y > 0
        assert not fields.region.contains_region(last_group.region)
        form.query_one("#sweep", Checkbox).focus()
        fields.scroll_end(animate=False)
        await until(pilot, lambda: fields.region.contains_region(last_group.region))
        # The bar with Start and the form's error stays in view.
        assert pilot.app.screen.region.contains_region(form.query_one("#bar").region)


SECRET_REQUEST = RunRequest(
    RunSpec(
        urls=("http://bench:pw-42@127.0.0.1:8080/",),
        duration_s=3.0,
        headers=("Authorization: Bearer tok-123",),
    )
)


async def test_a_config_kept_without_its_secrets_asks_for_them_on_start(
    config_home: Path,
) -> None:
    path = config_home / "tuibench" / "recent.json"
    recent.remember(Config(SECRET_REQUEST), path)
    kept = path.read_text()
    assert "tok-123" not in kept and "pw-42" not in kept and "redacted:" in kept
    app = FormApp()
    async with app.run_test(size=(120, 40)) as pilot:
        form = await ready(
            pilot, "kept without the secret of password in http://bench@…, Authorization"
        )
        assert not form.query_one("#start", Button).disabled
        await pilot.press("ctrl+s")
        dialog = app.screen
        assert isinstance(dialog, SecretDialog)
        await pilot.press("escape")
        assert app.screen is not dialog and app.started == []
        await pilot.press("ctrl+s")
        dialog = app.screen
        assert isinstance(dialog, SecretDialog)
        password, authorization = dialog.query(Input)
        assert password.password and authorization.password
        password.value, authorization.value = "pw-41", "Bearer tok-123"
        authorization.focus()
        await pilot.press("enter")
        await until(pilot, lambda: app.started != [], "the start")
        # A value other than the one kept is said, not refused.
        assert any("not the value kept before: password in" in n for n in app.notices)
    (started,) = app.started
    assert started.spec.headers == SECRET_REQUEST.spec.headers
    assert started.spec.urls == ("http://bench:pw-41@127.0.0.1:8080/",)
    assert "tok-123" not in path.read_text()


@pytest.fixture
def cli_refusals(capsys: pytest.CaptureFixture[str]) -> dict[str, str]:
    """What `tuibench run FLAGS URL` says before any load, less its `tuibench: error: `
    (asked here, outside the test's event loop: the command line runs its own)."""
    from tui_bench.cli.main import main

    said = {}
    for name, flags in (
        ("gateless", ["--fail-on-regression", "5"]),
        ("unreadable", ["--threshold", "p99<5parsecs"]),
    ):
        assert main(["run", "--headless", *flags, "http://127.0.0.1:1/"]) == 2
        said[name] = capsys.readouterr().err.strip().removeprefix("tuibench: error: ")
    return said


async def test_the_judging_fields_refuse_in_the_command_line_s_words(
    cli_refusals: dict[str, str], config_home: Path
) -> None:
    gateless, unreadable = cli_refusals["gateless"], cli_refusals["unreadable"]
    async with FormApp().run_test(size=(160, 48)) as pilot:
        form = await ready(pilot, "no URL given")
        await type_into(pilot, "urls", "http://127.0.0.1:1/")
        await type_into(pilot, "fail_on_regression", "5%")
        await until(pilot, lambda: gateless in status(form), "the gate's refusal")
        assert not start_enabled(form)
        await type_into(pilot, "fail_on_regression", "")
        await type_into(pilot, "thresholds", "p99<5parsecs")
        await until(pilot, lambda: shows_error(form, "thresholds", unreadable), unreadable)
        assert not start_enabled(form)
