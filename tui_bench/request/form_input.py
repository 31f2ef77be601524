"""What the run form holds, as typed, and what it asks for. Which fields the chosen tool, mode
and server take; each read by its field's reader; the run made by run_request, as the
command line's flags are; the sweep of it the Sweep group asks for. The form widget only
copies its controls into a Typed, and a Typed into its controls."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TypeVar

from tui_bench.errors import UsageError
from tui_bench.redaction import Redacted, fill_in, redacted_in, stand_in
from tui_bench.request import recent
from tui_bench.request.fields import (
    BASELINE,
    BODY,
    CONNECTIONS,
    CONTENT_TYPE,
    COOL_DOWN,
    DURATION,
    FAIL_ON_REGRESSION,
    GENERATORS,
    HEADERS,
    MAX_ERRORS,
    METHOD,
    NAME,
    NO_COMPRESSION,
    RAMP,
    RATE,
    REPEAT,
    REQUESTS,
    SERVER_HOST,
    SERVER_NAME,
    SERVER_PID,
    SLO,
    STAGES,
    STREAMS,
    SWEEP_FIELDS,
    TAGS,
    TEXT_FIELDS,
    THREADS,
    THRESHOLDS,
    URLS,
    VARY,
    WARM_UP,
    TextField,
    protocol_of,
)
from tui_bench.request.judging import Judging
from tui_bench.request.recent import Config
from tui_bench.request.run import DEFAULT_DURATION_S, RunRequest
from tui_bench.request.run_defaults import DEFAULT_REQUEST, run_request
from tui_bench.request.sweep_plan import sweep_summary
from tui_bench.request.sweep_settings import SweepSettings
from tui_bench.spec import RunSpec
from tui_bench.stages import stages_text
from tui_bench.typed_values import format_duration
from tui_bench.validity_defaults import DEFAULT_MAX_ERRORS

T = TypeVar("T")

# The form's drop-down choices, by the id of their control.
CHOICES = ("tool", "protocol", "mode", "compress", "server_mode")


@dataclass(frozen=True)
class Typed:
    """Each text field's text by its id (a missing one is empty), each choice by its name in
    CHOICES, keep-alive's tick and the Sweep group's."""

    texts: Mapping[str, str]
    choices: Mapping[str, str]
    keepalive: bool = False
    sweep: bool = False
    capacity: bool = False

    @classmethod
    def of(cls, config: Config) -> Typed:
        """`config` as the form shows it. A single run leaves out the Sweep group's texts: they
        stay as they were, unticked."""
        request, spec = config.request, config.request.spec
        texts = {
            URLS.id: " ".join(spec.urls),
            CONNECTIONS.id: str(spec.connections),
            THREADS.id: str(spec.threads),
            STREAMS.id: _text(spec.streams),
            RATE.id: "" if spec.rate is None else f"{spec.rate:g}",
            DURATION.id: format_duration(spec.duration_s or DEFAULT_DURATION_S),
            REQUESTS.id: _text(spec.requests),
            WARM_UP.id: "" if spec.warm_up_s is None else format_duration(spec.warm_up_s),
            STAGES.id: stages_text(spec.stages),
            HEADERS.id: "; ".join(spec.headers),
            METHOD.id: spec.method or "",
            BODY.id: spec.body_file or "",
            CONTENT_TYPE.id: spec.content_type or "",
            SERVER_PID.id: _text(request.server_pid),
            SERVER_NAME.id: request.server_name or "",
            SERVER_HOST.id: request.server_host or "",
            GENERATORS.id: ", ".join(request.generators),
            NAME.id: request.name,
            TAGS.id: ", ".join(request.tags),
            **judging_texts(request.judging),
        }
        if config.sweep is not None:
            texts.update(sweep_texts(config.sweep))
        choices = {
            "tool": spec.tool,
            "protocol": protocol_of(spec),
            "mode": _mode_of(spec),
            "compress": spec.compress or NO_COMPRESSION,
            "server_mode": request.server_mode,
        }
        return cls(
            texts,
            choices,
            keepalive=spec.keepalive,
            sweep=config.sweep is not None,
            capacity=config.sweep is not None and config.sweep.capacity,
        )

    def applies(self, name: str) -> bool:
        """Whether the chosen tool, mode and server mode (and the Sweep tick) take this field
        or choice; one that does not is left out of the request."""
        tool, mode, server = (self.choice(c) for c in ("tool", "mode", "server_mode"))
        rules = {
            # ab is single-threaded: -t is not threads there.
            THREADS.id: tool != "ab",
            STREAMS.id: tool == "h2load",
            RATE.id: tool == "h2load",
            "protocol": tool == "h2load",
            WARM_UP.id: tool == "h2load" and mode == "duration",
            STAGES.id: mode == "stages",
            "keepalive": tool == "ab",
            DURATION.id: mode == "duration",
            REQUESTS.id: mode == "count",
            SERVER_PID.id: server == "pid",
            SERVER_NAME.id: server == "name",
            SERVER_HOST.id: server != "none",
            **{field.id: self.sweep for field in SWEEP_FIELDS},
            "capacity": self.sweep,
        }
        return rules.get(name, True)

    def choice(self, name: str) -> str:
        return self.choices.get(name, "")

    def text(self, field: TextField[object]) -> str:
        return self.texts.get(field.id, "").strip()

    def error(self, field: TextField[object]) -> str:
        """Why the field's reader refuses its text; empty when it reads, or does not apply."""
        if not self.applies(field.id):
            return ""
        try:
            field.read(self.text(field))
        except UsageError as exc:
            return str(exc)
        return ""

    def culprit(self, reason: str, order: Sequence[str]) -> str | None:
        """The id of the field to fix first when the form cannot start for `reason`: the first
        in `order` (the form's) that applies and refuses its own text, else the one `reason`
        names first (`-t 4 is more than -c 1`: threads)."""
        fields = {field.id: field for field in TEXT_FIELDS}
        shown = [fields[i] for i in order if i in fields and self.applies(i)]
        for field in shown:
            if self.error(field):
                return field.id
        named = [
            (found.start(), n, field.id)
            for n, field in enumerate(shown)
            if (found := _named(field).search(reason))
        ]
        return min(named)[2] if named else None

    def read(self, field: TextField[T]) -> T:
        """The field's value; UsageError naming the field unless the reason already does."""
        try:
            return field.read(self.text(field))
        except UsageError as exc:
            reason = str(exc)
            # The sweep's parsers name what they read (`--vary c=x: …`, `bad SLO …`).
            if field.label.lower() in reason.lower():
                raise
            raise UsageError(f"{field.label}: {reason}") from None

    def read_if(self, field: TextField[T]) -> T | None:
        return self.read(field) if self.applies(field.id) else None

    def request(self, *, check: bool = True) -> RunRequest:
        """The request the fields describe; UsageError with the first reason it cannot run.
        Unchecked (`check=False`) as the base of a sweep, whose points are checked instead."""
        protocol = self.choice("protocol") if self.applies("protocol") else None
        compress = self.choice("compress")
        spec = RunSpec(
            urls=self.read(URLS),
            tool=self.choice("tool"),
            connections=self.read(CONNECTIONS),
            threads=self.read_if(THREADS) or DEFAULT_REQUEST.spec.threads,
            requests=self.read_if(REQUESTS),
            duration_s=self.read_if(DURATION),
            warm_up_s=self.read_if(WARM_UP),
            streams=self.read_if(STREAMS),
            h1=protocol == "h1",
            keepalive=self.applies("keepalive") and self.keepalive,
            headers=self.read(HEADERS),
            compress=None if compress == NO_COMPRESSION else compress,
            rate=self.read_if(RATE),
            stages=self.read_if(STAGES) or (),
            method=self.read(METHOD),
            content_type=self.read(CONTENT_TYPE),
        ).with_body(self.read(BODY))
        asked = RunRequest(
            spec,
            server_mode=self.choice("server_mode"),
            server_pid=self.read_if(SERVER_PID),
            server_name=self.read_if(SERVER_NAME),
            server_host=self.read_if(SERVER_HOST),
            name=self.read(NAME),
            tags=self.read(TAGS),
            generators=self.read(GENERATORS),
            judging=self.judging(),
        )
        return run_request(asked, check=check)

    def judging(self) -> Judging:
        """How the run is judged: the thresholds, max errors, baseline and its gate."""
        max_errors = self.read(MAX_ERRORS)
        judging = Judging(
            thresholds=self.read(THRESHOLDS),
            max_errors=DEFAULT_MAX_ERRORS if max_errors is None else max_errors,
            baseline=self.read(BASELINE) or None,
            fail_on_regression=self.read(FAIL_ON_REGRESSION),
        )
        judging.check()
        return judging

    def sweep_settings(self) -> SweepSettings | None:
        """The Sweep group's settings; None for a single run (unticked, or nothing varies nor
        repeats)."""
        if not self.sweep:
            return None
        settings = SweepSettings(
            vary=self.read(VARY),
            ramp=self.read(RAMP),
            repeat=self.read(REPEAT),
            cool_down_s=self.read(COOL_DOWN),
            slo=self.read(SLO),
            capacity=self.applies("capacity") and self.capacity,
        )
        return settings if settings.is_sweep else None

    def config(self) -> Config:
        """What Start starts: the run, or the sweep of it the Sweep group asks for; UsageError
        with the first reason it cannot start."""
        sweep = self.sweep_settings()
        config = Config(self.request(check=sweep is None), sweep)
        config.check()
        return config

    def secrets_needed(self) -> list[Redacted]:
        """The secrets the texts were kept without (a config the recent list offers), when the
        form is good but for them; empty otherwise. Start asks for them."""
        needed = redacted_in(list(self.texts.values()))
        if needed:
            try:
                replace(self, texts=stand_in(dict(self.texts))).config()
            except UsageError:
                return []
        return needed

    def with_secrets(self, values: Mapping[str, str]) -> Typed:
        """The texts with each mark of `values` replaced by the secret given for it."""
        return replace(self, texts={k: fill_in(v, values) for k, v in self.texts.items()})

    def ready(self, config: Config) -> str:
        """What `config` (this form's) will start, in a line."""
        if config.sweep is not None:
            return sweep_summary(config.sweep.plan(config.request), config.sweep.cool_down_s)
        if self.sweep:
            return f"{recent.describe(config.request)} · nothing varied: one run"
        return recent.describe(config.request)


def judging_texts(judging: Judging) -> dict[str, str]:
    """The judging fields' texts for `judging`."""
    tolerance = judging.fail_on_regression
    return {
        THRESHOLDS.id: "; ".join(judging.thresholds),
        MAX_ERRORS.id: f"{judging.max_errors * 100:g}%",
        BASELINE.id: judging.baseline or "",
        FAIL_ON_REGRESSION.id: "" if tolerance is None else f"{tolerance:g}%",
    }


def sweep_texts(sweep: SweepSettings) -> dict[str, str]:
    """The Sweep group's texts for `sweep`."""
    return {
        VARY.id: "; ".join(sweep.vary),
        RAMP.id: "; ".join(sweep.ramp),
        REPEAT.id: str(sweep.repeat),
        # format_duration says 0ms.
        COOL_DOWN.id: format_duration(sweep.cool_down_s) if sweep.cool_down_s else "0",
        SLO.id: sweep.slo or "",
    }


def _text(value: int | None) -> str:
    return "" if value is None else str(value)


def _named(field: TextField[object]) -> re.Pattern[str]:
    """How a reason names the field: its flag (`-c`) or the first word of its label, singular
    (`URL(s)`: URL, `headers -H`: header)."""
    words = field.label.split()
    flags = [w for w in words if w.startswith("-")]
    word = words[0].removesuffix("(s)")
    word = word.removesuffix("s") if len(word) > 3 else word
    names = "|".join(re.escape(n) for n in (*flags, word))
    return re.compile(rf"(?<!\w)(?:{names})(?!\w)", re.IGNORECASE)


def _mode_of(spec: RunSpec) -> str:
    if spec.stages:
        return "stages"
    return "count" if spec.requests is not None else "duration"
