"""What `run` prints when it ends: a reader that leaves early keeps the exit status."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tui_bench.analysis.verdicts import Verdicts
from tui_bench.cli.cmd_run import finish_run
from tui_bench.engine.events import RunFinished
from tui_bench.validity import Validity

FAILED_THRESHOLD = {
    "text": "p99<1us",
    "metric": "p99_s",
    "op": "<",
    "limit": 1e-6,
    "actual": 0.002,
    "passed": False,
    "reason": None,
}


@pytest.mark.parametrize("as_json", [False, True])
def test_a_reader_that_left_does_not_turn_a_failed_threshold_into_0(
    monkeypatch: pytest.MonkeyPatch, as_json: bool
) -> None:
    read, write = os.pipe()
    os.close(read)  # `| true`: the reader is gone before anything is written
    stdout = os.fdopen(write, "w")
    monkeypatch.setattr("sys.stdout", stdout)
    finished = RunFinished(
        "completed",
        0,
        None,
        Path("s.json"),
        None,
        Validity("valid"),
        verdicts=Verdicts((FAILED_THRESHOLD,)),
    )
    assert finish_run(finished, "h2load", as_json=as_json) == 99
