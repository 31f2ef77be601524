"""What the run form holds, read as the command line's flags are: the same requests, the same
sweeps, the same refusals."""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from tui_bench.cli.args import build_parser
from tui_bench.cli.cmd_sweep import plan_from_args
from tui_bench.cli.run_flags import request_from_args
from tui_bench.errors import UsageError
from tui_bench.request.fields import CONNECTIONS, GENERATORS, STREAMS
from tui_bench.request.form_input import Typed, sweep_texts
from tui_bench.request.recent import Config
from tui_bench.request.run import RunRequest
from tui_bench.request.run_defaults import DEFAULT_REQUEST
from tui_bench.request.sweep_plan import SweepPlan
from tui_bench.request.sweep_settings import SweepSettings


def form(
    texts: Mapping[str, str] | None = None,
    *,
    keepalive: bool = False,
    sweep: bool = False,
    **choices: str,
) -> Typed:
    """A new form (the defaults, an empty URL) with `texts` typed and `choices` picked."""
    shown = Typed.of(Config(DEFAULT_REQUEST))
    return Typed(
        {**shown.texts, **sweep_texts(SweepSettings()), **(texts or {})},
        {**shown.choices, **choices},
        keepalive=keepalive,
        sweep=sweep,
    )


def flags(*argv: str) -> RunRequest:
    return request_from_args(build_parser().parse_args(["run", *argv]))


SAME_RUNS = [
    (
        ["-c", "8", "-m", "4", "-H", "X-A: 1", "-H", "Cookie: a=1; b=2", "--server-name", "nginx",
         "--server-host", "web1", "--name", "n", "--tag", "t", "--tag", "u", "http://127.0.0.1:1/"],
        form({"urls": "http://127.0.0.1:1/", "connections": "8", "streams": "4",
              "headers": "X-A: 1; Cookie: a=1; b=2", "server_name": "nginx",
              "server_host": "web1", "name": "n", "tags": "t, u"}, server_mode="name"),
    ),
    (
        ["--tool", "ab", "-k", "-c", "4", "-n", "100", "--no-server", "http://a/"],
        form({"urls": "http://a/", "connections": "4", "requests": "100"}, keepalive=True,
             tool="ab", mode="count", server_mode="none"),
    ),
    (
        ["--h1", "--warm-up", "2s", "-d", "30s", "--compress", "gzip", "--server-pid", "7",
         "https://a/", "https://a/x"],
        form({"urls": "https://a/ https://a/x", "warm_up": "2s", "duration": "30s",
              "server_pid": "7"}, protocol="h1", compress="gzip", server_mode="pid"),
    ),
    (["--tool", "wrk", "-t", "2", "http://a/"],
     form({"urls": "http://a/", "threads": "2"}, tool="wrk")),
    (["-c", "4", "--generator", "local", "--generator", "ssh://bench@c:2222", "http://a/"],
     form({"urls": "http://a/", "connections": "4", "generators": "local, ssh://bench@c:2222"})),
    (["--rate", "500", "--stages", "500:2s,1000:1m", "http://a/"],
     form({"urls": "http://a/", "rate": "500", "stages": "500:2s,1000:1m"}, mode="stages")),
]  # fmt: skip


@pytest.mark.parametrize(("argv", "typed"), SAME_RUNS)
def test_the_form_and_the_command_line_ask_the_same_way(argv: list[str], typed: Typed) -> None:
    assert typed.request() == flags(*argv)
    assert typed.config() == Config(flags(*argv))


@pytest.mark.parametrize("argv", [argv for argv, _ in SAME_RUNS])
def test_what_the_form_shows_reads_back_as_it_was(argv: list[str]) -> None:
    config = Config(flags(*argv))
    assert Typed.of(config).config() == config


def test_a_new_form_asks_for_the_command_lines_defaults() -> None:
    assert form({"urls": "http://a/"}).request() == flags("http://a/")


@pytest.mark.parametrize(
    ("argv", "typed", "reason"),
    [
        (["-c", "1", "-t", "2", "http://a/"],
         form({"urls": "http://a/", "connections": "1", "threads": "2"}),
         "-t 2 is more than -c 1"),
        (["--tool", "wrk", "-n", "5", "http://a/"],
         form({"urls": "http://a/", "requests": "5"}, tool="wrk", mode="count"),
         "wrk runs for a duration: give -d SECONDS"),
        (["--tool", "ab", "http://a/", "http://b/"],
         form({"urls": "http://a/ http://b/"}, tool="ab"),
         "ab takes one URL; only h2load takes several"),
        (["-H", "no colon", "http://a/"],
         form({"urls": "http://a/", "headers": "no colon"}),
         "bad header 'no colon': expected 'Name: value' without control characters"),
        (["-c", "100", "-n", "10", "http://a/"],
         form({"urls": "http://a/", "connections": "100", "requests": "10"}, mode="count"),
         "-n 10 is fewer than -c 100: every connection needs at least one request"),
        (["-d", "99999999", "http://a/"],
         form({"urls": "http://a/", "duration": "99999999"}),
         "-d 99999999s is longer than a day, the longest run taken"),
    ],
)  # fmt: skip
def test_a_refusal_is_the_same_words_both_ways(argv: list[str], typed: Typed, reason: str) -> None:
    with pytest.raises(UsageError) as from_flags:
        flags(*argv)
    with pytest.raises(UsageError) as from_form:
        typed.config()
    assert str(from_flags.value) == str(from_form.value) == reason


def test_a_bad_field_is_named_in_the_request_and_not_beside_it() -> None:
    typed = form({"urls": "http://a/", "connections": "0"})
    with pytest.raises(UsageError) as refused:
        typed.request()
    assert str(refused.value) == f"connections -c: {typed.error(CONNECTIONS)}"
    assert typed.error(CONNECTIONS) and not typed.error(STREAMS)
    with pytest.raises(UsageError, match=r"^--vary"):
        form({"urls": "http://a/", "vary": "c=x"}, sweep=True).config()


def test_what_the_tool_does_not_take_is_left_out_and_not_checked() -> None:
    typed = form({"urls": "http://a/", "streams": "many", "warm_up": "soon"}, tool="wrk")
    assert not typed.applies(STREAMS.id) and not typed.applies("protocol")
    assert typed.error(STREAMS) == ""
    spec = typed.request().spec
    assert (spec.streams, spec.warm_up_s, spec.h1) == (None, None, False)
    assert form({"streams": "many"}).error(STREAMS)


def test_keepalive_counts_for_ab_only() -> None:
    assert not form({"urls": "http://a/"}, keepalive=True).request().spec.keepalive
    assert form({"urls": "http://a/"}, keepalive=True, tool="ab").request().spec.keepalive


def points(plan: SweepPlan) -> list[tuple[object, ...]]:
    return [(p.name, p.request) for p in plan.points]


@pytest.mark.parametrize(
    ("argv", "typed"),
    [
        (["--vary", "c=10,20", "--ramp", "m=4/2", "--repeat", "2", "-t", "2", "http://a/"],
         form({"urls": "http://a/", "threads": "2", "vary": "c=10,20", "ramp": "m=4/2",
               "repeat": "2"}, sweep=True)),
        # The URL varied, none of its own: only the points are checked.
        (["--vary", "url=http://a/,http://b/", "--vary", "protocol=h1,h2c"],
         form({"vary": "url=http://a/,http://b/; protocol=h1,h2c"}, sweep=True)),
    ],
)  # fmt: skip
def test_the_form_sweeps_the_points_the_command_line_sweeps(argv: list[str], typed: Typed) -> None:
    cli = plan_from_args(build_parser().parse_args(["sweep", *argv]))
    config = typed.config()
    assert config.sweep is not None
    mine = config.sweep.plan(config.request)
    assert points(mine) == points(cli) and mine.repeat == cli.repeat
    assert typed.ready(config).startswith(f"sweep of {len(cli.points)} points")


def test_a_sweep_shown_in_the_form_reads_back_as_it_was() -> None:
    settings = SweepSettings(("c=10,20",), ("m=4/2",), repeat=3, cool_down_s=0.5, slo="p99<50ms")
    config = Config(flags("http://a/"), settings)
    typed = Typed.of(config)
    assert typed.sweep and typed.config() == config
    no_pause = Config(flags("http://a/"), SweepSettings(vary=("c=1,2",), cool_down_s=0))
    assert Typed.of(no_pause).texts["cool_down"] == "0"
    assert Typed.of(no_pause).config() == no_pause


def test_ticked_but_varying_nothing_is_a_single_run_checked_as_one() -> None:
    typed = form({"urls": "http://a/"}, sweep=True)
    assert typed.config() == Config(flags("http://a/"))
    assert typed.ready(typed.config()).endswith("· nothing varied: one run")
    with pytest.raises(UsageError, match=r"^no URL given$"):
        form(sweep=True).config()
    assert form({"vary": "url=http://a/"}, sweep=True).config().sweep is not None


def test_a_bad_generator_is_refused_as_the_flag_refuses_it() -> None:
    with pytest.raises(UsageError, match="bad host '-oProxyCommand=x'"):
        flags("--generator=-oProxyCommand=x", "http://a/")
    assert (
        form({"urls": "http://a/", "generators": "local, -oProxyCommand=x"})
        .error(GENERATORS)
        .startswith("bad host '-oProxyCommand=x'")
    )


def test_stages_in_the_form_are_refused_as_on_the_command_line() -> None:
    with pytest.raises(UsageError, match="a stage lasts at least 1 s"):
        form({"urls": "http://a/", "stages": "500:0.5s"}, mode="stages").request()
    with pytest.raises(UsageError, match="--stages needs h2load"):
        form({"urls": "http://a/", "stages": "500:2s"}, mode="stages", tool="wrk").request()


def test_the_sweep_group_searches_the_capacity_within_its_slo() -> None:
    typed = form({"urls": "http://a/", "slo": "p99<20ms"}, sweep=True)
    searched = Typed(typed.texts, typed.choices, sweep=True, capacity=True)
    config = searched.config()
    assert config.sweep is not None and config.sweep.capacity
    assert Typed.of(config).capacity
    assert Config.from_dict(config.to_dict()) == config
    # Unticked, the tick is not kept.
    unticked = Typed(typed.texts, typed.choices, sweep=False, capacity=True)
    assert unticked.config().sweep is None


@pytest.mark.parametrize("texts", [{"slo": ""}, {"slo": "p99<20ms", "vary": "c=1,2"}])
def test_a_capacity_search_needs_its_slo_and_varies_nothing_else(texts: dict[str, str]) -> None:
    typed = form({"urls": "http://a/", **texts}, sweep=True)
    with pytest.raises(UsageError, match="a capacity search varies the rate itself"):
        Typed(typed.texts, typed.choices, sweep=True, capacity=True).config()
