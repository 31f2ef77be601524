"""The readers of typed-in values."""

from __future__ import annotations

import pytest

from tui_bench.errors import UsageError
from tui_bench.request.fields import (
    clauses,
    optional,
    protocol_of_urls,
    read_headers,
    read_tags,
    read_urls,
    required,
    with_scheme,
)
from tui_bench.request.sweep_plan import parse_vary
from tui_bench.typed_values import parse_positive_int


def test_headers_split_on_semicolons_only_before_a_new_name() -> None:
    assert read_headers("X-A: 1; Cookie: a=1; b=2; Accept: text/html;q=0.9") == (
        "X-A: 1",
        "Cookie: a=1; b=2",
        "Accept: text/html;q=0.9",
    )
    assert read_headers("X-A: 1;") == ("X-A: 1",)
    assert read_headers("  ;  ") == ()


def test_urls_split_on_blanks_and_each_is_checked() -> None:
    assert read_urls(" http://a/  https://b:1/x ") == ("http://a/", "https://b:1/x")
    with pytest.raises(UsageError, match="expected http:// or https://"):
        read_urls("http://a/ ftp://b/")


def test_tags_split_on_commas() -> None:
    assert read_tags(" a, b ,, c ") == ("a", "b", "c")


def test_an_empty_text_is_refused_when_required_and_none_when_optional() -> None:
    with pytest.raises(UsageError, match=r"^required$"):
        required(parse_positive_int)("")
    assert optional(parse_positive_int)("") is None
    assert optional(parse_positive_int)("3") == 3


def test_clauses_are_kept_as_typed_once_each_reads() -> None:
    read = clauses(parse_vary)
    assert read(" c=1,2 ;; m=1,10 ") == ("c=1,2", "m=1,10")
    with pytest.raises(UsageError, match="--vary"):
        read("c=1,2; nope")


def test_with_scheme_rewrites_only_http_urls() -> None:
    assert with_scheme("http://a/ HTTPS://b:1/x junk", "https") == "https://a/ https://b:1/x junk"


@pytest.mark.parametrize(
    ("urls", "protocol"),
    [("https://a/ http://b/", "h2"), (" HTTP://a/", "h2c"), ("ftp://a/", None), ("", None)],
)
def test_the_first_urls_scheme_says_the_protocol(urls: str, protocol: str | None) -> None:
    assert protocol_of_urls(urls) == protocol
