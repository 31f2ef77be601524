"""What `run` prints when it ends: a reader that leaves early keeps the exit status."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tui_bench.analysis.verdicts import Verdicts
from tui_bench.cli.cmd_run import finish_run
from tui_bench.engine.events import RunFinished
from tui_bench.records.verdict import Validity
from tui_bench.records.warning import Warning
from tui_bench.spec import RunSpec
from tui_bench.storage.threshold_codec import threshold_of

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
        verdicts=Verdicts((threshold_of(FAILED_THRESHOLD),)),
    )
    assert finish_run(finished, RunSpec(urls=("http://127.0.0.1:1/",)), as_json=as_json) == 99


def test_the_summary_says_what_each_request_carried() -> None:
    from tests.factories import h2load_result
    from tui_bench.cli.progress import summary_text

    finished = RunFinished("completed", 0, h2load_result(1.0, 10.0, 10, 0), Path("s.json"), None)
    post = RunSpec(
        urls=("http://127.0.0.1:1/",), body_file="order.json", body_size=58, method="POST"
    )
    lines = summary_text(finished, post).splitlines()
    assert "request   POST with a 58-byte application/json body" in lines
    # A plain GET has no such row.
    plain = summary_text(finished, RunSpec(urls=("http://127.0.0.1:1/",)))
    assert "request " not in plain


def test_the_printed_summary_has_the_live_screen_s_rows_in_its_order() -> None:
    from tests.factories import h2load_result
    from tui_bench.cli.progress import summary_text
    from tui_bench.engine.live_state import LiveState
    from tui_bench.ui.text import result_text
    from tui_bench.ui.tones import Tones

    spec = RunSpec(urls=("http://127.0.0.1:1/",))
    result = h2load_result(1.0, 10.0, 10, 0)
    resources = {"server_cpu_mean_pct": 50.0, "client_cpu_mean_pct": None}
    warned = (Warning("few-samples", "p99 rests on 10 requests: too few to tell"),)
    finished = RunFinished(
        "completed", 0, result, Path("s.json"), None, resources=resources, warnings=warned
    )
    printed = summary_text(finished, spec).splitlines()[1:]
    state = LiveState(spec)
    state.apply(finished)
    shown = result_text.summary(state, Tones("red", "yellow", "green")).plain.splitlines()
    assert [line.split()[0] for line in printed] == [line.split()[0] for line in shown[1:]]
    assert [line.split()[0] for line in printed[:4]] == ["req/s", "latency", "server", "client"]
    # The result box's warnings too, as it words them.
    assert printed[-1] == "warning   p99 rests on 10 requests: too few to tell"
