"""One way from what was asked to a RunRequest: the defaults, the checks, the server mode."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tui_bench.cli.args import build_parser
from tui_bench.cli.run_flags import request_from_args
from tui_bench.errors import UsageError
from tui_bench.request.run import RunRequest
from tui_bench.request.run_defaults import DEFAULT_REQUEST, run_request, server_mode_of
from tui_bench.spec import RunSpec


def flags(*argv: str) -> RunRequest:
    return request_from_args(build_parser().parse_args(["run", *argv]))


def test_the_command_line_and_the_form_ask_the_same_way() -> None:
    from_flags = flags("-c", "8", "-m", "4", "-H", "X-A: 1", "--server-name", "nginx",
                       "--server-host", "web1", "--name", "n", "--tag", "t",
                       "http://127.0.0.1:1/")  # fmt: skip
    from_fields = run_request(
        RunRequest(
            RunSpec(urls=("http://127.0.0.1:1/",), connections=8, streams=4, headers=("X-A: 1",)),
            server_mode="name",
            server_name="nginx",
            server_host="web1",
            name="n",
            tags=("t",),
        )
    )
    assert from_flags == from_fields
    assert from_fields.spec.duration_s == 10.0, "neither -n nor -d: ten seconds"


def test_no_flags_but_the_url_is_the_default_request() -> None:
    url = "http://127.0.0.1:1/"
    default = replace(DEFAULT_REQUEST, spec=replace(DEFAULT_REQUEST.spec, urls=(url,)))
    assert flags(url) == run_request(default) == default


def test_a_request_count_is_not_given_a_duration() -> None:
    asked = RunRequest(RunSpec(urls=("http://a/",), requests=50))
    assert run_request(asked).spec.duration_s is None
    assert flags("-n", "50", "http://a/") == run_request(asked)


def test_an_empty_server_host_is_none() -> None:
    asked = RunRequest(RunSpec(urls=("http://a/",)), server_host="")
    assert run_request(asked).server_host is None


def test_a_refusal_is_the_same_words_both_ways() -> None:
    with pytest.raises(UsageError) as from_flags:
        flags("-c", "1", "-t", "2", "http://a/")
    with pytest.raises(UsageError) as from_fields:
        run_request(RunRequest(RunSpec(urls=("http://a/",), connections=1, threads=2)))
    assert str(from_flags.value) == str(from_fields.value) == "-t 2 is more than -c 1"


def test_a_sweeps_base_is_not_checked() -> None:
    unchecked = run_request(RunRequest(RunSpec(urls=(), connections=1, threads=2)), check=False)
    assert unchecked.spec.threads == 2, "a sweep's base is checked point by point"
    assert unchecked.spec.duration_s == 10.0


@pytest.mark.parametrize(
    ("pid", "name", "none", "mode"),
    [(7, None, False, "pid"), (None, "nginx", False, "name"), (None, None, True, "none"),
     (None, None, False, "auto")],
)  # fmt: skip
def test_the_server_flags_as_the_forms_server_choice(
    pid: int | None, name: str | None, none: bool, mode: str
) -> None:
    assert server_mode_of(pid, name, none) == mode
