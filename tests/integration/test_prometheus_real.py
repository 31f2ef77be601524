"""Prometheus for real: Debian's prometheus on loopback with its remote-write receiver takes
a real run's push, and its HTTP API gives back the session's own figures for the same
seconds; the OpenMetrics export goes through the real promtool into blocks; a receiver that
is down or never answers leaves the run and its session whole."""

from __future__ import annotations

import json
import socket
import subprocess
import time
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import need
from tests.integration.test_cli_real_tools import run_json, tuibench
from tui_bench.demo.nginx_target import DemoTarget
from tui_bench.metrics.catalogue import started_s
from tui_bench.storage import store
from tui_bench.storage.series_columns import window_end

pytestmark = pytest.mark.real

# Only a hang takes this long.
READY_S = 120.0
FIXED_RATE = ("--rate", "1000", "-c", "4", "-d", "3")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="module")
def prometheus(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A Prometheus of this module's own on 127.0.0.1, scraping nothing; its base URL."""
    need("prometheus")
    where = tmp_path_factory.mktemp("prometheus")
    config = where / "prometheus.yml"
    config.write_text("global:\n  scrape_interval: 1h\nscrape_configs: []\n")
    port = _free_port()
    proc = subprocess.Popen(
        [
            "prometheus",
            f"--config.file={config}",
            f"--storage.tsdb.path={where / 'data'}",
            f"--web.listen-address=127.0.0.1:{port}",
            "--web.enable-remote-write-receiver",
        ],
        stdout=subprocess.DEVNULL,
        stderr=(where / "log").open("w"),
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + READY_S
        while True:
            try:
                with urllib.request.urlopen(f"{base}/-/ready", timeout=5) as answer:
                    if answer.status == 200:
                        break
            except OSError:
                pass
            assert proc.poll() is None, (where / "log").read_text()[-2000:]
            assert time.monotonic() < deadline, "prometheus never became ready"
            time.sleep(0.2)
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def _samples(
    base: str, selector: str
) -> dict[tuple[tuple[str, str], ...], list[tuple[float, float]]]:
    """Every raw sample of `selector` from the last day, by series."""
    query = urllib.parse.urlencode({"query": f"{selector}[1d]"})
    with urllib.request.urlopen(f"{base}/api/v1/query?{query}", timeout=30) as answer:
        doc = json.load(answer)
    assert doc["status"] == "success", doc
    return {
        tuple(sorted(series["metric"].items())): [(float(t), float(v)) for t, v in series["values"]]
        for series in doc["data"]["result"]
    }


def _one(found: dict[Any, list[tuple[float, float]]]) -> list[tuple[float, float]]:
    assert len(found) == 1, found.keys()
    return next(iter(found.values()))


def test_a_pushed_run_reads_back_as_its_session_says(
    prometheus: str, nginx: DemoTarget, sessions: Path
) -> None:
    need("h2load")
    url = f"{prometheus}/api/v1/write"
    code, result, stderr = run_json(
        *FIXED_RATE, "--name", "pushed", "--prometheus-remote-write", url, nginx.urls["h2c"]
    )
    assert code == 0, stderr
    assert "prometheus" not in stderr, stderr
    session = store.load(Path(result["session_path"]))
    columns = session.series_columns
    assert session.started_at is not None
    start = started_s(session.started_at)
    rows = [
        dict(zip(columns, values, strict=True)) for values in zip(*columns.values(), strict=True)
    ]
    stamps = [round(start + window_end(row), 3) for row in rows]
    where = f'session="{session.id}",name="pushed",tool="h2load",protocol="h2c",generator="local"'

    def pushed(selector: str) -> list[tuple[float, float]]:
        return [(round(t, 3), v) for t, v in _one(_samples(prometheus, selector))]

    for metric, column in (
        ("tuibench_requests_per_second", "rps"),
        ("tuibench_good_requests_per_second", "good_rps"),
        ("tuibench_achieved_requests_per_second", "achieved_rps"),
        ("tuibench_backlog_requests", "backlog"),
        ('tuibench_latency_seconds{quantile="0.99",', "p99_s"),
        ('tuibench_latency_seconds{quantile="0.5",', "p50_s"),
        ('tuibench_service_latency_seconds{quantile="0.99",', "service_p99_s"),
    ):
        selector = f"{metric}{where}}}" if metric.endswith(",") else f"{metric}{{{where}}}"
        expected = [(t, float(r[column])) for t, r in zip(stamps, rows, strict=True)]
        assert pushed(selector) == expected, metric
    # The counter's last value is the run's completed requests, by class.
    ok = pushed(f'tuibench_requests_total{{{where},status_class="2xx"}}')
    assert [t for t, _ in ok] == stamps
    assert ok[-1][1] == result["requests"]["succeeded"] == sum(columns["2xx"])
    assert pushed(f"tuibench_target_requests_per_second{{{where}}}")[-1][1] == 1000
    assert pushed(f"tuibench_connections{{{where}}}")[-1][1] == 4
    # The run's histogram so far: its last count is the run's requests, as the session's.
    count = pushed(f"tuibench_latency_histogram_seconds_count{{{where}}}")
    assert count[-1] == (stamps[-1], float(sum(columns["requests"])))
    # The export of the same run is what the push was: the same series, stamps and values.
    exported = tuibench("export", session.id, "--format", "openmetrics")
    assert exported.returncode == 0, exported.stderr
    last_bucket = next(
        ln
        for ln in exported.stdout.splitlines()
        if ln.startswith("tuibench_latency_histogram_seconds_bucket{") and 'le="0.005"' in ln
    )
    bucket = pushed(f'tuibench_latency_histogram_seconds_bucket{{{where},le="0.005"}}')[-1]
    assert last_bucket.endswith(f" {int(bucket[1])} {bucket[0]:.3f}")
    line = next(
        ln for ln in exported.stdout.splitlines() if ln.startswith("tuibench_backlog_requests{")
    )
    assert line.endswith(f" {int(rows[0]['backlog'])} {stamps[0]:.3f}")


def test_the_export_loads_into_prometheus_blocks_with_the_real_promtool(
    nginx: DemoTarget, sessions: Path, tmp_path: Path
) -> None:
    need("h2load", "promtool")
    code, result, stderr = run_json(*FIXED_RATE, nginx.urls["h2c"])
    assert code == 0, stderr
    path = tmp_path / "run.om"
    written = tuibench("export", result["session_path"], "--format", "openmetrics", "-o", str(path))
    assert written.returncode == 0, written.stderr
    samples = [ln for ln in path.read_text().splitlines() if ln and not ln.startswith("#")]
    blocks = subprocess.run(
        [
            "promtool",
            "tsdb",
            "create-blocks-from",
            "openmetrics",
            str(path),
            str(tmp_path / "tsdb"),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert blocks.returncode == 0, blocks.stderr
    # promtool's table: a row per block (a run across a 2 h boundary makes two), its
    # samples in the fifth column.
    rows = [ln.split() for ln in blocks.stdout.splitlines() if ln[:1].isdigit()]
    assert rows, blocks.stdout
    assert sum(int(row[4]) for row in rows) == len(samples), blocks.stdout


def test_a_receiver_that_is_down_leaves_the_run_and_its_session_whole(
    nginx: DemoTarget, sessions: Path, quiet_url: str
) -> None:
    need("h2load")
    nothing = f"http://127.0.0.1:{_free_port()}/api/v1/write"
    # Refused at once: said as the run goes. Never answered: a push waits out its
    # timeout, past this short run's end, so what was not sent is said as it exits.
    for receiver, said in ((nothing, "refused"), (quiet_url, "timed out")):
        code, result, stderr = run_json(
            "-d", "2", "-c", "2", "--prometheus-remote-write", receiver, nginx.urls["h2c"]
        )
        assert code == 0, stderr
        if said == "refused":
            assert f"warning: prometheus remote write to {receiver} failed" in stderr
            assert "the run goes on" in stderr
        last = stderr.splitlines()[-1]
        assert last.startswith(f"prometheus remote write to {receiver}: "), stderr
        assert "second(s) of figures not sent (" in last and said in last, stderr
        columns = store.load(Path(result["session_path"])).series_columns
        assert sum(columns["requests"]) == result["requests"]["done"] > 0
        assert columns["t_s"][:2] == [0, 1]


@pytest.mark.parametrize("url", ["localhost:9090", "http://127.0.0.1:9x/api/v1/write"])
def test_a_url_that_is_not_http_is_refused_before_any_load(url: str, sessions: Path) -> None:
    refused = tuibench(
        "run", "--headless", "-d", "1", "--prometheus-remote-write", url, "http://127.0.0.1:9/"
    )
    assert refused.returncode == 2
    assert refused.stderr.strip().splitlines() == [
        f"tuibench: error: --prometheus-remote-write {url}: not an http(s) URL "
        "(Prometheus takes remote write at http://HOST:9090/api/v1/write)"
    ]
    assert not sessions.exists() or not any(sessions.iterdir())
