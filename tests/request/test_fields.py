"""The readers of typed-in values, and one way from what was asked to a RunRequest."""

from __future__ import annotations

import pytest

from tui_bench.cli.args import build_parser
from tui_bench.cli.commands import request_from_args
from tui_bench.errors import UsageError
from tui_bench.request.asked import run_request
from tui_bench.request.fields import read_headers, with_scheme
from tui_bench.request.run import RunRequest
from tui_bench.spec import RunSpec


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


def test_the_command_line_and_the_form_ask_the_same_way() -> None:
    argv = ["run", "-c", "8", "-m", "4", "-H", "X-A: 1", "--server-name", "nginx",
            "--server-host", "web1", "--name", "n", "--tag", "t",
            "http://127.0.0.1:1/"]  # fmt: skip
    from_flags = request_from_args(build_parser().parse_args(argv))
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


def test_a_refusal_is_the_same_words_both_ways() -> None:
    with pytest.raises(UsageError) as flags:
        request_from_args(build_parser().parse_args(["run", "-c", "1", "-t", "2", "http://a/"]))
    with pytest.raises(UsageError) as fields:
        run_request(RunRequest(RunSpec(urls=("http://a/",), connections=1, threads=2)))
    assert str(flags.value) == str(fields.value) == "-t 2 is more than -c 1"
    unchecked = run_request(RunRequest(RunSpec(urls=(), connections=1, threads=2)), check=False)
    assert unchecked.spec.threads == 2, "a sweep's base is checked point by point"
