from dataclasses import replace

import pytest

from tui_bench.errors import UsageError
from tui_bench.request.run import RunRequest
from tui_bench.request.sweep_plan import (
    Dimension,
    Slot,
    Variant,
    build_plan,
    parse_label,
    parse_ramp,
    parse_vary,
)
from tui_bench.spec import RunSpec

URL = "http://127.0.0.1:8080/"


def variant(label: str | None = None, **spec: object) -> Variant:
    fields = {"urls": (URL,), "duration_s": 10.0, **spec}
    return Variant(label, RunRequest(RunSpec(**fields)), {"h2load": None})  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("text", "name", "values"),
    [
        ("c=100,200,300,400", "c", (100, 200, 300, 400)),
        ("connections=1", "c", (1,)),
        ("m = 1, 10 ,100", "m", (1, 10, 100)),
        ("d=10,500ms,2m", "d", (10.0, 0.5, 120.0)),
        ("tool=h2load,wrk,ab", "tool", ("h2load", "wrk", "ab")),
        ("url=http://a/,http://b/", "url", ("http://a/", "http://b/")),
        ("protocol=h1,h2", "protocol", ("h1", "h2")),
        ("warm-up=0,1s", "warm-up", (0.0, 1.0)),
    ],
)
def test_vary(text: str, name: str, values: tuple[object, ...]) -> None:
    assert parse_vary(text) == Dimension(name, values)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("x=1,2", "unknown parameter 'x'"),
        ("c=abc", "expected a whole number, got 'abc'"),
        ("c=0", "at least 1"),
        ("c=100,100", "'100' is given twice"),
        ("c", "expected NAME=V1,V2"),
        ("c=", "expected NAME=V1,V2"),
        ("tool=curl", "'curl' is not one of h2load, wrk, ab"),
        ("d=ten", "bad duration 'ten'"),
        ("protocol=h3", "not one of h1, h2c, h2"),
    ],
)
def test_bad_vary_is_one_line(text: str, message: str) -> None:
    with pytest.raises(UsageError, match=message) as err:
        parse_vary(text)
    assert str(err.value).startswith("--vary") and "\n" not in str(err.value)


def test_ramp_in_equal_steps() -> None:
    assert parse_ramp("c=400/4") == Dimension("c", (100, 200, 300, 400))
    assert parse_ramp("n=1000/1") == Dimension("n", (1000,))
    assert parse_ramp("d=20s/4") == Dimension("d", (5.0, 10.0, 15.0, 20.0))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("c=400/3", "400 is not a multiple of 3"),
        ("c=400", "expected NAME=MAX/STEPS"),
        ("c=400/0", "at least 1"),
        ("c=abc/4", "whole number"),
        ("tool=wrk/2", "tool is not a number; use --vary"),
        ("d=0/2", "more than 0"),
    ],
)
def test_bad_ramp(text: str, message: str) -> None:
    with pytest.raises(UsageError, match=message):
        parse_ramp(text)


def test_label_args_split_like_a_shell() -> None:
    assert parse_label("legacy=http://127.0.0.1:8080/ -c 50 -H 'X-A: 1 2'") == (
        "legacy",
        ["http://127.0.0.1:8080/", "-c", "50", "-H", "X-A: 1 2"],
    )
    assert parse_label("new=") == ("new", [])


@pytest.mark.parametrize("text", ["legacy", "=http://a/", "two words=http://a/", "a='open"])
def test_bad_labels(text: str) -> None:
    with pytest.raises(UsageError, match="--label"):
        parse_label(text)


def test_cartesian_product_of_labels_and_dimensions() -> None:
    plan = build_plan(
        [variant("old"), variant("new", urls=("http://127.0.0.1:8081/",))],
        [parse_vary("c=10,20"), parse_vary("m=1,10")],
    )
    assert [p.name for p in plan.points] == [
        "old c=10 m=1",
        "old c=10 m=10",
        "old c=20 m=1",
        "old c=20 m=10",
        "new c=10 m=1",
        "new c=10 m=10",
        "new c=20 m=1",
        "new c=20 m=10",
    ]
    last = plan.points[-1]
    assert (last.spec.connections, last.spec.streams, last.spec.urls) == (
        20,
        10,
        ("http://127.0.0.1:8081/",),
    )
    assert plan.labels == ("old", "new")
    assert [p.index for p in plan.points] == list(range(8))


def test_repeats_are_interleaved_round_by_round_every_other_one_backwards() -> None:
    plan = build_plan([variant()], [parse_vary("c=10,20,40")], repeat=3)
    assert [(s.point, s.repeat) for s in plan.order] == [
        (0, 0), (1, 0), (2, 0),
        (2, 1), (1, 1), (0, 1),
        (0, 2), (1, 2), (2, 2),
    ]  # fmt: skip
    assert plan.to_dict()["order"] == [[s.point, s.repeat] for s in plan.order]
    # Over an even number of rounds each point is as often early in a round as late.
    pair = build_plan([variant()], [parse_vary("c=10,20")], repeat=4)
    assert [s.point for s in pair.order] == [0, 1, 1, 0, 0, 1, 1, 0]


def test_plain_repeat_is_one_point() -> None:
    plan = build_plan([variant(connections=5)], [], repeat=4)
    assert len(plan.points) == 1 and plan.points[0].name == ""
    assert plan.order == tuple(Slot(0, r) for r in range(4))
    assert plan.points[0].spec.connections == 5


def test_count_and_duration_replace_each_other() -> None:
    plan = build_plan([variant()], [parse_vary("n=100,200")])
    assert plan.points[0].spec.requests == 100 and plan.points[0].spec.duration_s is None
    plan = build_plan([variant(requests=5, duration_s=None)], [parse_vary("d=1")])
    assert plan.points[0].spec.duration_s == 1.0 and plan.points[0].spec.requests is None


def test_url_and_protocol_values_apply() -> None:
    plan = build_plan(
        [variant(urls=())],
        [parse_vary("url=http://127.0.0.1:1/"), parse_vary("protocol=h1,h2c,h2")],
    )
    # As the run form has them: h2c is HTTP/2 over http://, h2 over TLS.
    assert [(p.spec.urls, p.spec.h1, p.spec.expected_protocol) for p in plan.points] == [
        (("http://127.0.0.1:1/",), True, "http/1.1"),
        (("http://127.0.0.1:1/",), False, "h2c"),
        (("https://127.0.0.1:1/",), False, "h2"),
    ]
    assert plan.points[0].name == "url=http://127.0.0.1:1/ protocol=h1"
    https = build_plan([variant(urls=("https://a/",))], [parse_vary("protocol=h2c")])
    assert https.points[0].spec.urls == ("http://a/",)


@pytest.mark.parametrize(
    ("variants", "dimensions", "message"),
    [
        ([variant(threads=4)], ["c=8,2"], "point c=2: -t 4 is more than -c 2"),
        ([variant(streams=10)], ["tool=h2load,wrk"], "point tool=wrk: -m, --h1"),
        ([variant("old", urls=())], ["c=1"], "point old c=1: no URL given"),
        ([variant(urls=())], [], "^no URL given"),
        ([variant()], ["c=1", "connections=2"], "c is varied twice"),
        ([variant("a"), variant("a")], [], "--label a is given twice"),
    ],
)
def test_a_point_that_cannot_run_is_named(
    variants: list[Variant], dimensions: list[str], message: str
) -> None:
    with pytest.raises(UsageError, match=message):
        build_plan(variants, [parse_vary(d) for d in dimensions])


def test_plan_document_names_points_and_values() -> None:
    plan = build_plan([variant("old")], [parse_ramp("c=20/2")], repeat=2)
    doc = plan.to_dict()
    assert doc["vary"] == [{"name": "c", "values": [10, 20]}]
    assert doc["labels"] == ["old"] and doc["repeat"] == 2
    assert doc["points"][1]["name"] == "old c=20"
    assert doc["points"][1]["values"] == {"c": 20}
    assert doc["points"][1]["request"]["spec"]["connections"] == 20


def test_rate_is_a_dimension_of_open_loops() -> None:
    assert parse_vary("rate=1000,2.5k") == Dimension("rate", (1000.0, 2500.0))
    assert parse_vary("rps=500") == Dimension("rate", (500.0,))
    assert parse_ramp("rate=10k/4") == Dimension("rate", (2500.0, 5000.0, 7500.0, 10000.0))
    plan = build_plan([variant(connections=10)], [parse_ramp("rate=3k/2")])
    assert [p.spec.rate for p in plan.points] == [1500.0, 3000.0]
    assert [p.name for p in plan.points] == ["rate=1500", "rate=3000"]
    assert plan.points[0].spec.per_client_rate == 150.0


@pytest.mark.parametrize(
    ("tool", "values", "message"),
    [
        ("wrk", "rate=1000", "point rate=1000: --rate needs h2load"),
        ("h2load", "rate=0", "expected a rate above 0"),
        ("h2load", "rate=fast", "expected requests per second"),
    ],
)
def test_a_rate_that_cannot_run_is_refused(tool: str, values: str, message: str) -> None:
    with pytest.raises(UsageError, match=message):
        build_plan([variant(tool=tool)], [parse_vary(values)])


def test_a_search_runs_its_points_in_steps() -> None:
    plan = build_plan([variant()], [parse_vary("c=1,2")], repeat=2)
    stepwise = replace(plan, in_steps=True)
    assert stepwise.order == (Slot(0, 0), Slot(0, 1), Slot(1, 0), Slot(1, 1))
