"""--stages read as k6's ramping-arrival-rate stages, and the steps a run of them goes through."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tui_bench.errors import UsageError
from tui_bench.request.run import RunRequest
from tui_bench.request.run_defaults import run_request
from tui_bench.spec import RunSpec
from tui_bench.stages import Stage, Step, parse_stages, stages_text, steps_of

URL = ("http://127.0.0.1:8080/",)


def test_stages_read_as_rate_and_duration() -> None:
    assert parse_stages("1000:30s,5k:1m, 5000:5m") == (
        Stage(1000, 30),
        Stage(5000, 60),
        Stage(5000, 300),
    )


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("1000", "expected RATE:DURATION"),
        ("1000:", "expected RATE:DURATION"),
        ("fast:10s", "bad stage 'fast:10s'"),
        ("1000:0.5s", "at least 1 s"),
        ("0:10s", "above 0"),
        ("1000:10s,,", "expected RATE:DURATION"),
    ],
)
def test_bad_stages_are_refused_in_a_line(text: str, said: str) -> None:
    with pytest.raises(UsageError, match=said):
        parse_stages(text)


def test_stages_read_back_as_written() -> None:
    stages = parse_stages("1500:90s,2500.5:1m,2500.5:1h")
    assert parse_stages(stages_text(stages)) == stages


def test_the_issue_example_holds_ramps_over_a_second_and_holds() -> None:
    steps = steps_of(parse_stages("2000:4s,5000:1s,5000:4s"), 2000)
    assert steps == (Step(0, 4, 2000), Step(4, 1, 3500), Step(5, 4, 5000))


def test_a_ramp_is_steps_of_a_second_each_at_its_mean_rate() -> None:
    steps = steps_of(parse_stages("1000:2.5s"), 0 + 500)
    assert [s.duration_s for s in steps] == [1, 1, 0.5]
    # 500 -> 1000 over 2.5 s: the rate at each step's middle.
    assert [s.rate for s in steps] == [600, 800, 950]
    # As many requests as the ramp sends: its mean rate over its length.
    assert sum(s.rate * s.duration_s for s in steps) == pytest.approx(750 * 2.5)


def test_without_rate_the_first_stage_holds_its_own() -> None:
    assert steps_of(parse_stages("800:3s,1600:1s"), None) == (Step(0, 3, 800), Step(3, 1, 1200))


def _request(**spec: object) -> RunRequest:
    return RunRequest(replace(RunSpec(urls=URL, connections=10), **spec))  # type: ignore[arg-type]


def test_a_run_of_stages_lasts_as_long_as_they_do_from_the_first_rate() -> None:
    request = run_request(_request(stages=parse_stages("1000:30s,5000:1m")))
    assert request.spec.duration_s == 90
    assert request.spec.rate == 1000


@pytest.mark.parametrize(
    ("spec", "said"),
    [
        ({"duration_s": 10.0}, "sets the run's length"),
        ({"requests": 1000}, "sets the run's length"),
        ({"tool": "wrk"}, "--stages needs h2load"),
        ({"tool": "ab"}, "--stages needs h2load"),
        ({"warm_up_s": 2.0}, "give the warm-up as a first stage"),
        ({"connections": 2000}, "lower -c"),
    ],
)
def test_what_stages_cannot_run_is_refused_before_the_load(
    spec: dict[str, object], said: str
) -> None:
    with pytest.raises(UsageError, match=said):
        run_request(_request(stages=parse_stages("1000:2s,1500:2s"), **spec))


def test_stages_are_kept_in_the_spec_and_read_back() -> None:
    spec = run_request(_request(stages=parse_stages("1000:2s,1500:2s"))).spec
    assert RunSpec.from_dict(spec.to_dict()) == spec
