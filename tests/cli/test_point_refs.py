"""`export`, `replay` and `plot` of one point of a saved sweep (`REF@POINT`)."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import orjson
import pytest

from tui_bench.cli import output
from tui_bench.cli.main import main
from tui_bench.storage.session import Session
from tui_bench.ui import launch

SWEEP = Path(__file__).parents[1] / "fixtures" / "sweep-c-repeat2.json"
SWEEP_ID = "20261121-114906-878-sweep-c-sweep"
# Its points: c=4 (runs 879 and 006, the knee) and c=32 (runs 950 and 072).
C32_RUNS = ["20261121-114908-950-h2load-c-32", "20261121-114911-072-h2load-c-32"]


@pytest.fixture
def saved(sessions: Path) -> Path:
    """The sweep saved in the store, named c-sweep."""
    sessions.mkdir()
    return Path(shutil.copy(SWEEP, sessions / f"{SWEEP_ID}.json"))


def out_of(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.usefixtures("saved")
@pytest.mark.parametrize(
    "ref", ["c-sweep@latest@c=32", f"{SWEEP_ID}@2", f"{SWEEP}@c=32", "c-sweep@-1@2"]
)
def test_export_json_is_the_point_alone(capsys: pytest.CaptureFixture[str], ref: str) -> None:
    code, out, err = out_of(capsys, "export", ref, "-f", "json")
    doc = orjson.loads(out)
    assert code == 0 and err == ""
    assert doc["id"] == SWEEP_ID
    assert doc["selected"] == {"sweep": SWEEP_ID, "point": 1, "name": "c=32"}
    assert [r["session"]["id"] for r in doc["runs"]] == C32_RUNS
    assert [p["name"] for p in doc["points"]] == ["c=32"]
    assert round(doc["points"][0]["rps"]["mean"]) == 29008
    assert [t["name"] for t in doc["thresholds"]] == ["c=32"] and "knee" not in doc


@pytest.mark.usefixtures("saved")
def test_export_csv_and_md_hold_the_points_rows_only(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, out, _ = out_of(capsys, "export", "c-sweep@latest@c=32", "-f", "csv")
    rows = [line.split(",")[:3] for line in out.splitlines()[1:]]
    assert code == 0 and rows == [["run", "0", "c=32"]] * 2 + [["point", "0", "c=32"]]
    target = tmp_path / "c32.md"
    assert main(["export", "c-sweep@latest@c=32", "-f", "md", "-o", str(target)]) == 0
    text = target.read_text()
    assert "| c=32 | 2/2 | 29,008 |" in text and "| c=4 |" not in text
    assert "repeat: 2 (2 of 2 runs ran)" in text


def test_an_exported_point_is_a_session_tuibench_opens_again(
    saved: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    point = tmp_path / "c32.json"
    assert main(["export", f"{saved}@c=32", "-o", str(point)]) == 0
    whole = orjson.loads(out_of(capsys, "compare", f"{saved}@c=32", str(point), "--json")[1])
    assert whole["a"]["runs"] == whole["b"]["runs"] == 2
    assert all(m["delta_pct"] == 0 for m in whole["metrics"] if m["delta_pct"] is not None)
    code, out, _ = out_of(capsys, "plot", str(point), "--metric", "rps")
    assert code == 0 and "req/s vs c" in out


def test_plot_draws_the_points_first_run_and_says_so(
    saved: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = out_of(capsys, "plot", f"{saved}@c=4", "--width", "60", "--height", "10")
    assert code == 0 and "req/s over the run" in out and "time (s)" in out
    assert err == f"{SWEEP_ID}@c=4: run 1 of the point's 2 (20261121-114906-879-h2load-c-4)\n"


@pytest.mark.usefixtures("saved")
def test_replay_plays_the_points_first_run(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    played: list[Session] = []

    async def replay(session: Session, ui: Any) -> tuple[int, None]:
        played.append(session)
        return 0, None

    monkeypatch.setattr(launch, "run_replay", replay)
    monkeypatch.setattr(output, "on_terminal", lambda: True)
    code, _, err = out_of(capsys, "replay", "c-sweep@latest@c=32")
    assert code == 0 and [s.id for s in played] == C32_RUNS[:1]
    assert not played[0].is_sweep and played[0].result is not None
    assert err.count("\n") == 1 and "run 1 of the point's 2" in err


@pytest.mark.usefixtures("saved")
@pytest.mark.parametrize("command", ["export", "replay", "plot"])
def test_a_point_the_sweep_has_not_is_one_line(
    capsys: pytest.CaptureFixture[str], command: str
) -> None:
    code, out, err = out_of(capsys, command, "c-sweep@latest@c=64")
    assert code == 2 and out == ""
    assert err == (f"tuibench: error: {SWEEP_ID} has no point 'c=64': its points are c=4, c=32\n")


@pytest.mark.usefixtures("saved")
def test_a_pinned_point_is_what_name_at_baseline_exports(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["baseline", "set", "c-sweep", "c-sweep@latest@c=4"]) == 0
    capsys.readouterr()
    code, out, _ = out_of(capsys, "export", "c-sweep@baseline", "-f", "json")
    doc = orjson.loads(out)
    assert code == 0 and doc["selected"]["name"] == "c=4"
    # c=4 is the sweep's knee: the point keeps it.
    assert doc["knee"]["name"] == "c=4" and doc["knee"]["point"] == 0 and len(doc["runs"]) == 2
