import argparse
import io
import subprocess
import sys
from pathlib import Path

import pytest

from tui_bench.cli.args import build_parser, duration
from tui_bench.cli.progress import ProgressPrinter, second_line, summary_text
from tui_bench.cli.run_flags import request_from_args
from tui_bench.engine.events import RunFinished, SecondClosed
from tui_bench.records.verdict import Validity
from tui_bench.spec import RunSpec


@pytest.mark.parametrize(
    ("text", "seconds"), [("10", 10.0), ("10s", 10.0), ("500ms", 0.5), ("2m", 120.0), ("1h", 3600)]
)
def test_durations(text: str, seconds: float) -> None:
    assert duration(text) == seconds


@pytest.mark.parametrize("text", ["ten", "-1s", "5x"])
def test_bad_durations(text: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError):
        duration(text)


def test_usage_error_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        build_parser().parse_args(["run", "-n", "5", "-d", "5", "http://127.0.0.1/"])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "not allowed with" in err


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["rnu", "http://127.0.0.1/"], "unknown command 'rnu'; did you mean run?"),
        (["--basic", "swep", "-c", "1"], "unknown command 'swep'; did you mean sweep?"),
        (["expo"], "unknown command 'expo'; did you mean export?"),
        (["zzz"], "unknown command 'zzz' (tuibench --help lists them)"),
        (
            ["run", "--durtion", "5", "http://127.0.0.1/"],
            "unrecognized arguments: --durtion; did you mean --duration?",
        ),
        (
            ["sweep", "--vray=c=1,2", "http://127.0.0.1/"],
            "unrecognized arguments: --vray=c=1,2; did you mean --vary, --rate, --ramp?",
        ),
    ],
)
def test_a_mistyped_command_gets_a_did_you_mean(
    argv: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        build_parser().parse_args(argv)
    assert exit_info.value.code == 2
    assert capsys.readouterr().err == f"tuibench: error: {said}\n"


def test_a_commands_usage_error_has_the_prefix_of_every_error(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`tuibench: error:` as a refused URL or session says it, the command after it."""
    with pytest.raises(SystemExit):
        build_parser().parse_args(["export"])
    err = capsys.readouterr().err
    assert err.startswith("tuibench: error: export: ") and "SESSION" in err


COMMANDS = (
    *("run", "sweep", "capacity", "demo", "import", "export", "plot", "replay", "compare"),
    *("baseline", "history", "sessions", "doctor"),
)


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_prints_its_help(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        build_parser().parse_args([command, "--help"])
    assert exit_info.value.code == 0
    assert capsys.readouterr().out.startswith(f"usage: tuibench {command} ")


def test_run_defaults_to_ten_seconds_of_h2load() -> None:
    args = build_parser().parse_args(["run", "-H", "X-A: 1", "http://127.0.0.1:1/"])
    spec = request_from_args(args).spec
    assert spec.tool == "h2load" and spec.duration_s == 10.0 and spec.requests is None
    assert spec.headers == ("X-A: 1",)


def test_progress_line_shows_what_the_second_measured() -> None:
    row = {
        "t_s": 2,
        "rps": 45123,
        "errors": 3,
        "p50_s": 0.001,
        "p99_s": 0.0048,
        "server_cpu_pct": 97.0,
        "server_rss_bytes": 12 * 2**20,
        "client_cpu_pct": 88.0,
    }
    line = second_line(row)
    assert line.startswith("[   3s]")
    for part in (
        "45,123 req/s",
        "3 errors",
        "p99 4.80 ms",
        "server 97% cpu 12.00 MiB",
        "client 88% cpu",
    ):
        assert part in line


def test_progress_lines_end_with_the_run_and_say_what_the_percent_is_of() -> None:
    out = io.StringIO()
    printer = ProgressPrinter(out, RunSpec(urls=("http://127.0.0.1:1/",), duration_s=4.0))
    rows = [
        *({"t_s": t, "window_s": 1.0, "requests": 1000, "rps": 1000} for t in range(4)),
        # The few milliseconds the run lasted into its fifth second: no line of their own.
        {"t_s": 4, "window_s": 0.02, "requests": 20, "rps": 1000.0},
    ]
    for row in rows:
        printer(SecondClosed(row))
    lines = out.getvalue().splitlines()
    assert [line[:22] for line in lines] == [
        "[   1s]   25% of -d 4s",
        "[   2s]   50% of -d 4s",
        "[   3s]   75% of -d 4s",
        "[   4s]  100% of -d 4s",
    ]


def test_a_partial_last_second_is_labelled_and_rated_by_what_it_lasted() -> None:
    out = io.StringIO()
    printer = ProgressPrinter(out, RunSpec(urls=("http://127.0.0.1:1/",), requests=2500))
    printer(SecondClosed({"t_s": 0, "window_s": 1.0, "requests": 2000, "rps": 2000}))
    printer(SecondClosed({"t_s": 1, "window_s": 0.5, "requests": 500, "rps": 1000.0}))
    first, last = out.getvalue().splitlines()
    assert first.startswith("[   1s]   80% of -n 2,500  2,000 req/s")
    assert last.startswith("[ 1.5s]  100% of -n 2,500  1,000 req/s")


def test_the_headless_summary_says_validity_and_what_the_run_cost() -> None:
    finished = RunFinished(
        "completed",
        0,
        None,
        Path("/tmp/s.json"),
        None,
        Validity("valid", ()),
        {"server_cpu_mean_pct": 40.2, "server_cpu_max_pct": 52.0, "client_cpu_mean_pct": 20.0},
    )
    lines = summary_text(finished).splitlines()
    assert "validity  valid" in lines
    assert "server    cpu mean 40%, max 52%, rss peak –" in lines
    assert "client    cpu mean 20%, max –" in lines


def test_python_dash_m_runs_the_command() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "tui_bench", "rnu"], capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 2
    assert proc.stderr == "tuibench: error: unknown command 'rnu'; did you mean run?\n"
