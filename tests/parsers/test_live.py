from __future__ import annotations

import pytest

from tests.parsers import fixture
from tui_bench.parsers.live import LiveLine, parse_live_line


@pytest.mark.parametrize(
    ("tool", "line", "expected"),
    [
        ("h2load", "progress: 30% done", LiveLine(fraction=0.3)),
        ("h2load", "progress: 100% done", LiveLine(fraction=1.0)),
        ("h2load", "progress: 30% of clients started", None),
        ("h2load", "Warm-up started for thread #0.", LiveLine(phase="warm-up", thread=0)),
        ("h2load", "Warm-up phase is over for thread #1.", LiveLine(phase="main", thread=1)),
        (
            "h2load",
            "Main benchmark duration is started for thread #0.",
            LiveLine(phase="main", thread=0),
        ),
        (
            "h2load",
            "Main benchmark duration is over for thread #3. Stopping all clients.",
            LiveLine(phase="done", thread=3),
        ),
        ("h2load", "finished in 2.00s, 500.00 req/s, 67.71KB/s", None),
        ("ab", "Completed 1000 requests", LiveLine(done=1000)),
        ("ab", "Finished 5000 requests", LiveLine(done=5000, phase="done")),
        ("ab", "Completed requests", None),
        ("wrk", "tuibench-live 1 122912", LiveLine(thread=1, done=122912)),
        (
            "wrk",
            "tuibench-live 0 8202 81234.5678",
            LiveLine(thread=0, done=8202, at_s=81234.5678),
        ),
        ("wrk", "tuibench-live 1 x", None),
        ("wrk", "tuibench-live 1 5 x", None),
        ("wrk", 'tuibench-summary {"requests": 1}', None),
        ("oha", "progress: 30% done", None),
        ("ab", "progress: 30% done", None),
    ],
)
def test_lines(tool: str, line: str, expected: LiveLine | None) -> None:
    assert parse_live_line(tool, line) == expected


def test_every_ab_heartbeat_of_a_capture() -> None:
    lines = fixture("ab-2.3-plain.stderr.txt").splitlines()
    parsed = [parse_live_line("ab", line) for line in lines]
    assert [p.done for p in parsed if p] == [*range(500, 5001, 500), 5000]
    assert parsed[-1] == LiveLine(done=5000, phase="done")


def test_every_wrk_live_line_of_a_capture() -> None:
    lines = fixture("wrk-4.1.0-lua.stderr.txt").splitlines()
    parsed = [p for line in lines if (p := parse_live_line("wrk", line))]
    assert [(p.thread, p.done) for p in parsed] == [
        (1, 18799),
        (0, 12868),
        (1, 77524),
        (0, 45028),
    ]


def test_h2load_phases_of_a_warm_up_capture() -> None:
    lines = fixture("h2load-1.52-h2c-D-warmup.txt").splitlines()
    phases = [p.phase for line in lines if (p := parse_live_line("h2load", line)) and p.phase]
    assert phases == ["warm-up", "main", "main", "done"]


def test_what_h2load_says_its_connection_negotiated() -> None:
    def negotiated(name: str) -> list[LiveLine]:
        lines = fixture(name).splitlines()
        found = (parse_live_line("h2load", line) for line in lines)
        return [live for live in found if live and (live.protocol or live.tls)]

    assert negotiated("h2load-1.52-tls-h2-n.txt") == [
        LiveLine(tls="TLSv1.3"),
        LiveLine(protocol="h2"),
    ]
    assert negotiated("h2load-1.52-h1-n.txt") == [LiveLine(protocol="http/1.1")]
    assert parse_live_line("h2load", "Application protocol: ") is None
