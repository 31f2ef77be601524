"""The run form: a RunRequest field by field, named as `tuibench run` names its flags.

Each field checks what it can alone while it is typed (Input validators built on the readers
the command line uses); the whole request is checked by RunSpec.validate, whose one-line
reason shows under the form. Fields the chosen tool or mode does not take are hidden and left
out of the request; they keep their text for when that tool or mode is picked again. What the
fields ask for is read outside the widget (`request/form_input.py`), through the same run_request
as the command line's flags.

Protocol is h2load's h1 / h2c / h2. As on the command line, the URL's scheme says whether TLS
is used: picking h2c or h2 rewrites the URLs to http:// or https://, and typing a URL picks h2c
or h2 from its scheme. h1 is `--h1` and leaves the scheme alone (https:// is HTTP/1.1 over TLS).

The Sweep group, once ticked, takes what `tuibench sweep` takes beside the run options
(`--vary`, `--ramp`, `--repeat`, `--cool-down`, `--slo`), read by the same parsers. When it
varies or repeats something, Start posts StartSweep instead of StartRun; as on the command
line, the run options are then the base of every point, and only the points must be valid.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import ClassVar, TypeVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widget import Widget
from textual.widgets import Button, Checkbox, Input, Select

from tui_bench.errors import UsageError
from tui_bench.printable import printable
from tui_bench.request import recent
from tui_bench.request.fields import (
    BODY,
    CONNECTIONS,
    CONTENT_TYPE,
    DURATION,
    GENERATORS,
    HEADERS,
    JUDGING_FIELDS,
    METHOD,
    NAME,
    NO_COMPRESSION,
    RATE,
    REQUESTS,
    SERVER_HOST,
    SERVER_NAME,
    SERVER_PID,
    STAGES,
    STREAMS,
    SWEEP_FIELDS,
    TAGS,
    TEXT_FIELDS,
    THREADS,
    URLS,
    WARM_UP,
    TextField,
    protocol_of_urls,
    with_scheme,
)
from tui_bench.request.form_input import CHOICES, Typed, sweep_texts
from tui_bench.request.recent import Config
from tui_bench.request.run import SERVER_MODES, RunRequest
from tui_bench.request.run_defaults import DEFAULT_REQUEST
from tui_bench.request.sweep_settings import SweepSettings
from tui_bench.spec import COMPRESSIONS, TOOLS
from tui_bench.ui.messages import StartRun, StartSweep
from tui_bench.ui.widgets.form_fields import (
    ADVISED_FIELDS,
    FORM_ADVICE,
    MODES,
    PROTOCOLS,
    SERVERS,
    asking_line,
    field_row,
    same_values,
    select_of,
    text_row,
)
from tui_bench.ui.widgets.secret_dialog import SecretDialog
from tui_bench.ui.widgets.steady_static import SteadyStatic

T = TypeVar("T")
W = TypeVar("W", bound=Widget)


class RunForm(Vertical):
    """Posts StartRun(request), or StartSweep(request, sweep), when started, and then
    remembers the config as recent."""

    # Not scoped: the wide layout follows a class of the screen, above the form.
    SCOPED_CSS = False
    DEFAULT_CSS = """
    .-form-wide RunForm {
        & #groups { layout: horizontal; }
        & .group { width: 1fr; }
        & #side { width: 1fr; }
    }
    RunForm {
        height: 1fr;
        & > #fields { height: 1fr; }
        & #groups { layout: vertical; height: auto; }
        & .group {
            height: auto;
            border: round $primary-darken-1;
            border-title-color: $text;
            padding: 0 1;
        }
        & #side { height: auto; }
        & .row { height: auto; }
        & .row > Label { width: 16; color: $text-muted; }
        /* The field being edited, by more than a colour: its label in reverse video. */
        & .row:focus-within > Label { color: $text; text-style: bold reverse; }
        & .row > .cell { width: 1fr; height: auto; }
        & .error { color: $error; height: auto; display: none; }
        & #row-recent { padding: 0 2; }
        & > #bar { height: auto; background: $boost; padding: 0 1; }
        & #status { width: 1fr; height: auto; padding-left: 2; color: $success; }
        & #status.-invalid { color: $error; }
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "ctrl+s,ctrl+enter",
            "start",
            "Start",
            key_display="^s",
            tooltip="start the run or the sweep (once the form is valid)",
        ),
        # In the form `?` is typed (URLs have queries): help needs a key that is no letter.
        Binding("f1", "screen.help", "Help", tooltip="this help (in the form, where ? is text)"),
    ]

    def __init__(self, request: RunRequest | None = None, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._given = request
        # None until the file is read.
        self.recent: list[Config] | None = None
        # The config of the run asked for, until it has started or been refused.
        self._starting: Config | None = None
        self.valid = False
        # The widgets the checks at every key read and set, found once (`_get`).
        self._found: dict[str, Widget] = {}
        self._rows: list[tuple[Widget, str, list[Widget]]] | None = None

    # Layout

    def compose(self) -> ComposeResult:
        # Not a stop of its own for Tab: from the recent list the next one is a field.
        with VerticalScroll(id="fields", can_focus=False):
            yield field_row("recent", "recent", Select[int]([], id="recent", compact=True))
            with Horizontal(id="groups"):
                with Vertical(id="load", classes="group"):
                    yield field_row("tool", "tool", select_of(same_values(TOOLS), "tool"))
                    yield text_row(URLS)
                    yield text_row(CONNECTIONS)
                    yield text_row(THREADS)
                    yield text_row(STREAMS)
                    yield text_row(RATE)
                    yield field_row("protocol", "protocol", select_of(PROTOCOLS, "protocol"))
                    yield field_row("mode", "mode", select_of(MODES, "mode"))
                    yield text_row(DURATION)
                    yield text_row(REQUESTS)
                    yield text_row(WARM_UP)
                    yield text_row(STAGES)
                    yield field_row(
                        "keepalive",
                        "keep-alive -k",
                        Checkbox("ab: HTTP keep-alive", id="keepalive", compact=True),
                    )
                with Vertical(id="side"):
                    with Vertical(id="labels", classes="group"):
                        yield text_row(HEADERS)
                        yield text_row(METHOD)
                        yield text_row(BODY)
                        yield text_row(CONTENT_TYPE)
                        yield field_row(
                            "compress",
                            "compress",
                            select_of(same_values((NO_COMPRESSION, *COMPRESSIONS)), "compress"),
                        )
                        yield field_row(
                            "server_mode",
                            "server",
                            select_of([(SERVERS[m], m) for m in SERVER_MODES], "server_mode"),
                        )
                        yield text_row(SERVER_PID)
                        yield text_row(SERVER_NAME)
                        yield text_row(SERVER_HOST)
                        yield text_row(GENERATORS)
                        yield text_row(NAME)
                        yield text_row(TAGS)
                    with Vertical(id="judging", classes="group"):
                        for field in JUDGING_FIELDS:
                            yield text_row(field)
                    with Vertical(id="sweep-group", classes="group"):
                        yield field_row(
                            "sweep",
                            "sweep",
                            Checkbox("vary, ramp or repeat the run", id="sweep", compact=True),
                        )
                        yield field_row(
                            "capacity",
                            "capacity",
                            Checkbox(
                                "search the rate held within the SLO", id="capacity", compact=True
                            ),
                        )
                        for field in SWEEP_FIELDS:
                            yield text_row(field)
        with Horizontal(id="bar"):
            yield Button("Start", id="start", variant="success", compact=True, disabled=True)
            yield SteadyStatic(id="status")

    def on_mount(self) -> None:
        self.query_one("#load").border_title = "Load"
        self.query_one("#labels").border_title = "Request · server · labels"
        self.query_one("#judging").border_title = "Verdicts"
        self.query_one("#sweep-group").border_title = "Sweep"
        self._set_texts(sweep_texts(SweepSettings()))
        self.fill(Config(self._given or DEFAULT_REQUEST))
        self.run_worker(self._load_recent(), group="recent")

    # Filling

    def fill(self, config: Config) -> None:
        """Show `config` in the fields; checking follows as their change messages arrive. A
        single run leaves the Sweep group's text as it was, unticked."""
        typed = Typed.of(config)
        self._set_texts(typed.texts)
        for name, value in typed.choices.items():
            self.query_one(f"#{name}", Select).value = value
        self.query_one("#keepalive", Checkbox).value = typed.keepalive
        self.query_one("#sweep", Checkbox).value = typed.sweep
        self.query_one("#capacity", Checkbox).value = typed.capacity

    def _set_texts(self, texts: Mapping[str, str]) -> None:
        for field_id, text in texts.items():
            self.query_one(f"#{field_id}", Input).value = text

    async def _load_recent(self) -> None:
        self.recent = await asyncio.to_thread(recent.load)
        self._offer_recent()
        if self._given is None and self.recent:
            self.fill(self.recent[0])

    def _offer_recent(self) -> None:
        options = [(recent.describe_config(c), i) for i, c in enumerate(self.recent or ())]
        select = self.query_one("#recent", Select)
        select.prompt = (
            f"{len(options)} kept: pick one to fill the form"
            if options
            else "none yet: the configs you start are kept here"
        )
        select.set_options(options)

    @on(Select.Changed, "#recent")
    def _pick_recent(self, event: Select.Changed) -> None:
        event.stop()
        if isinstance(event.value, int) and self.recent:
            self.fill(self.recent[event.value])
            # Back to the prompt: once edited, the form no longer is that config.
            event.select.clear()

    # Reading

    def typed(self) -> Typed:
        """What the controls hold, hidden ones included: Typed leaves those out."""
        return Typed(
            {field.id: self._input(field).value for field in TEXT_FIELDS},
            {name: self._choice(name) for name in CHOICES},
            keepalive=self._get("keepalive", Checkbox).value,
            sweep=self._get("sweep", Checkbox).value,
            capacity=self._get("capacity", Checkbox).value,
        )

    def config(self) -> Config:
        """What Start starts; UsageError with the first reason it cannot start."""
        return self.typed().config()

    def _choice(self, select_id: str) -> str:
        value = self._get(select_id, Select).value
        return value if isinstance(value, str) else ""

    def _get(self, widget_id: str, kind: type[W]) -> W:
        """The form's widget of that id, looked up once: the form never mounts or removes
        one, and a look-up walks the whole form (a few dozen at every key were half the
        cost of checking it)."""
        found = self._found.get(widget_id)
        if found is None:
            found = self._found[widget_id] = self.query_one(f"#{widget_id}", kind)
        assert isinstance(found, kind)
        return found

    def _field_rows(self) -> list[tuple[Widget, str, list[Widget]]]:
        """Each row, the name its applying is asked by, and its controls."""
        if self._rows is None:
            self._rows = [
                (row, (row.id or "").removeprefix("row-"), list(row.query(".control")))
                for row in self.query(".row")
            ]
        return self._rows

    def _input(self, field: TextField[object]) -> Input:
        return self._get(field.id, Input)

    # Checking

    @on(Input.Changed)
    @on(Select.Changed)
    @on(Checkbox.Changed)
    def _changed(self, event: Input.Changed | Select.Changed | Checkbox.Changed) -> None:
        event.stop()
        if event.control.id in (URLS.id, "tool"):
            self._protocol_from_urls()
        elif event.control.id == "protocol":
            self._urls_from_protocol()
        self._check()

    def _protocol_from_urls(self) -> None:
        protocol = self._get("protocol", Select)
        if not self.typed().applies("protocol") or protocol.value == "h1":
            return
        scheme_says = protocol_of_urls(self._input(URLS).value)
        if scheme_says is not None:
            protocol.value = scheme_says

    def _urls_from_protocol(self) -> None:
        protocol = self._choice("protocol")
        if protocol == "h1":
            return
        urls = self._input(URLS)
        rewritten = with_scheme(urls.value, "https" if protocol == "h2" else "http")
        if rewritten != " ".join(urls.value.split()):
            urls.value = rewritten

    def _check(self) -> None:
        """Show what applies, each field's own error beside it, the request's error under."""
        typed = self.typed()
        for row, name, controls in self._field_rows():
            applies = typed.applies(name)
            row.display = applies
            for control in controls:
                control.disabled = not applies
        for field in TEXT_FIELDS:
            error = self._get(f"{field.id}-error", SteadyStatic)
            message = typed.error(field)
            # Checked at every keystroke: an unchanged text must not cost a layout pass.
            error.show(Text(message))
            error.display = bool(message)
        status = self._get("status", SteadyStatic)
        # Until the form is valid, whether it will be a sweep is the tick's guess.
        sweeping = typed.sweep
        try:
            config = typed.config()
        except UsageError as exc:
            needed = typed.secrets_needed()
            status.show(Text(asking_line(needed) if needed else str(exc)))
            self.valid = bool(needed)
        else:
            status.show(Text.assemble(("ready: ", "bold"), typed.ready(config)))
            sweeping = config.sweep is not None
            self.valid = True
        status.set_class(not self.valid, "-invalid")
        start = self._get("start", Button)
        start.label = "Start sweep" if sweeping else "Start"
        start.disabled = not self.valid

    # Starting

    @on(Button.Pressed, "#start")
    def _start_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.action_start()

    @on(Input.Submitted)
    def _next_field(self, event: Input.Submitted) -> None:
        event.stop()
        self.screen.focus_next()

    def action_start(self) -> None:
        needed = self.typed().secrets_needed()
        if needed:
            self.app.push_screen(SecretDialog(needed), self._start_with)
            return
        typed = self.typed()
        try:
            config = typed.config()
        except UsageError as exc:
            self.notify(str(exc), severity="error")
            self._point_at(typed, str(exc))
            return
        self._starting = config
        if config.sweep is None:
            self.post_message(StartRun(config.request))
        else:
            self.post_message(StartSweep(config.request, config.sweep))

    def started(self) -> None:
        """The run (or sweep) asked for has started: its config is remembered as recent."""
        config, self._starting = self._starting, None
        if config is not None:
            # Exclusive: a slow first read must not put back the list from before this run.
            self.run_worker(self._remember(config), group="recent", exclusive=True)

    def refused(self, reason: str) -> None:
        """The run asked for was refused before any load: the refusal in the form's words
        where the Start line said ready, the focus on the field to change; nothing is
        remembered. Typed on, the form checks itself again."""
        self._starting = None
        said = reason
        for flag_advice, form_advice in FORM_ADVICE:
            said = said.replace(flag_advice, form_advice)
        status = self._get("status", SteadyStatic)
        status.show(Text.assemble(("refused: ", "bold"), said))
        status.set_class(True, "-invalid")
        advised = next((field for advice, field in ADVISED_FIELDS if advice in reason), None)
        if advised is not None:
            self._get(advised, Select).focus()
        else:
            self._point_at(self.typed(), said, fallback=URLS.id)

    def _start_with(self, secrets: dict[str, str] | None) -> None:
        if secrets:
            self._set_texts(self.typed().with_secrets(secrets).texts)
            self.action_start()

    def _point_at(self, typed: Typed, reason: str, fallback: str | None = None) -> None:
        """Focus on the field to fix first (else `fallback`), its message under it: typed
        on, the field's own check takes over again."""
        order = [field.id for field in self.query(Input) if field.id]
        culprit = typed.culprit(reason, order) or fallback
        if culprit is None:
            return
        error = self.query_one(f"#{culprit}-error", SteadyStatic)
        if not error.display:
            error.show(Text(reason))
            error.display = True
        field = self.query_one(f"#{culprit}", Input)
        field.focus()
        field.scroll_visible()

    async def _remember(self, config: Config) -> None:
        try:
            self.recent = await asyncio.to_thread(recent.remember, config)
        except OSError as exc:
            self.notify(
                printable(f"recent configs not saved: {exc}"), severity="warning", markup=False
            )
            return
        self._offer_recent()
