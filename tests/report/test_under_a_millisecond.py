"""ab writes whole milliseconds: a latency under one is stored as 0 and reads `<1 ms` in
every view that shows it, never `0 µs`; JSON keeps the 0 and the tool's resolution."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import orjson
import pytest

from tui_bench.cli.main import main
from tui_bench.formats import fmt_latency
from tui_bench.report.export import export
from tui_bench.storage import store
from tui_bench.storage.catalog import row_of
from tui_bench.ui.text.session_cells import cell_texts
from tui_bench.ui.tones import Tones

EXAMPLES = Path(__file__).parents[2] / "sessions"
AB = "20261121-112059-024-ab-ab-keepalive.json"


def test_a_zero_latency_reads_under_a_millisecond() -> None:
    assert fmt_latency(0.0) == "<1 ms"
    assert fmt_latency(0.0, 1e-6) == "<0.001 ms"
    assert fmt_latency(0.00025) == "250 µs"
    assert fmt_latency(None) == "–"


def sub_millisecond_ab(directory: Path, name: str, started: str) -> Path:
    """The example ab run with every request under a millisecond but the slowest."""
    doc: dict[str, Any] = orjson.loads((EXAMPLES / AB).read_bytes())
    latency = doc["result"]["latency"]
    for key in latency:
        if key.endswith("_s") and key not in ("max_s", "sd_s"):
            latency[key] = 0.0
    doc |= {"id": f"{started}-ab-{name}", "name": name, "started_at": started}
    path = directory / f"{doc['id']}.json"
    path.write_bytes(orjson.dumps(doc))
    return path


def cli(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert code == 0, err
    return out


def test_every_view_of_an_ab_run_says_under_a_millisecond(
    sessions: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sessions.mkdir()
    a = sub_millisecond_ab(sessions, "loop", "20261121-112059-024")
    b = sub_millisecond_ab(sessions, "loop", "20261122-112059-024")
    session = store.load(b)
    entry = next(e for e in store.list_sessions(sessions) if e.path == b)
    views = {
        "sessions": cli(capsys, "sessions"),
        "browser": cell_texts(row_of(entry), {}, Tones("red", "yellow", "green"))["p99"].plain,
        "history": cli(capsys, "history", "loop"),
        "compare": cli(capsys, "compare", str(a), str(b), "--format", "md"),
        "md": export(session, "md"),
        "summary": cli(capsys, "export", str(b), "--format", "md"),
    }
    for view, text in views.items():
        # A difference of none stays `±0 µs`.
        assert "<1 ms" in text and not re.search(r"(?<!±)\b0 µs", text), (view, text)
    # JSON keeps what was measured.
    assert orjson.loads(export(session, "json"))["result"]["latency"]["p99_s"] == 0.0
