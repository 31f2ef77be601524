"""What is redacted, the keyed fingerprint, and a request saved without its secrets."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from tui_bench import redaction
from tui_bench.errors import UsageError
from tui_bench.redaction import (
    MARK,
    fill_in,
    fingerprint,
    key_path,
    redact,
    redact_text,
    redacted_in,
    stand_in,
)
from tui_bench.spec import RunSpec


def marked(value: str) -> str:
    return f"{MARK}{fingerprint(value)}"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Authorization: Bearer abc.def", "Authorization: {Bearer abc.def}"),
        ("proxy-authorization:Basic dTpw", "proxy-authorization:{Basic dTpw}"),
        ("Cookie: a=1; b=2", "Cookie: {a=1; b=2}"),
        ("X-API-Key: k1", "X-API-Key: {k1}"),
        ("api-key: k2", "api-key: {k2}"),
        ("X-Auth-Token: t3", "X-Auth-Token: {t3}"),
        ("X-Private-Key: k14", "X-Private-Key: {k14}"),
        ("/x?apiKey=k15&accessToken=t16", "/x?apiKey={k15}&accessToken={t16}"),
        ("-HAuthorization: t4", "-HAuthorization: {t4}"),
        ("http://user:pw@127.0.0.1:8080/", "http://user:{pw}@127.0.0.1:8080/"),
        ("/x?api_key=k5&q=1", "/x?api_key={k5}&q=1"),
        # In a line: the URL before the header does not hide it, the quote ends the value.
        ("h2load http://h/ -H 'Cookie: c6' -c 2", "h2load http://h/ -H 'Cookie: {c6}' -c 2"),
        ('["Authorization: Bearer t7"]', '["Authorization: {Bearer t7}"]'),
        ("Running 1s test @ http://u:p8@h:80/", "Running 1s test @ http://u:{p8}@h:80/"),
        # ab prints the host without the scheme.
        ("get() for alice:p9@127.0.0.1: Name", "get() for alice:{p9}@127.0.0.1: Name"),
        ("(bench:p10@[::1]:80)", "(bench:{p10}@[::1]:80)"),
        ("http://u:p11@h/x?next=http://v:p12@g/", "http://u:{p11}@h/x?next=http://v:{p12}@g/"),
        # A header's value is redacted whole, whatever it holds.
        ("X-Trace: 1 Cookie: c13 http://u:p@h", "X-Trace: 1 Cookie: {c13 http://u:p@h}"),
    ],
)
def test_secret_looking_values_are_marked(text: str, expected: str) -> None:
    secrets = [part.split("}")[0] for part in expected.split("{")[1:]]
    want = expected
    for secret in secrets:
        want = want.replace(f"{{{secret}}}", marked(secret))
    assert redact_text(text) == want
    assert redact_text(want) == want  # idempotent: a mark is not marked again


@pytest.mark.parametrize(
    "text",
    [
        "Content-Type: text/html",
        "Accept-Encoding: gzip",
        "monkey: 3",
        # A credential by a word of its name, not a piece of one.
        ":authority: [::1]:8080",
        "Keep-Alive: timeout=5",
        "/x?key_id=7&author=me",
        "time for request:      1.10ms      3.94ms",
        "http://127.0.0.1:8080/path?q=1&size=10",
        "http://user@127.0.0.1/",
        "git@github.com:org/repo",
        "GET / HTTP/1.1 @ 12:30",
        "a@b:c@d",
    ],
)
def test_other_values_are_kept(text: str) -> None:
    assert redact_text(text) == text


def test_documents_are_redacted_value_by_value_keys_kept() -> None:
    doc = {"headers": ["Authorization: x"], "token": "not a header", "n": 1, "t": (None,)}
    assert redact(doc) == {
        "headers": [f"Authorization: {marked('x')}"],
        "token": "not a header",
        "n": 1,
        "t": [None],
    }


def test_the_fingerprint_is_keyed_and_the_key_private(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = fingerprint("Bearer same")
    assert first == fingerprint("Bearer same") != fingerprint("Bearer other")
    assert len(first) == 8
    path = key_path()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    # Another account's key: the same value, another fingerprint (a guess cannot be tested
    # against a session file without the key).
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "elsewhere"))
    assert fingerprint("Bearer same") != first
    assert key_path() != path and key_path().is_file()


def test_an_unwritable_config_dir_still_fingerprints(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "file").write_text("not a directory")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "file"))
    monkeypatch.setattr(redaction, "_keys", {})
    assert fingerprint("a") == fingerprint("a") != fingerprint("b")


def test_a_request_saved_without_its_secrets_is_refused_in_one_line() -> None:
    saved = redact_text("Authorization: Bearer t")
    spec = RunSpec(urls=("http://127.0.0.1:1/",), headers=(saved,), duration_s=1)
    with pytest.raises(UsageError) as caught:
        spec.validate()
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith(f"Authorization is {saved.split(': ')[1]}, a value saved")
    url = redact_text("http://u:pw@127.0.0.1:1/")
    with pytest.raises(UsageError, match=r"^password in http://u@…"):
        RunSpec(urls=(url,), duration_s=1).validate()
    # A bad URL is said without its password.
    with pytest.raises(UsageError) as caught:
        RunSpec(urls=("ftp://u:pw@127.0.0.1/",), duration_s=1).validate()
    assert "pw" not in str(caught.value)


def test_the_secrets_found_filled_in_and_stood_in_for() -> None:
    header, url = redact_text("Cookie: c=1"), redact_text("http://u:pw@h/")
    found = redacted_in([header, url, header])
    assert [r.where for r in found] == ["Cookie", "password in http://u@…"]
    assert found[0].fingerprint == fingerprint("c=1")
    values = {found[0].mark: "c=2", found[1].mark: "pw"}
    assert [fill_in(t, values) for t in (header, url)] == ["Cookie: c=2", "http://u:pw@h/"]
    assert stand_in({"h": [header]}) == {"h": ["Cookie: secret"]}


def test_h2load_s_tls_lines_are_not_secrets() -> None:
    line = "Server Temp Key: X25519 253 bits\nCipher: TLS_AES_128_GCM_SHA256\n"
    assert redact_text(line) == line
    assert redact_text("Client-Key: k") == f"Client-Key: {marked('k')}"
