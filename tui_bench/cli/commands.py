"""The subcommands. Each returns the process exit status."""

from __future__ import annotations

import argparse
import asyncio
import signal
import sys
from pathlib import Path
from typing import Any

import orjson
import psutil

from tui_bench.cli.args import check_interval
from tui_bench.cli.progress import ProgressPrinter, summary_text
from tui_bench.engine.controller import EngineOptions
from tui_bench.engine.events import RunFinished
from tui_bench.engine.request import RunRequest
from tui_bench.errors import UsageError
from tui_bench.parsers import ParseError
from tui_bench.parsers.detect import parse_output
from tui_bench.runners.tools import Tool, find_tool
from tui_bench.spec import RunSpec
from tui_bench.storage import store
from tui_bench.storage.export import export, fmt_count, fmt_seconds, result_rows
from tui_bench.storage.session import Session

EXIT_CODES = {"completed": 0, "failed": 1, "interrupted": 130}
DEFAULT_DURATION_S = 10.0
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


def spec_from_args(args: argparse.Namespace) -> RunSpec:
    duration = args.duration
    if args.requests is None and duration is None:
        duration = DEFAULT_DURATION_S
    return RunSpec(
        urls=tuple(args.urls),
        tool=args.tool,
        connections=args.connections,
        threads=args.threads,
        requests=args.requests,
        duration_s=duration,
        warm_up_s=args.warm_up,
        streams=args.streams,
        h1=args.h1,
        keepalive=args.keepalive,
        headers=tuple(args.header),
        compress=args.compress,
    ).validate()


def request_from_args(args: argparse.Namespace) -> RunRequest:
    if args.server_pid is not None:
        mode = "pid"
    elif args.server_name is not None:
        mode = "name"
    else:
        mode = "none" if args.no_server else "auto"
    return RunRequest(
        spec_from_args(args),
        server_mode=mode,
        server_pid=args.server_pid,
        server_name=args.server_name,
        name=args.name,
        tags=tuple(args.tag),
    )


def cmd_run(args: argparse.Namespace) -> int:
    request = request_from_args(args)
    spec = request.spec
    interval = check_interval(args.interval)
    tool = find_tool(spec.tool, getattr(args, f"{spec.tool}_path"))
    engine = EngineOptions(
        request.server(), interval, request.name, request.tags, live_hook=not args.no_live_hook
    )
    if not args.headless:
        from tui_bench.ui.launch import UiOptions, run_live

        code, last = asyncio.run(run_live(spec, tool, engine, UiOptions.from_args(args)))
        return report(last, as_json=args.json) if last else code
    return report(asyncio.run(run_headless(spec, tool, engine)), as_json=args.json)


async def run_headless(spec: RunSpec, tool: Tool, engine: EngineOptions) -> RunFinished:
    controller = engine.controller(spec, tool, ProgressPrinter())
    loop = asyncio.get_running_loop()
    for sig in STOP_SIGNALS:
        loop.add_signal_handler(sig, controller.stop)
    try:
        return await controller.run()
    finally:
        for sig in STOP_SIGNALS:
            loop.remove_signal_handler(sig)


def report(finished: RunFinished, *, as_json: bool) -> int:
    if as_json:
        payload: dict[str, Any] = finished.result.to_dict() if finished.result else {}
        # "status" is the result's status-class counts: the run's own state has its key.
        payload.update(
            run_status=finished.status,
            message=finished.message,
            session_path=str(finished.session_path),
        )
        _print(orjson.dumps(payload).decode())
    else:
        _print(summary_text(finished), sys.stderr)
    return EXIT_CODES[finished.status]


def cmd_demo(args: argparse.Namespace) -> int:
    from tui_bench.demo.nginx_target import start_demo_target

    async def demo() -> tuple[int, RunFinished | None]:
        target = await start_demo_target()
        try:
            url = target.urls.get("h2c") or target.urls["h1"]
            spec = RunSpec(
                urls=(url,),
                connections=16,
                duration_s=args.duration,
                streams=10 if "h2c" in target.urls else None,
                h1="h2c" not in target.urls,
            ).validate()
            tool = find_tool("h2load", args.h2load_path)
            server = psutil.Process(target.pid)
            engine = EngineOptions(server, name="demo", tags=("demo",))
            if not args.headless:
                from tui_bench.ui.launch import UiOptions, run_live

                return await run_live(spec, tool, engine, UiOptions.from_args(args))
            sys.stderr.write(f"demo target on {url} (pid {target.pid})\n")
            finished = await run_headless(spec, tool, engine)
            return EXIT_CODES[finished.status], finished
        finally:
            await target.stop()

    code, last = asyncio.run(demo())
    return report(last, as_json=False) if last else code


def cmd_home(args: argparse.Namespace) -> int:
    from tui_bench.ui.launch import RunLauncher, UiOptions, run_home

    code, _ = asyncio.run(run_home(UiOptions.from_args(args), RunLauncher()))
    return code


def cmd_replay(args: argparse.Namespace) -> int:
    from tui_bench.ui.launch import UiOptions, run_replay

    session = store.load(args.session)
    code, _ = asyncio.run(run_replay(session, UiOptions.from_args(args)))
    return code


def cmd_compare(args: argparse.Namespace) -> int:
    from tui_bench.ui.launch import UiOptions, run_compare

    a, b = store.load(args.a), store.load(args.b)
    code, _ = asyncio.run(run_compare(a, b, UiOptions.from_args(args)))
    return code


def cmd_import(args: argparse.Namespace) -> int:
    path = Path(args.file)
    try:
        text = path.read_text(errors="replace")
    except OSError as exc:
        raise UsageError(f"cannot read {path}: {exc.strerror}") from None
    try:
        result = parse_output(text, args.tool)
    except ParseError as exc:
        raise UsageError(f"{path}: {exc}") from None
    saved = None
    if args.save or not args.json:
        saved = store.save_imported(result, text, source=path, name=args.name, tags=args.tag)
    if args.json:
        payload: dict[str, Any] = result.to_dict()
        if saved is not None:
            payload["session_path"] = str(saved)
        _print(orjson.dumps(payload).decode())
    else:
        for label, value in result_rows(result):
            _print(f"{label:<10} {value}")
        _print(f"session    {saved}")
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    session = store.load(args.session)
    text = export(session, args.format)
    if args.output:
        try:
            Path(args.output).write_text(text)
        except OSError as exc:
            raise UsageError(f"cannot write {args.output}: {exc.strerror}") from None
    else:
        sys.stdout.write(text)
    return 0


def cmd_sessions(args: argparse.Namespace) -> int:
    entries = store.list_sessions()
    if args.json:
        rows = [
            session_row(e.session) | {"path": str(e.path)}
            if e.session
            else {"path": str(e.path), "error": e.error}
            for e in entries
        ]
        _print(orjson.dumps(rows).decode())
        return 0
    if not entries:
        _print(f"no sessions in {store.sessions_dir()}")
        return 0
    header = ("id", "status", "tool", "url", "c", "req/s", "p99", "tags")
    table = [header]
    for entry in entries:
        if entry.session is None:
            table.append((entry.path.name, "unreadable", "", entry.error or "", "", "", "", ""))
            continue
        row = session_row(entry.session)
        table.append(
            (
                row["id"],
                row["status"],
                row["tool"],
                row["url"],
                str(row["c"]),
                fmt_count(row["rps"]),
                fmt_seconds(row["p99_s"]),
                ",".join(row["tags"]),
            )
        )
    widths = [max(len(r[i]) for r in table) for i in range(len(header))]
    for r in table:
        _print("  ".join(cell.ljust(w) for cell, w in zip(r, widths, strict=True)).rstrip())
    return 0


def session_row(session: Session) -> dict[str, Any]:
    spec = session.spec
    result = session.result
    latency = result.latency if result else None
    return {
        "id": session.id,
        "name": session.name,
        "status": session.status,
        "started_at": session.doc.get("started_at"),
        "tool": spec.tool,
        "url": " ".join(spec.urls),
        "c": spec.connections,
        "rps": result.rps if result else None,
        "p99_s": latency.percentiles.get("p99_s") if latency else None,
        "tags": list(session.doc.get("tags") or []),
    }


def cmd_doctor(args: argparse.Namespace) -> int:
    from tui_bench.doctor import format_checks, run_checks

    _print(format_checks(run_checks()))
    return 0


def _print(text: str, out: Any = None) -> None:
    print(text, file=out or sys.stdout)
