"""`tuibench baseline set|show`, references on the command line, and the baseline's section
of the md export, in a temporary store."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from tests.analysis.test_significance import run, runs, sweep
from tests.storage.test_refs import INVALID, named_run, save
from tui_bench.analysis.regression import judge, pair_sides
from tui_bench.cli.main import main
from tui_bench.storage import refs, store
from tui_bench.storage.session import Session


@pytest.fixture
def api(sessions: Path) -> Path:
    save(sessions, named_run(1, "api", 1000, 9))
    save(sessions, named_run(2, "api", 3000, 10, validity=INVALID))
    return sessions


def test_set_pins_what_the_reference_names_now(
    api: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["baseline", "set", "api", "api@best"]) == 0
    best = store.resolve("api@best")
    assert f"api@baseline is {best.stem} (valid)" in capsys.readouterr().err
    save(api, named_run(3, "api", 5000, 11))
    assert store.resolve("api@baseline") == best
    assert main(["baseline", "show", "api", "--json"]) == 0
    (row,) = orjson.loads(capsys.readouterr().out)
    assert (row["name"], row["session"], row["ref"], row["validity"]) == (
        "api",
        best.stem,
        "api@best",
        "valid",
    )
    assert round(row["rps"], -2) == 1000
    assert main(["baseline", "show"]) == 0
    assert capsys.readouterr().out.startswith(f"api@baseline  {best.stem}  1,0")


def test_an_invalid_run_is_not_pinned(api: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["baseline", "set", "api", "api@-1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "is invalid (stopped); not pinned" in err
    assert not (api / refs.PINS).exists()


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["compare", "api@-3", "api@latest", "--json"], "api@-3: 'api' has 2 sessions"),
        (["export", "apu@latest"], "no saved session is named 'apu'; did you mean api?"),
        (["plot", "api@baseline"], "no baseline is pinned for 'api'"),
        (["baseline", "show", "web"], "no baseline is pinned for 'web'"),
        (
            ["run", "--headless", "--fail-on-regression", "5", "http://127.0.0.1:9/"],
            "needs a baseline (--baseline REF)",
        ),
        (
            ["run", "--headless", "--baseline", "web@latest", "http://127.0.0.1:9/"],
            "no saved session is named 'web'",
        ),
        (
            ["run", "--baseline", "api@-1", "--fail-on-regression", "5", "http://127.0.0.1:9/"],
            "the baseline 20260101-970000-000-h2load-api is invalid: stopped",
        ),
    ],
)
def test_a_bad_reference_is_one_line_and_exit_2(
    api: Path, capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err, err


def test_compare_takes_references(api: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compare", "api@-2", "api@-1", "--json"]) == 0
    report = orjson.loads(capsys.readouterr().out)
    assert report["a"]["session"] == store.resolve("api@-2").stem
    assert "B is invalid: stopped" in report["warnings"]


def test_the_md_export_has_the_comparison_kept_in_the_session(
    sessions: Path, tmp_path: Path
) -> None:
    base = Session(sweep({"c=10": runs(2, 1000), "c=20": runs(2, 1500)}, name="grid"))
    new = sweep({"c=10": runs(2, 1000), "c=20": runs(2, 900)}, "20260103-120000-000-sweep-n")
    pairs = pair_sides(base, None, Session(new))
    found = judge("grid@-2", pairs, tolerance_pct=5, tier="likely", allow_setup_change=False)
    path = save(sessions, new | {"baseline": found.to_dict(sweep=True)})
    target = tmp_path / "sweep.md"
    assert main(["export", str(path), "--format", "md", "-o", str(target)]) == 0
    md = target.read_text()
    section = md[md.index("## Against the baseline grid@-2") :]
    assert "- gate (rps, 5 % at the likely tier): failed" in section
    assert "- regression at c=20: rps (likely worse)" in section
    assert "### c=20" in section and "| req/s (primary) | 2/2 | 1,510 | 906 | -40.0% |" in section
    assert section.count("| metric | n A/B |") == 2
    plain = save(sessions, run(0, 1000))
    assert main(["export", str(plain), "--format", "md", "-o", str(tmp_path / "run.md")]) == 0
    assert "Against the baseline" not in (tmp_path / "run.md").read_text()
