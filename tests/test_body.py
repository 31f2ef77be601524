"""Methods and bodies: read once and bounded, told by size and digest, refused alike by the
command line and the core, and handed to each tool its own way."""

from __future__ import annotations

import hashlib
import io
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import orjson
import pytest

from tui_bench.analysis.compare import request_body
from tui_bench.body import MAX_BODY_BYTES, STDIN, Body, looks_secret, read_body
from tui_bench.engine.streamed import program_of
from tui_bench.errors import UsageError
from tui_bench.request.sweep_plan import parse_vary
from tui_bench.result import NON_2XX, NON_2XX_3XX, Requests, Result
from tui_bench.runners.invocation import build
from tui_bench.spec import RunSpec
from tui_bench.validity import judge_run

URL = "http://127.0.0.1:8080/echo"
PAYLOAD = b'{"id": 7, "name": "caf\xc3\xa9"}\n'


def spec_with(tmp_path: Path, name: str = "order.json", **changes: object) -> RunSpec:
    path = tmp_path / name
    path.write_bytes(PAYLOAD)
    changed = replace(RunSpec(urls=(URL,), requests=20, connections=2), **changes)
    return changed.with_body(read_body(str(path))).validate()


def test_a_file_is_sent_as_post_with_its_type_and_digest(tmp_path: Path) -> None:
    spec = spec_with(tmp_path)
    assert spec.request_method == "POST"
    assert spec.sent_content_type == "application/json"
    assert spec.all_headers() == ("Content-Type: application/json",)
    kept = spec.to_dict()
    assert "body" not in kept
    assert kept["method"] == "POST" and kept["content_type"] == "application/json"
    assert kept["body_size"] == len(PAYLOAD)
    assert kept["body_sha256"] == hashlib.sha256(PAYLOAD).hexdigest()
    # Read back as asked: the same method and type, no bytes.
    again = RunSpec.from_dict(orjson.loads(orjson.dumps(kept)))
    assert (again.method, again.content_type, again.body) == (None, None, None)
    assert again.request_method == "POST" and again.sent_content_type == "application/json"
    with pytest.raises(UsageError, match="is not kept: give it again"):
        again.validate()


def test_standard_input_is_read_once_and_bounded() -> None:
    assert read_body(STDIN, io.BytesIO(b"abc")) == Body(STDIN, b"abc")
    with pytest.raises(UsageError, match=r"more than 8,388,608 bytes: at most 8,388,608 bytes"):
        read_body(STDIN, io.BytesIO(b"x" * (MAX_BODY_BYTES + 1)))


def test_a_10_mb_body_is_refused_with_the_limit(tmp_path: Path) -> None:
    big = tmp_path / "big.bin"
    big.write_bytes(b"\0" * 10_000_000)
    with pytest.raises(UsageError) as caught:
        read_body(str(big))
    assert str(caught.value) == (
        f"--body {big} is 10,000,000 bytes: at most 8,388,608 bytes (8 MiB) are sent"
    )


def test_a_secret_looking_body_is_kept_by_fingerprint() -> None:
    secret = Body("login.json", b'{"user": "ann", "password": "hunter2"}')
    assert looks_secret(secret.data)
    assert secret.digest.startswith("redacted:")
    assert "hunter2" not in secret.digest and len(secret.digest) == len("redacted:") + 8
    assert not looks_secret(PAYLOAD)
    spec = RunSpec(urls=(URL,)).with_body(secret)
    assert request_body(spec).endswith(secret.digest)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"tool": "ab", "method": "DELETE"}, "ab sends only GET, POST and PUT"),
        ({"tool": "ab", "method": "GET"}, "ab sends a body only with POST or PUT"),
        ({"method": "GE T"}, "bad method"),
        ({"headers": ("Content-Type: text/plain",), "content_type": "a/b"}, "once"),
    ],
)
def test_refusals(tmp_path: Path, changes: dict[str, object], message: str) -> None:
    with pytest.raises(UsageError, match=message):
        spec_with(tmp_path, **changes)


def test_content_type_needs_a_body() -> None:
    with pytest.raises(UsageError, match="--content-type needs --body"):
        RunSpec(urls=(URL,), content_type="application/json").validate()


@pytest.mark.parametrize(
    ("flags", "said"),
    [
        (
            ["--tool", "ab", "-X", "DELETE"],
            "ab sends only GET, POST and PUT (-p, -u): DELETE needs h2load or wrk",
        ),
        (
            ["--body", "{big}"],
            "--body {big} is 10,000,000 bytes: at most 8,388,608 bytes (8 MiB) are sent",
        ),
    ],
)
def test_the_command_line_refuses_in_one_line(tmp_path: Path, flags: list[str], said: str) -> None:
    big = tmp_path / "big.bin"
    big.write_bytes(b"\0" * 10_000_000)
    argv = [w.format(big=big) for w in ["run", "--headless", "-n", "10", *flags, URL]]
    done = subprocess.run(
        [sys.executable, "-m", "tui_bench.cli.main", *argv],
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [f"tuibench: error: {said.format(big=big)}"]


def test_each_tool_is_given_the_body_its_own_way(tmp_path: Path) -> None:
    work = tmp_path / "run"
    h2 = build(spec_with(tmp_path, method="PUT"), "h2load", "1.52.0", work)
    words = list(h2.argv)
    assert words[words.index("-d") + 1] == str(work / "body")
    assert words[words.index(":method: PUT") - 1] == "-H"
    assert h2.body == PAYLOAD and h2.body_file == work / "body"
    # POST is what h2load sends with -d: no :method of ours.
    assert ":method: POST" not in build(spec_with(tmp_path), "h2load", "1.52.0", work).argv
    wrk = build(spec_with(tmp_path, tool="wrk", duration_s=1, requests=None), "wrk", None, work)
    assert wrk.argv[-5:] == ("--", "method", "POST", "body", str(work / "body"))
    ab = build(spec_with(tmp_path, tool="ab", method="PUT"), "ab", None, work)
    assert ab.argv[-5:] == ("-u", str(work / "body"), "-T", "application/json", URL)
    assert "Content-Type: application/json" not in ab.argv  # -T sends it, once


def test_the_body_travels_on_the_ssh_input_not_in_the_argv(tmp_path: Path) -> None:
    invocation = build(spec_with(tmp_path), "h2load", "1.52.0", tmp_path / "run")
    program = program_of(invocation, 0.5)
    sent = orjson.loads(program[-1])
    assert sent["fed"] == {"body": len(PAYLOAD)}
    assert [p[2] for p in sent["paths"]].count("body") == 1
    assert PAYLOAD.decode() not in program[-1]


def test_payload_size_is_a_sweep(tmp_path: Path) -> None:
    (tmp_path / "small.json").write_bytes(b"{}")
    (tmp_path / "large.json").write_bytes(b"[" + b"1," * 1000 + b"1]")
    dimension = parse_vary(f"body={tmp_path / 'small.json'},{tmp_path / 'large.json'}")
    assert dimension.name == "body" and len(dimension.values) == 2
    with pytest.raises(UsageError, match="standard input is read once"):
        parse_vary("body=@-")
    with pytest.raises(UsageError, match="No such file"):
        parse_vary(f"body={tmp_path / 'missing.json'}")


def test_the_run_form_reads_the_body_file_as_the_command_line_does(tmp_path: Path) -> None:
    from tests.request.test_form_input import form

    path = tmp_path / "order.json"
    path.write_bytes(PAYLOAD)
    texts = {"urls": URL, "method": "PUT", "body": str(path)}
    spec = form(texts).request().spec
    assert (spec.request_method, spec.body, spec.sent_content_type) == (
        "PUT",
        PAYLOAD,
        "application/json",
    )
    with pytest.raises(UsageError, match="standard input"):
        form({**texts, "body": STDIN}).request()
    with pytest.raises(UsageError, match="ab sends only GET, POST and PUT"):
        form({**texts, "method": "PATCH"}, tool="ab").request()


@pytest.mark.parametrize(
    ("tool", "errors", "said"),
    [
        ("wrk", {NON_2XX_3XX: 900}, "a status outside 2xx and 3xx"),
        ("ab", {NON_2XX: 900}, "a status outside 2xx"),
    ],
)
def test_a_refused_run_says_what_was_sent(
    tmp_path: Path, tool: str, errors: dict[str, int], said: str
) -> None:
    sent = spec_with(tmp_path, tool=tool, method="PUT", duration_s=1, requests=None)
    result = Result(tool, requests=Requests(total=1000, succeeded=100), errors=errors)
    reasons = {r.code: r.message for r in judge_run(sent, "completed", None, result, []).reasons}
    assert reasons["refused"].startswith(
        f"900 of 1,000 requests (90%) were answered {said}: the server refused PUT with a "
        f"{len(PAYLOAD)}-byte application/json body"
    )
    # A GET without a body that meets 404s is an error count, not a refused request.
    plain = replace(sent, method=None).with_body(None)
    assert "refused" not in {
        r.code for r in judge_run(plain, "completed", None, result, []).reasons
    }


def test_a_remembered_run_reads_its_body_file_again(tmp_path: Path) -> None:
    from tui_bench.request.recent import Config
    from tui_bench.request.run import RunRequest

    spec = spec_with(tmp_path)
    kept = orjson.loads(orjson.dumps(Config(RunRequest(spec)).to_dict()))
    assert "caf" not in str(kept)  # the payload's bytes are not remembered
    (tmp_path / "order.json").write_bytes(b"{}")
    again = Config.from_dict(kept).request.spec
    assert again.body == b"{}" and again.body_size == 2
    again.validate()


@pytest.mark.parametrize(
    ("status_codes", "said"),
    [
        ({"405": 900, "200": 100}, "were answered 405 Method Not Allowed: the server refused"),
        (
            {"405": 600, "413": 250, "4xx": 50, "200": 100},
            "were answered 4xx, 600 of them 405 Method Not Allowed: the server refused",
        ),
    ],
)
def test_a_refused_run_names_the_exact_code_where_the_tool_told_it(
    tmp_path: Path, status_codes: dict[str, int], said: str
) -> None:
    sent = spec_with(tmp_path, method="POST")
    result = Result(
        "h2load",
        requests=Requests(total=1000, succeeded=100),
        status={"2xx": 100, "4xx": 900},
        status_codes=status_codes,
    )
    reasons = {r.code: r for r in judge_run(sent, "completed", None, result, []).reasons}
    assert reasons["refused"].verdict == "invalid"
    assert reasons["refused"].message == (
        f"900 of 1,000 requests (90%) {said} POST with a {len(PAYLOAD)}-byte application/json body"
    )
    # Without the codes (an older session) the class is named, with what each code means.
    unknown = {
        r.code: r.message
        for r in judge_run(sent, "completed", None, result.with_(status_codes={}), []).reasons
    }
    assert unknown["refused"].startswith("900 of 1,000 requests (90%) were answered 4xx: ")
    assert unknown["refused"].endswith("415: a content type it does not take)")
