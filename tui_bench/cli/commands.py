"""The subcommands. Each returns the process exit status."""

from __future__ import annotations

import argparse
import asyncio
import copy
import io
import signal
import sys
from collections.abc import Coroutine, Mapping, Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any, Protocol, TextIO, TypeVar

import orjson
import psutil

from tui_bench.analysis.significance import Side, compare_sides, side_of
from tui_bench.analysis.sweep_points import latency_keys, run_values
from tui_bench.analysis.thresholds import Threshold, evaluate, parse_slo, parse_threshold
from tui_bench.cli.args import check_interval, label_parser
from tui_bench.cli.baseline import BaselineAsk, asked_baseline, gate_compare, judge_new, say
from tui_bench.cli.baseline import cmd_baseline as cmd_baseline
from tui_bench.cli.history import print_history
from tui_bench.cli.output import write_output
from tui_bench.cli.progress import ProgressPrinter, summary_text
from tui_bench.engine.events import Event, RunFinished, RunWarning
from tui_bench.engine.fleet_check import find_fleet
from tui_bench.engine.generators import Generator, version_warning
from tui_bench.engine.load_split import split_spec
from tui_bench.engine.options import EngineOptions
from tui_bench.engine.sweep import (
    SweepEvent,
    SweepFinished,
    SweepOptions,
    SweepRunFinished,
    SweepRunner,
    prepare_fleet,
)
from tui_bench.errors import SessionError, UsageError
from tui_bench.formats import fmt_count, fmt_metric, fmt_seconds
from tui_bench.parsers import ParseError
from tui_bench.parsers.detect import parse_output
from tui_bench.redaction import redact_text
from tui_bench.remote.server import check
from tui_bench.remote.ssh import SshHost
from tui_bench.report.comparison import comparison_text
from tui_bench.report.exit_codes import EXIT_CODES, exit_code, sweep_exit_code
from tui_bench.report.export import export, write_export
from tui_bench.report.text import (
    GENERATOR_KEYS,
    generator_lines,
    result_rows,
    run_line,
    verdict_line,
)
from tui_bench.request.run import RunRequest
from tui_bench.request.run_defaults import run_request, server_mode_of
from tui_bench.request.sweep_plan import (
    SweepPlan,
    Variant,
    build_plan,
    parse_label,
    parse_ramp,
    parse_vary,
)
from tui_bench.runners.tools import Tool, find_tool
from tui_bench.spec import TOOLS, RunSpec
from tui_bench.storage import store
from tui_bench.storage.index import indexed
from tui_bench.storage.refs import Selection
from tui_bench.storage.session import Session
from tui_bench.validity import of_session

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
T_co = TypeVar("T_co", covariant=True)


def asked_of(args: argparse.Namespace) -> RunRequest:
    """What the flags ask for, as the run form would say it: read, not yet defaulted."""
    spec = RunSpec(
        urls=tuple(args.urls),
        tool=args.tool,
        connections=args.connections,
        threads=args.threads,
        requests=args.requests,
        duration_s=args.duration,
        warm_up_s=args.warm_up,
        streams=args.streams,
        h1=args.h1,
        keepalive=args.keepalive,
        headers=tuple(args.header),
        compress=args.compress,
    )
    return RunRequest(
        spec,
        server_mode=server_mode_of(args.server_pid, args.server_name, args.no_server),
        server_pid=args.server_pid,
        server_name=args.server_name,
        server_host=args.server_host,
        name=args.name,
        tags=tuple(args.tag),
        generators=tuple(args.generator),
    )


def request_from_args(args: argparse.Namespace, *, check: bool = True) -> RunRequest:
    return run_request(asked_of(args), check=check)


def cmd_run(args: argparse.Namespace) -> int:
    request = request_from_args(args)
    thresholds = [parse_threshold(text) for text in args.threshold]
    baseline = asked_baseline(args)
    spec = request.spec
    interval = check_interval(args.interval)
    if request.generators:
        split_spec(spec, len(request.generators))
    on_host = request.on_host()
    tools, generators = generators_of(args, request.generators, [spec.tool])
    tool = tools[spec.tool]
    if on_host is not None:
        asyncio.run(check(on_host, interval))
    engine = EngineOptions(
        request.server(),
        interval,
        request.name,
        request.tags,
        live_hook=not args.no_live_hook,
        max_errors=args.max_errors,
        server_host=on_host,
        generators=generators,
    )
    if not args.headless:
        from tui_bench.ui.launch import UiOptions, run_live

        ui = UiOptions.from_args(args)
        located = baseline.located if baseline else None
        code, last = asyncio.run(run_live(spec, tool, engine, ui, baseline=located))
        return finish_run(last, thresholds, as_json=args.json, baseline=baseline) if last else code
    finished = asyncio.run(run_headless(spec, tool, engine))
    return finish_run(finished, thresholds, as_json=args.json, baseline=baseline)


def generators_of(
    args: argparse.Namespace, texts: Sequence[str], names: Sequence[str]
) -> tuple[dict[str, Tool], tuple[Generator, ...]]:
    """The tools of `names` and the generators found on their hosts (a one-line error,
    before any load, when one cannot be used)."""
    tools, generators = find_fleet(
        texts, names, lambda name: find_tool(name, getattr(args, f"{name}_path"))
    )
    say_versions(generators)
    return tools, generators


def say_versions(generators: Sequence[Generator]) -> None:
    """A warning line when the generators run different versions of a tool."""
    note = version_warning(generators)
    if note is not None:
        _print(f"warning: {note}", sys.stderr)


async def run_headless(spec: RunSpec, tool: Tool, engine: EngineOptions) -> RunFinished:
    return await until_done(engine.controller(spec, tool, ProgressPrinter(spec=spec)))


class Stoppable(Protocol[T_co]):
    def stop(self) -> None: ...

    def run(self) -> Coroutine[Any, Any, T_co]: ...


async def until_done(job: Stoppable[T_co]) -> T_co:
    """Run `job`; Ctrl-C, SIGTERM and SIGHUP (a dropped SSH session) stop it, and what it
    measured so far is kept."""
    loop = asyncio.get_running_loop()
    for sig in STOP_SIGNALS:
        loop.add_signal_handler(sig, job.stop)
    try:
        return await job.run()
    finally:
        for sig in STOP_SIGNALS:
            loop.remove_signal_handler(sig)


def finish_run(
    finished: RunFinished,
    thresholds: Sequence[Threshold],
    *,
    as_json: bool,
    baseline: BaselineAsk | None = None,
) -> int:
    """Report the run, then judge it against `thresholds` and the baseline (both saved in
    its session)."""
    verdicts: list[dict[str, Any]] = []
    if thresholds:
        values = run_values(store.load(finished.session_path).doc, latency_keys(thresholds))
        verdicts = [asdict(v) for v in evaluate(thresholds, values)]
        store.amend(finished.session_path, {"thresholds": verdicts})
    judged = judge_new(baseline, finished.session_path) if baseline else None
    code = report(
        finished,
        as_json=as_json,
        thresholds=verdicts,
        baseline=judged.to_dict(sweep=False) if judged else None,
    )
    validity = finished.validity
    for line in validity.lines() if validity else ():
        _print(line, sys.stderr)
    print_verdicts(verdicts)
    if judged:
        say(judged)
    invalid = bool(validity and validity.is_invalid)
    return exit_code(code, verdicts, invalid=invalid, baseline=judged)


def report(
    finished: RunFinished,
    *,
    as_json: bool,
    thresholds: Sequence[Mapping[str, Any]] = (),
    baseline: Mapping[str, Any] | None = None,
) -> int:
    generators = saved_generators(finished)
    if as_json:
        payload: dict[str, Any] = finished.result.to_dict() if finished.result else {}
        # "status" is the result's status-class counts: the run's own state has its key.
        payload.update(
            run_status=finished.status,
            message=finished.message,
            session_path=str(finished.session_path),
            validity=finished.validity.to_dict() if finished.validity else None,
        )
        if thresholds:
            payload["thresholds"] = list(thresholds)
        if generators:
            payload["generators"] = [{k: g.get(k) for k in GENERATOR_KEYS} for g in generators]
        if baseline is not None:
            payload["baseline"] = baseline
        _print(orjson.dumps(payload).decode())
    else:
        _print(summary_text(finished), sys.stderr)
        for line in generator_lines(generators):
            _print(line, sys.stderr)
    return EXIT_CODES[finished.status]


def saved_generators(finished: RunFinished) -> list[Mapping[str, Any]]:
    """The generators of a run of several, as its session keeps them; none for one."""
    try:
        saved = store.load(finished.session_path).doc.get("generators")
    except SessionError:
        return []
    return [g for g in saved if isinstance(g, Mapping)] if isinstance(saved, list) else []


def print_verdicts(verdicts: Sequence[Mapping[str, Any]]) -> None:
    for verdict in verdicts:
        _print(verdict_line(verdict), sys.stderr)


def cmd_demo(args: argparse.Namespace) -> int:
    from tui_bench.demo.content import describe
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
            what = describe(target.backend, url)
            if not args.headless:
                from tui_bench.ui.launch import UiOptions, run_live

                return await run_live(spec, tool, engine, UiOptions.from_args(args), note=what)
            sys.stderr.write(f"{what} (pid {target.pid})\n")
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

    session = the_run(store.select(args.session))
    code, _ = asyncio.run(run_replay(session, UiOptions.from_args(args)))
    return code


def cmd_compare(args: argparse.Namespace) -> int:
    fmt = "json" if args.json else args.format
    if args.output and fmt is None:
        raise UsageError("-o needs --format json or md")
    a, b = load_side(args.a), load_side(args.b)
    # With --fail-on-regression: B gated against A, the gate's keys added to the JSON.
    gated = gate_compare(args, a, b)
    if fmt is not None:
        report = gated.reports[0] if gated else compare_sides(a, b)
        text = (
            orjson.dumps(gated.to_dict(sweep=False)).decode() + "\n"
            if gated and fmt == "json"
            else comparison_text(report, fmt)
        )
        write_output(args, text, "comparison")
    if gated is not None:
        say(gated)
        return exit_code(0, [], baseline=gated)
    if fmt is not None:
        return 0
    from tui_bench.ui.launch import UiOptions, run_compare

    code, _ = asyncio.run(run_compare(a, b, UiOptions.from_args(args)))
    return code


def load_side(ref: str) -> Side:
    """Any reference (a session, `SESSION@POINT`, `NAME@latest` ...) as a side to compare."""
    located = store.locate(ref)
    return side_of(store.load_path(located.path), located.point)


def cmd_history(args: argparse.Namespace) -> int:
    history = print_history(args)
    if history is None:
        return 0
    from tui_bench.ui.launch import UiOptions, run_history

    code, _ = asyncio.run(run_history(history, UiOptions.from_args(args)))
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
    selection = store.select(args.session)
    if args.output:
        written = write_export(selection, args.format, Path(args.output), force=args.force)
        _print(f"{args.format} written to {written}", sys.stderr)
    else:
        sys.stdout.write(redact_text(export(selection.document(), args.format)))
    return 0


def cmd_plot(args: argparse.Namespace) -> int:
    # plotext is loaded by this command alone: the core never imports it.
    from tui_bench.cli.plot import Canvas, plot_session

    session = the_run(store.select(args.session))
    # A file is not a terminal: its charts have the fixed size and no colour.
    canvas = Canvas.of(args.width, args.height, io.StringIO() if args.output else sys.stdout)
    write_output(args, plot_session(session, args.metric, canvas), "charts")
    return 0


def the_run(selection: Selection) -> Session:
    """What `replay` and `plot` show of a reference: a session itself, a point's first run
    (said in one line when the point has more)."""
    run, count = selection.run()
    if count > 1:
        _print(f"{selection.ref}: run 1 of the point's {count} ({run.id})", sys.stderr)
    return run


def cmd_sessions(args: argparse.Namespace) -> int:
    entries = indexed()
    if args.json:
        rows = [
            {**e.head, "path": str(e.path)} if e.head else {"path": str(e.path), "error": e.error}
            for e in entries
        ]
        _print(orjson.dumps(rows).decode())
        return 0
    if not entries:
        _print(f"no sessions in {store.sessions_dir()}")
        return 0
    header = ("id", "status", "validity", "tool", "url", "c", "req/s", "p99", "tags")
    table = [header]
    for entry in entries:
        row = entry.head
        if row is None:
            table.append((entry.path.name, "unreadable", "", "", entry.error or "", "", "", "", ""))
            continue
        table.append(
            (
                row["id"],
                row["status"],
                row["validity"] or "–",
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


def cmd_doctor(args: argparse.Namespace) -> int:
    from tui_bench.doctor import format_checks, run_checks, run_checks_on

    if args.host:
        host = SshHost.parse(args.host)
        _print(f"{host}:")
        _print(format_checks(run_checks_on(host)))
    else:
        _print(format_checks(run_checks()))
    return 0


def cmd_sweep(args: argparse.Namespace) -> int:
    interval = check_interval(args.interval)
    thresholds = tuple(parse_threshold(text) for text in args.threshold)
    slo = tuple(parse_slo(args.slo)) if args.slo else ()
    plan = plan_from_args(args)
    baseline = asked_baseline(args)
    for point in plan.points if args.generator else ():
        split_spec(point.spec, len(args.generator))
    targets, generators = prepare_fleet(plan, args.generator)
    say_versions(generators)
    for on_host in dict.fromkeys(t.server_host for t in targets if t.server_host):
        asyncio.run(check(on_host, interval))
    options = SweepOptions(
        cool_down_s=args.cool_down,
        interval_s=interval,
        name=args.name,
        tags=tuple(args.tag),
        live_hook=not args.no_live_hook,
        slo=slo,
        slo_text=args.slo,
        thresholds=thresholds,
        argv=("tuibench", *sys.argv[1:]),
        max_errors=args.max_errors,
        generators=generators,
    )
    if args.headless:
        runner = SweepRunner(plan, targets, options, listener=SweepPrinter())
        finished = asyncio.run(until_done(runner))
    else:
        from tui_bench.ui.launch import UiOptions, run_sweep

        located = baseline.located if baseline else None
        ui = UiOptions.from_args(args)
        code, shown = asyncio.run(run_sweep(plan, targets, options, ui, baseline=located))
        if shown is None:
            return code
        finished = shown
    judged = judge_new(baseline, finished.session_path) if baseline else None
    if args.json:
        payload = sweep_payload(finished)
        if judged:
            payload["baseline"] = judged.to_dict(sweep=True)
        _print(orjson.dumps(payload).decode())
    else:
        _print(sweep_summary_text(finished), sys.stderr)
    points = finished.document.get("points") or []
    for point in points:
        for reason in (point.get("validity") or {}).get("reasons") or ():
            where = point["name"] or "all"
            _print(f"point {where}: {reason['message']} ({reason['code']})", sys.stderr)
    print_verdicts(finished.document.get("thresholds") or [])
    if judged:
        say(judged)
    return sweep_exit_code(finished.status, finished.document, baseline=judged)


def plan_from_args(args: argparse.Namespace) -> SweepPlan:
    """The sweep the flags ask for; UsageError for the first clause or point that cannot run."""
    dimensions = [
        parse_vary(text) if flag == "--vary" else parse_ramp(text) for flag, text in args.dimensions
    ]
    return build_plan(sweep_variants(args), dimensions, args.repeat)


# Options of which a labelled command may set one: setting it clears the common others.
_EXCLUSIVE = (("requests", "duration"), ("server_pid", "server_name", "no_server"))


def sweep_variants(args: argparse.Namespace) -> list[Variant]:
    """The common configuration, or one per `--label NAME=ARGS` (ARGS over the common)."""
    if not args.labels:
        return [_variant(None, args)]
    variants = []
    for text in args.labels:
        name, argv = parse_label(text)
        labelled = label_parser().parse_args(argv, namespace=copy.deepcopy(args))
        for group in _EXCLUSIVE:
            given = [k for k in group if getattr(labelled, k) != getattr(args, k)]
            for key in group if given else ():
                if key not in given:
                    setattr(labelled, key, False if key == "no_server" else None)
        variants.append(_variant(name, labelled))
    return variants


def _variant(label: str | None, args: argparse.Namespace) -> Variant:
    paths = {tool: getattr(args, f"{tool}_path") for tool in TOOLS}
    return Variant(label, request_from_args(args, check=False), paths)


class SweepPrinter:
    """One line per run of a sweep on stderr, and each kind of warning once."""

    def __init__(self, out: TextIO = sys.stderr) -> None:
        self._lines = ProgressPrinter(out)
        self._warned: set[str] = set()

    def __call__(self, event: Event | SweepEvent) -> None:
        if isinstance(event, RunWarning) and event.code not in self._warned:
            self._warned.add(event.code)
            self._lines(event)
        elif isinstance(event, SweepRunFinished):
            self._lines.write(run_line(event))


def sweep_payload(finished: SweepFinished) -> dict[str, Any]:
    """What `sweep --json` prints: the points, a line per run, the knee and the verdicts."""
    doc = finished.document
    names = [p["name"] for p in doc["sweep"]["points"]]
    runs = []
    for entry in doc["runs"]:
        run = entry["session"]
        values = run_values(run)
        runs.append(
            {
                "slot": entry["slot"],
                "point": entry["point"],
                "name": names[entry["point"]],
                "repeat": entry["repeat"],
                "id": run["id"],
                "status": run.get("status"),
                "message": run.get("message"),
                "rps": values["rps"],
                "p50_s": values["p50_s"],
                "p99_s": values["p99_s"],
                "error_rate": values["error_rate"],
                "validity": validity.to_dict() if (validity := of_session(run)) else None,
            }
        )
    return {
        "kind": "sweep",
        "id": doc["id"],
        "points": doc.get("points") or [],
        "runs": runs,
        "knee": doc.get("knee"),
        "thresholds": doc.get("thresholds") or [],
        "run_status": finished.status,
        "message": finished.message,
        "session_path": str(finished.session_path),
    }


def sweep_summary_text(finished: SweepFinished) -> str:
    doc = finished.document
    header = ("point", "ok/runs", "req/s", "± sd", "p50", "p99", "errors")
    table = [header]
    for point in doc.get("points") or []:
        rps, latency = point["rps"], point["latency"]
        table.append(
            (
                point["name"] or "all",
                f"{point['n']}/{point['runs']}",
                fmt_count(rps["mean"]),
                fmt_count(rps["sd"]),
                fmt_seconds(latency.get("p50_s")),
                fmt_seconds(latency.get("p99_s")),
                fmt_metric("error_rate", point["error_rate"]),
            )
        )
    widths = [max(len(r[i]) for r in table) for i in range(len(header))]
    lines = [
        f"status    {finished.status}" + (f" ({finished.message})" if finished.message else "")
    ]
    lines += [
        "  ".join(
            c.rjust(w) if i else c.ljust(w) for i, (c, w) in enumerate(zip(r, widths, strict=True))
        )
        for r in table
    ]
    knee = doc.get("knee")
    if knee is not None:
        found = (
            f"{knee['name']} ({fmt_count(knee['rps'])} req/s)"
            if knee["point"] is not None
            else "no valid point meets it"
        )
        lines.append(f"knee      {found} for {knee['slo']}")
    lines.append(f"session   {finished.session_path}")
    return "\n".join(lines)


def _print(text: str, out: Any = None) -> None:
    # A message or a line of output may quote the URL or a header as the user gave them.
    print(redact_text(text), file=out or sys.stdout)
