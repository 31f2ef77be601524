"""The open-file limit fitted to a run's connections, on injected limits."""

from __future__ import annotations

import resource

import pytest

from tui_bench.errors import UsageError
from tui_bench.runners.file_limit import files_needed, fit_file_limit
from tui_bench.spec import RunSpec


def spec(connections: int, threads: int = 1) -> RunSpec:
    return RunSpec(urls=("http://127.0.0.1:1/",), connections=connections, threads=threads)


def fitted(specs: list[RunSpec], soft: int, hard: int) -> tuple[str | None, list[tuple[int, int]]]:
    set_to: list[tuple[int, int]] = []
    said = fit_file_limit(specs, lambda: (soft, hard), set_to.append)
    return said, set_to


def test_enough_is_left_alone() -> None:
    assert fitted([spec(100)], 1024, 4096) == (None, [])
    assert fitted([spec(10**5)], resource.RLIM_INFINITY, resource.RLIM_INFINITY) == (None, [])


def test_the_soft_limit_is_raised_to_the_widest_run_and_said() -> None:
    wide = spec(3000, threads=2)
    said, set_to = fitted([spec(10), wide], 1024, 8192)
    assert set_to == [(files_needed(wide), 8192)] and files_needed(wide) > 3000
    assert said == (
        f"open-file limit raised from 1,024 to {files_needed(wide):,} for -c 3,000 "
        "(the hard limit is 8,192)"
    )
    said, _ = fitted([wide], 1024, resource.RLIM_INFINITY)
    assert said is not None and "the hard limit is unlimited" in said


def test_a_hard_limit_too_low_is_refused_in_one_line_with_the_fix() -> None:
    with pytest.raises(UsageError) as refused:
        fitted([spec(3000)], 1024, 2048)
    message = str(refused.value)
    assert "\n" not in message
    assert message.startswith("-c 3,000 needs about 3,020 open files and the hard limit is 2,048")
    assert "ulimit -Hn 3020" in message
