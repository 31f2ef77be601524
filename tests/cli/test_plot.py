"""`tuibench plot`: the charts of a recorded sweep and of a single run as text."""

from __future__ import annotations

import io
from pathlib import Path

import orjson
import pytest

from tests.factories import rate_sweep_doc
from tui_bench.cli.cmd_plot import DEFAULT_HEIGHT, DEFAULT_WIDTH, Canvas
from tui_bench.cli.main import main

FIXTURES = Path(__file__).parents[1] / "fixtures"
SWEEP = FIXTURES / "sweep-c-repeat2.json"
EXAMPLE_RUN = Path(__file__).parents[2] / "sessions" / "20261121-112049-153-h2load-h2c-m10.json"


def plot(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["plot", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_a_sweep_draws_its_charts_against_what_varied(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = plot(capsys, str(SWEEP))
    assert code == 0 and err == ""
    for title in (
        "req/s vs c (median; bars: slowest to fastest run)",
        "latency vs c",
        "server CPU vs c",
    ):
        assert title in out
    assert "knee (p99<10ms)" in out and "◆" in out
    lines = out.splitlines()
    # The x axis names the values swept, under each chart.
    assert sum(1 for line in lines if line.split() == ["4", "32"]) == 3
    assert "25,000┤" in out  # a round req/s tick, thousands grouped
    assert "p50" in out and "p99" in out and "max" in out
    # Standard output is not a terminal here: no colour codes, the fixed size.
    assert "\x1b[" not in out
    assert max(len(line) for line in lines) == DEFAULT_WIDTH
    assert len(lines) == 3 * DEFAULT_HEIGHT + 2  # a blank line between charts


def test_size_and_metrics_as_asked(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = plot(capsys, str(SWEEP), "--metric", "rps", "--width", "60", "--height", "15")
    lines = out.splitlines()
    assert code == 0 and len(lines) == 15 and max(len(line) for line in lines) == 60
    assert "req/s vs c" in lines[0] and "latency" not in out


def test_a_single_run_is_drawn_over_time(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = plot(capsys, str(EXAMPLE_RUN), "--width", "70", "--height", "12")
    assert code == 0
    assert "req/s over the run" in out and "p99 over the run" in out
    assert "time (s)" in out


def test_a_corrupt_file_is_one_line_and_status_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"broken')
    code, out, err = plot(capsys, str(bad))
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "not a session file" in err


def test_an_unknown_metric_is_one_line_and_status_2(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = plot(capsys, str(SWEEP), "--metric", "rps,p42")
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "'p42': not one of" in err


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_canvas_fills_a_terminal_and_is_fixed_elsewhere(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("COLUMNS", "132")
    monkeypatch.setenv("LINES", "43")
    monkeypatch.delenv("NO_COLOR", raising=False)
    assert Canvas.of(None, None, Terminal()) == Canvas(132, 42, color=True)
    assert Canvas.of(90, None, Terminal()) == Canvas(90, 42, color=True)
    assert Canvas.of(None, None, io.StringIO()) == Canvas(DEFAULT_WIDTH, DEFAULT_HEIGHT, False)
    assert Canvas.of(5, 2, io.StringIO()) == Canvas(30, 8, color=False)
    monkeypatch.setenv("NO_COLOR", "1")
    assert not Canvas.of(None, None, Terminal()).color


def test_o_writes_the_charts_into_a_file_never_over_one_without_force(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    target = tmp_path / "charts.txt"
    code, out, err = plot(capsys, str(SWEEP), "-o", str(target))
    assert code == 0 and out == "" and err == f"charts written to {target}\n"
    written = target.read_text()
    assert "req/s vs c" in written and "\x1b[" not in written
    target.write_text("mine")
    code, out, err = plot(capsys, str(SWEEP), "-o", str(target))
    assert code == 2 and err.count("\n") == 1 and "exists" in err and "--force" in err
    assert target.read_text() == "mine"
    assert plot(capsys, str(SWEEP), "-o", str(target), "--force")[0] == 0
    assert target.read_text() == written


def test_a_rate_sweep_draws_latency_against_req_s_on_a_log_axis(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "rate.json"
    path.write_bytes(orjson.dumps(rate_sweep_doc(orjson.loads(SWEEP.read_bytes()))))
    code, out, err = plot(capsys, str(path), "--width", "90", "--height", "22")
    assert code == 0 and err == ""
    assert out.count(" vs rate") == 3 and "latency (from when due) vs achieved req/s" in out
    curve = out[out.index("latency (from when due)") :]
    # Powers of ten up the y axis (p50 1 ms to p99.9 400 ms), the percentiles in the legend.
    assert [line.split("┤")[0].strip() for line in curve.splitlines() if "┤" in line] == [
        "1,000",
        "100",
        "10",
        "1",
    ]
    assert "p50" in curve and "p99.9" in curve and "knee (p99<10ms)" in curve
    code, out, _ = plot(capsys, str(path), "--metric", "latency-rps")
    assert code == 0 and out.count(" vs ") == 1
    code, _, err = plot(capsys, str(SWEEP), "--metric", "latency-rps")
    assert code == 2 and "only for a sweep that varies rate" in err
