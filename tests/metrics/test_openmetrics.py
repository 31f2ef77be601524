"""`export --format openmetrics` of every shape of session an earlier release saved (runs of
each tool, fixed-rate runs, several generators, sweeps): families kept together as
OpenMetrics asks, each series in time order, the request counters adding up to the run's."""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

import pytest

from tui_bench.metrics.catalogue import FAMILIES
from tui_bench.metrics.openmetrics import openmetrics_lines
from tui_bench.storage import store
from tui_bench.storage.session import Session

OLDER = sorted((Path(__file__).parents[1] / "fixtures" / "older").glob("*/*.json"))
SAMPLE = re.compile(r"^(\w+)\{(.*)\} (\S+) (\d+\.\d{3})$")


def _runs(session: Session) -> list[Session]:
    return session.runs if session.is_sweep else [session]


@pytest.mark.parametrize("path", OLDER, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_older_session_exports_as_valid_openmetrics(path: Path) -> None:
    session = store.load(path)
    lines = "".join(openmetrics_lines(session)).splitlines()
    assert lines[-1] == "# EOF"
    declared = [ln.split()[2] for ln in lines if ln.startswith("# TYPE ")]
    assert declared == [f.name for f in FAMILIES]
    family = None
    series: dict[str, list[float]] = defaultdict(list)
    for line in lines[:-1]:
        if line.startswith("# TYPE "):
            family = line.split()[2]
            continue
        if line.startswith("#"):
            continue
        found = SAMPLE.match(line)
        assert found, line
        name, labels, _, stamp = found.groups()
        assert family is not None and name.startswith(family), (family, line)
        series[f"{name}{{{labels}}}"].append(float(stamp))
    for stamps in series.values():
        assert stamps == sorted(stamps)
    # A counter's last value per class, summed: the run's requests, as its series says.
    for run in _runs(session):
        requests = sum(r or 0 for r in run.series_columns.get("requests") or ())
        last: dict[str, float] = {}
        for line in lines:
            if line.startswith("tuibench_requests_total{") and f'session="{run.id}"' in line:
                klass = re.search(r'status_class="(\w+)"', line)
                assert klass
                last[klass[1]] = float(line.split()[1])
        assert sum(last.values()) == requests
    sessions = {found[1] for k in series if (found := re.search(r'session="([^"]+)"', k))}
    assert sessions == {r.id for r in _runs(session)}
