import pytest

from tui_bench.errors import UsageError
from tui_bench.spec import RunSpec, is_loopback


def spec(**kw: object) -> RunSpec:
    base: dict[str, object] = {"urls": ("http://127.0.0.1:8080/",), "duration_s": 1.0}
    base.update(kw)
    return RunSpec(**base)  # type: ignore[arg-type]


def test_valid_spec_passes_and_round_trips() -> None:
    s = spec(headers=("X-A: 1",), streams=10, compress="br").validate()
    assert RunSpec.from_dict(s.to_dict()) == s
    assert s.all_headers() == ("X-A: 1", "Accept-Encoding: br")


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"urls": ("ftp://127.0.0.1/",)}, "expected http"),
        ({"urls": ("http://127.0.0.1:99999/",)}, "bad port"),
        ({"urls": ("http:///x",)}, "no host"),
        (
            {"urls": ("http://127.0.0.1:8080/café/a?q=é",)},
            "not ASCII; give it as http://127.0.0.1:8080/caf%C3%A9/a?q=%C3%A9",
        ),
        ({"urls": ("http://bücher.example/",)}, "give it as http://xn--bcher-kva.example/"),
        ({"tool": "siege"}, "unknown tool"),
        (
            {"urls": ("http://127.0.0.1:8080/a", "http://127.0.0.1:8081/b")},
            "first URL's http://127.0.0.1:8080, never to http://127.0.0.1:8081",
        ),
        ({"urls": ("http://[::1]/a", "https://[::1]/b")}, "never to https://[::1]:443"),
        ({"threads": 20, "connections": 10}, "more than -c"),
        ({"requests": 10}, "not both"),
        ({"headers": ("NoColon",)}, "bad header"),
        ({"headers": ("X: a\r\nInjected: 1",)}, "bad header"),
        ({"tool": "wrk", "headers": (":authority: h:1",)}, "'Host: …' for :authority"),
        (
            {"tool": "ab", "duration_s": None, "requests": 5, "headers": (":path: /",)},
            "only h2load",
        ),
        ({"headers": (":method: PUT",)}, "-X METHOD"),
        ({"headers": (":status: 200",)}, "unknown pseudo-header :status"),
        ({"tool": "wrk", "duration_s": None, "requests": 5}, "duration"),
        ({"tool": "ab", "streams": 4}, "h2load options"),
        ({"tool": "ab", "h1": True, "duration_s": None, "requests": 5}, "h2load options"),
        ({"compress": "lzma"}, "--compress"),
        ({"connections": 500_000_000}, "-c 500,000,000 is more than 1,000,000"),
        ({"tool": "ab", "duration_s": None, "requests": 10**5, "connections": 30_000}, "for ab"),
        ({"streams": 2**31}, "-m 2,147,483,648 is more than 2,147,483,647"),
    ],
)
def test_invalid_specs_say_why_in_one_line(changes: dict[str, object], message: str) -> None:
    with pytest.raises(UsageError) as err:
        spec(**changes).validate()
    assert message in str(err.value)
    assert "\n" not in str(err.value)


def test_h2load_takes_several_paths_of_one_origin() -> None:
    urls = ("http://127.0.0.1/a", "http://127.0.0.1:80/b?q=1", "http://u@127.0.0.1/c")
    assert spec(urls=urls).validate().urls == urls


def test_h2load_takes_a_pseudo_header_by_its_name() -> None:
    s = spec(headers=(":authority: [::1]:8080",)).validate()
    assert s.header_value(":authority") == "[::1]:8080"
    assert s.header_value("authority") is None


def test_protocol_expectations() -> None:
    assert spec().expected_protocol == "h2c"
    assert spec(urls=("https://localhost/",)).expected_protocol == "h2"
    assert spec(h1=True).expected_protocol == "http/1.1"
    assert spec(tool="wrk").expected_protocol == "http/1.1"
    assert spec(tool="ab").expected_protocol == "http/1.0"


def test_loopback() -> None:
    assert is_loopback("http://127.0.0.2:1/")
    assert is_loopback("http://localhost/")
    assert not is_loopback("http://example.invalid/")


def test_wrk_takes_h1_as_the_only_protocol_it_speaks() -> None:
    assert spec(tool="wrk", h1=True).validate().expected_protocol == "http/1.1"
