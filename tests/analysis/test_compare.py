from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.factories import h2load_result
from tui_bench.analysis.compare import (
    METRICS,
    SETUP_LABELS,
    Metric,
    compare_metrics,
    flags,
    fmt_delta,
    fmt_delta_pct,
    fmt_value,
    judge,
    metric_delta,
    series_points,
    setup,
    setup_differences,
    started,
    target,
)
from tui_bench.result import Distribution, Requests, Tls, Traffic
from tui_bench.storage.session import SCHEMA, Session

URL = "http://127.0.0.1:8080/"


def result(**changes: Any) -> dict[str, Any]:
    base = h2load_result(
        duration_s=10.0,
        rps=1000.0,
        total=10_000,
        failed=100,
        bytes_per_s=2_000_000.0,
        requests=Requests(total=10_000, done=10_000, succeeded=9_900, failed=100),
        traffic=Traffic(total_bytes=3_000_000, header_bytes=1_000_000, data_bytes=1_000_000),
        latency=Distribution(
            min_s=0.0001,
            max_s=0.050,
            mean_s=0.004,
            percentiles={"p50_s": 0.003, "p90_s": 0.008, "p99_s": 0.010},
        ),
    )
    return base.with_(**changes).to_dict()


def doc(**changes: Any) -> dict[str, Any]:
    """A run of h2load -c 10 -t 1 -d 10 -m 4 against URL, its session as a dict."""
    base: dict[str, Any] = {
        "schema": SCHEMA,
        "version": 1,
        "id": "20260101-120000-000-h2load-a",
        "name": "a",
        "status": "completed",
        "started_at": "2026-01-01T12:00:00+00:00",
        "spec": {
            "urls": [URL],
            "tool": "h2load",
            "connections": 10,
            "threads": 1,
            "duration_s": 10.0,
            "streams": 4,
        },
        "argv": [
            "/usr/bin/h2load",
            "-c",
            "10",
            "-t",
            "1",
            "-D",
            "10000ms",
            "-m",
            "4",
            "--log-file=/tmp/tuibench-run-abc/requests.tsv",
            URL,
        ],
        "tool": {"name": "h2load", "path": "/usr/bin/h2load", "version": "1.52.0"},
        "host": {
            "hostname": "bench1",
            "cpu_model": "AMD EPYC",
            "cores": 8,
            "kernel": "6.1.0",
            "governor": "performance",
        },
        "server": {"pid": 1, "name": "nginx"},
        "series": [
            {"t_s": 0, "rps": 900, "p99_s": 0.012, "server_cpu_pct": 40.0, "client_cpu_pct": 10.0},
            {"t_s": 1, "rps": 1100, "p99_s": None, "server_cpu_pct": 60.0},
            {"t_s": 2, "rps": None, "server_cpu_pct": None, "server_rss_bytes": 2048},
        ],
        "resources": {
            "server_cpu_mean_pct": 50.0,
            "server_cpu_max_pct": 70.0,
            "server_rss_max_bytes": 1024.0,
            "client_cpu_mean_pct": 20.0,
        },
        "result": result(),
    }
    base.update(changes)
    return base


def session(**changes: Any) -> Session:
    return Session(doc(**changes))


def edited(edit: Callable[[dict[str, Any]], None]) -> Session:
    data = doc()
    edit(data)
    return Session(data)


def by_name(a: Session, b: Session) -> dict[str, Any]:
    return {d.name: d for d in compare_metrics(a, b)}


# Metrics


def test_names_units_and_directions_are_the_json_contract() -> None:
    table = {m.name: (m.unit, m.direction) for m in METRICS}
    assert table["rps"] == ("req/s", "higher")
    assert table["p50_s"] == ("s", "lower")
    assert table["p99_s"] == ("s", "lower")
    assert table["error_rate"] == ("ratio", "lower")
    assert table["server_cpu_pct"] == ("%", "lower")
    assert table["bytes_per_s"] == ("bytes/s", "higher")
    assert table["server_rss_max_bytes"] == ("bytes", "lower")


def test_known_numbers_of_two_sessions() -> None:
    b = session(
        result=result(
            rps=1200.0,
            requests=Requests(total=12_000, done=12_000, succeeded=11_400, failed=600),
            latency=Distribution(
                max_s=0.040, mean_s=0.004, percentiles={"p50_s": 0.003, "p99_s": 0.012}
            ),
        ),
        resources={"server_cpu_mean_pct": 75.0, "server_rss_max_bytes": 512.0},
        series=[],
    )
    d = by_name(session(), b)
    assert (d["rps"].a, d["rps"].b, d["rps"].delta) == (1000.0, 1200.0, 200.0)
    assert d["rps"].delta_pct == pytest.approx(20.0)
    assert d["rps"].change == "better"
    # good req/s: rps times the share that succeeded.
    assert d["good_rps"].a == pytest.approx(990.0)
    assert d["good_rps"].b == pytest.approx(1140.0)
    assert d["p99_s"].delta == pytest.approx(0.002)
    assert d["p99_s"].delta_pct == pytest.approx(20.0)
    assert d["p99_s"].change == "worse"
    assert d["max_s"].change == "better"
    assert d["p50_s"].change == "same"
    assert d["mean_s"].change == "same"
    assert d["error_rate"].a == pytest.approx(0.01)
    assert d["error_rate"].b == pytest.approx(0.05)
    assert d["error_rate"].change == "worse"
    assert d["server_cpu_pct"].a == 50.0 and d["server_cpu_pct"].b == 75.0
    assert d["server_cpu_pct"].change == "worse"
    assert d["server_rss_max_bytes"].change == "better"
    # Only A knows client CPU and p90: B's side is unknown, so there is no change.
    assert d["client_cpu_pct"].b is None and d["client_cpu_pct"].change is None
    assert d["p90_s"].a == 0.008 and d["p90_s"].delta is None


@pytest.mark.parametrize(
    ("direction", "delta", "delta_pct", "change"),
    [
        ("higher", 10.0, 10.0, "better"),
        ("higher", -10.0, -10.0, "worse"),
        ("lower", 10.0, 10.0, "worse"),
        ("lower", -10.0, -10.0, "better"),
        ("higher", 1.0, 1.9, "same"),
        ("lower", -1.0, -1.9, "same"),
        ("lower", 0.0, None, "same"),
        # From 0: no percentage, the sign decides.
        ("lower", 0.01, None, "worse"),
        ("higher", 5.0, None, "better"),
    ],
)
def test_change_follows_the_direction(
    direction: Any, delta: float, delta_pct: float | None, change: str
) -> None:
    assert judge(direction, delta, delta_pct) == change


def test_delta_from_zero_has_no_percentage() -> None:
    metric = Metric("error_rate", "error rate", "ratio", "lower", lambda s: None)
    d = metric_delta(metric, 0.0, 0.02)
    assert d.delta == 0.02 and d.delta_pct is None and d.change == "worse"
    assert metric_delta(metric, None, 0.02).change is None


def test_resources_fall_back_to_the_series() -> None:
    # A run that died before its summary: means and peaks over the per-second series.
    d = by_name(session(resources=None), session())
    assert d["server_cpu_pct"].a == 50.0  # mean of 40 and 60
    assert d["server_rss_max_bytes"].a == 2048.0
    assert d["client_cpu_pct"].a == 10.0


def test_metrics_unknown_in_both_sessions_are_left_out() -> None:
    bare = session(result=None, resources=None, series=[])
    assert compare_metrics(bare, bare) == []
    names = [d.name for d in compare_metrics(bare, session())]
    assert names == [m.name for m in METRICS]
    wrk = result(
        tool="wrk", requests=Requests(total=500), status={}, latency=None, bytes_per_s=None
    )
    only_rps = session(result=wrk, resources=None, series=[])
    assert [d.name for d in compare_metrics(only_rps, only_rps)] == ["rps"]


def test_series_points_skip_missing_values() -> None:
    assert series_points(session(), "rps") == ([0.0, 1.0], [900.0, 1100.0])
    assert series_points(session(), "p99_s") == ([0.0], [0.012])
    assert series_points(session(series=[]), "rps") == ([], [])


# Set-up differences


def _set(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def edit(data: dict[str, Any]) -> None:
        *parents, key = path.split(".")
        node = data
        for part in parents:
            node = node[part]
        node[key] = value

    return edit


def _with_body(data: dict[str, Any]) -> None:
    # The same method as before (GET), sending a body: only the body differs.
    data["spec"].update(method="GET", body_file="a.json", body_size=12, body_sha256="ab" * 32)


CHANGES = {
    "tool": _set("tool.name", "wrk"),
    "tool_version": _set("tool.version", "1.68.0"),
    "protocol": _set("spec.h1", True),
    "tls": _set("result", result(tls=Tls("TLSv1.3", "TLS_AES_128_GCM_SHA256"))),
    "connections": _set("spec.connections", 100),
    "threads": _set("spec.threads", 2),
    "streams": _set("spec.streams", None),
    "mode": _set("spec.duration_s", 30.0),
    "warm_up": _set("spec.warm_up_s", 2.0),
    "urls": _set("spec.urls", [URL, "http://127.0.0.1:8080/b"]),
    "method": _set("spec.method", "DELETE"),
    "request_body": _with_body,
    "headers": _set("spec.headers", ["X-Test: 1"]),
    "compression": _set("spec.compress", "gzip"),
    "flags": _set("argv", ["/opt/h2load", "-c", "10", "--h1", URL]),
    "body_size": _set("result", result(traffic=Traffic(data_bytes=2_000_000))),
    "hostname": _set("host.hostname", "bench2"),
    "cpu_model": _set("host.cpu_model", "Intel Xeon"),
    "cores": _set("host.cores", 16),
    "kernel": _set("host.kernel", "6.12.0"),
    "governor": _set("host.governor", "powersave"),
    "server": _set("server.name", "undertow"),
}


def test_every_field_is_checked() -> None:
    assert set(CHANGES) == set(SETUP_LABELS)


@pytest.mark.parametrize("field", list(CHANGES))
def test_each_field_that_differs_is_reported_alone(field: str) -> None:
    a = session()
    b = edited(CHANGES[field])
    differences = setup_differences(a, b)
    # h2load counts warm-up bytes but not warm-up requests: the response size becomes unknown.
    also = ["body_size"] if field == "warm_up" else []
    assert [d.field for d in differences] == [field, *also]
    diff = differences[0]
    assert diff.a == setup(a)[field] and diff.b == setup(b)[field]
    assert diff.label == SETUP_LABELS[field]


def test_same_set_up_has_no_differences() -> None:
    assert setup_differences(session(), session()) == []


def test_a_negotiated_protocol_unlike_the_expected_one_is_shown_beside_it() -> None:
    b = session(result=result(protocol="http/1.1"))
    assert setup_differences(session(), b)[0].b == "h2c (negotiated http/1.1)"


def test_a_changed_body_is_named_by_size_type_and_digest() -> None:
    b = edited(_with_body)
    assert setup_differences(session(), b)[0].b == "12 B application/json, sha256 abababababab"


def test_flags_leave_out_program_urls_and_per_run_files() -> None:
    assert setup(session())["flags"] == "-c 10 -t 1 -D 10000ms -m 4"
    argv = [
        "stdbuf",
        "-oL",
        "/usr/local/bin/h2load",
        "-H",
        "X-Name: a b",
        "--log-file=/tmp/x/requests.tsv",
        "--output-file=/tmp/x/summary.json",
        "http://127.0.0.1:1/",
    ]
    assert flags(argv) == "-H 'X-Name: a b'"
    wrk = ["/usr/bin/wrk", "-t", "2", "-s", "/home/u/venv/tui_bench/runners/wrk_report.lua"]
    assert flags(wrk) == "-t 2 -s wrk_report.lua"
    assert flags([]) is None


def test_body_size_is_unknown_with_a_warm_up() -> None:
    assert setup(session())["body_size"] == "100 B"
    warm = edited(_set("spec.warm_up_s", 1.0))
    assert setup(warm)["body_size"] is None


def test_missing_parts_are_unknown_not_errors() -> None:
    data = doc()
    for key in ("host", "tool", "server", "resources", "argv", "started_at"):
        del data[key]
    data["series"] = []
    data["result"] = None
    bare = Session(data)
    facts = setup(bare)
    assert facts["tool"] == "h2load"  # from the spec
    assert facts["tool_version"] is None and facts["hostname"] is None
    assert facts["flags"] is None and facts["body_size"] is None
    assert facts["server"] == "–"
    fields = {d.field for d in setup_differences(session(), bare)}
    assert {"tool_version", "flags", "hostname", "cores", "server", "body_size"} <= fields
    assert started(bare) == "–"


def test_an_imported_session_knows_its_tool_and_result_only() -> None:
    imported = session(
        status="imported",
        source="/tmp/h2load-raw-1.log",
        spec={"urls": [], "tool": "h2load"},
        argv=[],
        host={},
        server=None,
        series=[],
        resources=None,
    )
    facts = setup(imported)
    assert facts["tool"] == "h2load" and facts["tool_version"] == "1.52.0"
    assert facts["protocol"] == "h2c"  # what it negotiated
    for unknown in ("connections", "mode", "urls", "flags", "server", "hostname"):
        assert facts[unknown] is None
    assert setup_differences(imported, imported) == []
    against_run = {d.field: d for d in setup_differences(session(), imported)}
    assert against_run["connections"].a == "10" and against_run["connections"].b is None
    assert "tool" not in against_run
    assert target(imported) == "imported from /tmp/h2load-raw-1.log"
    assert target(session()) == URL


# Words


@pytest.mark.parametrize(
    ("unit", "value", "text", "delta", "delta_text"),
    [
        ("req/s", 41563.33, "41,563", -1351.8, "-1,352"),
        ("s", 0.0106555, "10.66 ms", 0.0003, "+300 µs"),
        ("ratio", 0.0125, "1.25%", 0.005, "+0.50 pp"),
        ("%", 65.78, "65.8%", -14.32, "-14.3 pp"),
        ("bytes", 21057536, "20.08 MiB", 0.0, "±0 B"),
        ("bytes/s", 6228541.44, "5.94 MiB/s", 1024.0, "+1.00 KiB/s"),
    ],
)
def test_values_and_deltas_in_their_units(
    unit: str, value: float, text: str, delta: float, delta_text: str
) -> None:
    assert fmt_value(unit, value) == text
    assert fmt_delta(unit, delta) == delta_text
    assert fmt_value(unit, None) == fmt_delta(unit, None) == "–"


def test_percentage_change() -> None:
    assert fmt_delta_pct(-3.14996) == "-3.1%"
    assert fmt_delta_pct(20.0) == "+20.0%"
    assert fmt_delta_pct(None) == "–"
    assert fmt_delta_pct(-0.01) == "±0.0%"
    assert fmt_delta("req/s", -0.0049) == "±0"
