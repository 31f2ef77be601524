"""How a RunSpec becomes a process: the exact argv for each tool, never a shell string."""

from __future__ import annotations

import base64
import math
import re
from dataclasses import dataclass, field, replace
from importlib import resources
from pathlib import Path
from urllib.parse import unquote, urlsplit, urlunsplit

from tui_bench.errors import UsageError
from tui_bench.runners.file_limit import files_needed
from tui_bench.spec import AB_BODY_METHODS, CONTENT_TYPE, RATE_DECIMALS, RunSpec, split_header

# ab sizes its stats array from -n; in -t mode it needs an -n that the time limit, not the
# count, reaches first. ab is single-threaded and stays far below this rate.
AB_MAX_RPS = 200_000
AB_MAX_REQUESTS = 2**31 - 1
# A run in which nothing is answered for this long is stopped: ab's own per-answer wait
# (-s, 30 s by default) in count mode, the engine for h2load.
STALL_TIMEOUT_S = 10.0
BODY_FILE = "body"
# What each tool sends on its own: h2load POSTs its -d file, wrk and ab send GET.
H2LOAD_METHOD = {True: "POST", False: "GET"}


@dataclass(frozen=True)
class Invocation:
    argv: tuple[str, ...]
    # h2load's per-request log, tailed live; None for tools that have none.
    log_file: Path | None = None
    # h2load >= 1.70 writes its JSON summary here.
    json_file: Path | None = None
    # The request body the tool reads from `body_file`: written there for a tool run here,
    # sent over the SSH connection for one run on another host.
    body_file: Path | None = None
    body: bytes | None = field(default=None, repr=False)
    # Its connections, and the open files it needs for them and its own: a generator on
    # another host raises its limit to these there, or refuses.
    connections: int | None = None
    open_files: int | None = None


def version_tuple(version: str | None) -> tuple[int, ...]:
    if not version:
        return ()
    match = re.match(r"\d+(?:\.\d+)*", version)
    return tuple(int(p) for p in match.group(0).split(".")) if match else ()


def lua_script() -> Path:
    return Path(str(resources.files("tui_bench.runners").joinpath("wrk_report.lua")))


def build(
    spec: RunSpec,
    exe: str,
    version: str | None,
    workdir: Path,
    *,
    live_hook: bool = True,
    stall_timeout_s: float = STALL_TIMEOUT_S,
) -> Invocation:
    """The argv for `spec`; `workdir` is a fresh directory for per-run files."""
    spec = credentials_as_header(spec)
    body_file = workdir / BODY_FILE
    if spec.tool == "h2load":
        invocation = _h2load(spec, exe, version, workdir, body_file)
    elif spec.tool == "wrk":
        invocation = _wrk(spec, exe, live_hook, body_file)
    else:
        invocation = _ab(spec, exe, stall_timeout_s, body_file)
    return replace(invocation, connections=spec.connections, open_files=files_needed(spec))


def _h2load(
    spec: RunSpec, exe: str, version: str | None, workdir: Path, body_file: Path
) -> Invocation:
    if spec.warm_up_s and spec.count_mode:
        raise UsageError("--warm-up needs -d: h2load has warm-up only in duration mode")
    log_file = workdir / "requests.tsv"
    argv: list[str] = [exe, "-c", str(spec.connections), "-t", str(spec.threads)]
    if spec.count_mode:
        argv += ["-n", str(spec.requests)]
    else:
        argv += ["-D", _seconds(spec.duration_s)]
        if spec.warm_up_s:
            argv += ["--warm-up-time", _seconds(spec.warm_up_s)]
    if spec.streams:
        argv += ["-m", str(spec.streams)]
    if spec.per_client_rate is not None:
        argv.append(f"--rps={rate_text(spec.per_client_rate)}")
    if spec.h1:
        argv.append("--h1")
    has_body = spec.body_file is not None
    if has_body:
        argv += ["-d", str(body_file)]
    if spec.request_method != H2LOAD_METHOD[has_body]:
        # h2load takes a pseudo-header as any other: `:method` replaces the one it would send.
        argv += ["-H", f":method: {spec.request_method}"]
    headers = spec.all_headers()
    authority = _bracketed_authority(spec.urls[0])
    if authority and spec.header_value(":authority") is None and spec.header_value("host") is None:
        # h2load 1.52 sends an IPv6 host unbracketed (`Host: ::1:8080`), which servers refuse.
        headers = (f":authority: {authority}", *headers)
    for header in headers:
        argv += ["-H", header]
    argv.append(f"--log-file={log_file}")
    json_file = None
    if version_tuple(version) >= (1, 70):
        json_file = workdir / "summary.json"
        argv.append(f"--output-file={json_file}")
        # From 1.70 h2load no longer flushes stdout per line on a pipe.
        argv = ["stdbuf", "-oL", *argv]
    argv += list(spec.urls)
    return Invocation(
        tuple(argv),
        log_file=log_file,
        json_file=json_file,
        body_file=_file_of(spec.body, body_file),
        body=spec.body,
    )


def _file_of(data: bytes | None, body_file: Path) -> Path | None:
    return None if data is None else body_file


def _wrk(spec: RunSpec, exe: str, live_hook: bool, body_file: Path) -> Invocation:
    seconds = _whole_seconds(spec)
    argv = [exe, "-t", str(spec.threads), "-c", str(spec.connections), "-d", f"{seconds}s"]
    argv.append("--latency")
    for header in spec.all_headers():
        argv += ["-H", header]
    argv += ["-s", str(lua_script()), spec.urls[0]]
    # The script sets wrk.method and wrk.body: one request, built once, with or without
    # the live hook.
    script_args = [] if live_hook else ["no-live"]
    if spec.request_method != "GET":
        script_args += ["method", spec.request_method]
    if spec.body is not None:
        script_args += ["body", str(body_file)]
    if script_args:
        argv += ["--", *script_args]
    return Invocation(tuple(argv), body_file=_file_of(spec.body, body_file), body=spec.body)


def _ab(spec: RunSpec, exe: str, stall_timeout_s: float, body_file: Path) -> Invocation:
    argv = [exe, "-c", str(spec.connections)]
    if spec.count_mode:
        # ab prints no progress under a tenth of -n: only ab itself can tell it waits.
        argv += ["-n", str(spec.requests), "-s", str(max(1, math.ceil(stall_timeout_s)))]
    else:
        seconds = _whole_seconds(spec)
        # -t resets -n, so -n must come after it.
        argv += ["-t", str(seconds), "-n", str(min(AB_MAX_REQUESTS, seconds * AB_MAX_RPS))]
    if spec.keepalive:
        argv.append("-k")
    body = None
    if spec.request_method in AB_BODY_METHODS:
        # ab POSTs (-p) and PUTs (-u) only a file, an empty one for a request without a body;
        # its -T is the Content-Type, sent once.
        body = spec.body or b""
        flag = "-p" if spec.request_method == "POST" else "-u"
        argv += [flag, str(body_file)]
        if spec.sent_content_type is not None:
            argv += ["-T", spec.sent_content_type]
    for header in spec.all_headers():
        if body is None or split_header(header)[0].strip().lower() != CONTENT_TYPE:
            argv += ["-H", header]
    argv.append(_with_path(spec.urls[0]))
    return Invocation(tuple(argv), body_file=_file_of(body, body_file), body=body)


def rate_text(per_client: float) -> str:
    """As h2load is given it: `333.333333`, `500`."""
    return f"{per_client:.{RATE_DECIMALS}f}".rstrip("0").rstrip(".")


def _whole_seconds(spec: RunSpec) -> int:
    return int(spec.run_duration_s or 1)


def _seconds(value: float | None) -> str:
    # h2load's -D takes whole units: "1.5s" is an error, "1500ms" is not.
    return f"{round((value or 0) * 1000)}ms"


def credentials_as_header(spec: RunSpec) -> RunSpec:
    """A URL's `user:password@` as the Authorization header a browser sends for it: h2load
    and wrk drop it (every request 401) and ab takes it for part of the host name."""
    parts = urlsplit(spec.urls[0])
    if parts.username is None:
        return spec
    userinfo = f"{unquote(parts.username)}:{unquote(parts.password or '')}"
    headers = spec.headers
    if spec.header_value("authorization") is None:
        basic = base64.b64encode(userinfo.encode()).decode("ascii")
        headers = (*headers, f"Authorization: Basic {basic}")
    urls = tuple(_without_userinfo(url) for url in spec.urls)
    return replace(spec, urls=urls, headers=headers)


def _without_userinfo(url: str) -> str:
    parts = urlsplit(url)
    return urlunsplit(parts._replace(netloc=parts.netloc.rpartition("@")[2]))


def _bracketed_authority(url: str) -> str | None:
    """`[::1]:8080` for a URL (without credentials) naming an IPv6 address; None for any
    other host."""
    netloc = urlsplit(url).netloc
    return netloc if netloc.startswith("[") else None


def _with_path(url: str) -> str:
    """ab rejects a URL without a path ("invalid URL")."""
    parts = urlsplit(url)
    return url if parts.path else urlunsplit(parts._replace(path="/"))
