from __future__ import annotations

import json

import pytest

from tests.parsers import capture, fixture
from tui_bench.parsers import ParseError
from tui_bench.parsers.h2load import parse, parse_json
from tui_bench.result import Requests, Tls, Traffic


def test_152_h2c_count_mode() -> None:
    r = parse(capture("h2load-1.52-h2c-n"))
    assert r.tool == "h2load"
    assert r.tool_version is None  # the run's output does not say; the caller sets it
    assert r.protocol == "h2c"
    assert r.duration_s == pytest.approx(0.46292)
    assert r.rps == pytest.approx(43203.64)
    assert r.bytes_per_s == pytest.approx(5.69 * 1024**2)
    assert r.requests == Requests(20000, 20000, 20000, 20000, 0, 0, 0)
    assert r.status == {"2xx": 20000, "3xx": 0, "4xx": 0, "5xx": 0}
    assert r.traffic == Traffic(total_bytes=2760980, header_bytes=2100000, data_bytes=300000)
    assert r.latency is not None
    assert (r.latency.min_s, r.latency.max_s) == (37e-6, 0.01149)
    assert (r.latency.mean_s, r.latency.sd_s) == (0.00412, 0.00206)
    assert r.latency.percentiles == {}  # 1.52 prints none
    assert r.connect is not None and r.connect.mean_s == 0.00101
    assert r.ttfb is not None and r.ttfb.max_s == 0.01046
    assert r.tls is None
    assert r.errors == {}


def test_152_h1() -> None:
    r = parse(capture("h2load-1.52-h1-n"))
    assert r.protocol == "http/1.1"
    assert r.traffic == Traffic(5020000, 3700000, 300000)
    assert r.latency is not None and r.latency.max_s == 0.00473


def test_152_big_bodies_use_exact_byte_counts() -> None:
    r = parse(capture("h2load-1.52-h2c-big-n"))
    assert r.traffic == Traffic(total_bytes=131454490, header_bytes=220000, data_bytes=131072000)
    assert r.bytes_per_s == pytest.approx(1.01 * 1024**3)


@pytest.mark.parametrize(
    ("name", "protocol"), [("h2load-1.52-tls-h2-n", "h2"), ("h2load-1.52-tls-h1-n", "http/1.1")]
)
def test_152_tls(name: str, protocol: str) -> None:
    r = parse(capture(name))
    assert r.protocol == protocol
    assert r.tls == Tls("TLSv1.3", "TLS_AES_128_GCM_SHA256", "X25519 253 bits")
    assert r.requests.succeeded == 5000


def test_152_status_classes_and_failed_requests() -> None:
    r = parse(capture("h2load-1.52-h2c-status-mix-n"))
    assert r.status == {"2xx": 1002, "3xx": 0, "4xx": 999, "5xx": 999}
    assert r.requests == Requests(3000, 3000, 3000, 1002, 1998, 0, 0)


def test_152_refused_port_all_failed_no_distributions() -> None:
    r = parse(capture("h2load-1.52-refused-n"))
    assert r.requests == Requests(100, 0, 0, 0, 100, 100, 0)
    assert r.duration_s == pytest.approx(349e-6)
    assert r.protocol is None
    # h2load prints zeros for rows with no samples: they are not measurements.
    assert (r.latency, r.connect, r.ttfb) == (None, None, None)
    assert r.traffic == Traffic(0, 0, 0)


def test_152_duration_mode_with_warm_up() -> None:
    r = parse(capture("h2load-1.52-h2c-D-warmup"))
    assert r.duration_s == 3.0
    assert r.requests.total == 158867
    # h2load's own quirk, kept as printed: one more 2xx than requests.
    assert r.status["2xx"] == 158868
    assert r.latency is not None and r.latency.max_s == 0.00924
    # Connections open during warm-up, so the main phase has no connect/TTFB samples.
    assert r.connect is None and r.ttfb is None


def test_152_server_closing_connections_is_counted() -> None:
    r = parse(capture("h2load-1.52-h2c-D-server-closes"))
    assert r.errors == {"process_request_failure": 10}
    assert r.requests == Requests(1062, 1090, 1062, 1000, 62, 62, 0)
    assert r.rps == 500.0


def test_152_h1_server_closing_connections_reconnects() -> None:
    r = parse(capture("h2load-1.52-h1-D-server-closes"))
    assert r.errors == {}
    assert r.requests.succeeded == 135249
    assert r.connect is not None and r.connect.max_s == 39e-6


def test_152_traffic_lost_over_connections_the_server_closed_is_unknown() -> None:
    # "traffic: 0B (0) total, 201.17KB (206000) headers ..., 5.86KB (6000) data", "0B/s".
    r = parse(capture("h2load-1.52-h1-n-server-closes-each"))
    assert r.traffic == Traffic(total_bytes=None, header_bytes=206000, data_bytes=6000)
    assert r.bytes_per_s is None
    assert r.requests.succeeded == 2000


def test_sigint_leaves_no_summary() -> None:
    with pytest.raises(ParseError, match="no h2load summary"):
        parse(capture("h2load-1.52-h2c-D-sigint"))


def test_only_starting_benchmark() -> None:
    with pytest.raises(ParseError):
        parse("starting benchmark...\n")


def test_old_layout_from_a_remote_tls_site() -> None:
    r = parse(fixture("h2load-1.x-tls-h2-from-a-blog.txt"))
    assert r.tls == Tls("TLSv1.3", "TLS_AES_256_GCM_SHA384", "X25519 253 bits")
    assert r.traffic == Traffic(203690, 20700, 180700)
    assert r.latency is not None and r.latency.min_s == 0.0017
    assert r.ttfb is not None and r.ttfb.sd_s == 0.00473


def test_old_layout_seconds_units() -> None:
    r = parse(fixture("h2load-1.x-h2c-m1-progress.txt"))
    assert r.duration_s == 9.51
    assert r.latency is not None
    assert (r.latency.min_s, r.latency.max_s) == (213e-6, 1.79)
    assert r.traffic.total_bytes == 73909800


def test_169_new_layout_percentiles() -> None:
    r = parse(fixture("h2load-1.69-tls-h2.txt"))
    assert r.tls == Tls("TLSv1.2", "ECDHE-RSA-AES128-GCM-SHA256", "X25519 253 bits")
    assert r.latency is not None
    assert r.latency.min_s == 42e-6
    assert r.latency.max_s == 765e-6
    assert r.latency.mean_s == 126e-6
    assert r.latency.sd_s == 52e-6
    assert r.latency.percentiles == {"p50_s": 109e-6, "p95_s": 259e-6, "p99_s": 300e-6}
    assert r.connect is not None and r.connect.percentiles["p50_s"] == 0.00701
    assert r.ttfb is not None and r.ttfb.sd_s == 165e-6


def test_170_text() -> None:
    r = parse(fixture("h2load-1.70-h2c.txt"))
    assert r.requests.total == 20000
    assert r.traffic == Traffic(14520980, 2160000, 12000000)
    assert r.latency is not None and r.latency.percentiles["p99_s"] == 0.00546


def test_170_histograms_between_rows_are_skipped() -> None:
    r = parse(fixture("h2load-1.70-histogram.txt"))
    assert r.latency is not None and r.latency.percentiles["p95_s"] == 0.00151
    assert r.connect is not None and r.connect.max_s == 446e-6
    assert r.ttfb is not None and r.ttfb.min_s == 443e-6


def test_version_line_when_present() -> None:
    text = "h2load nghttp2/1.52.0\n" + capture("h2load-1.52-h2c-n")
    assert parse(text).tool_version == "1.52.0"


def test_stderr_after_the_summary_does_not_break_the_table() -> None:
    text = capture("h2load-1.52-h2c-n") + "connect : something went wrong here\n"
    r = parse(text)
    assert r.connect is not None and r.connect.mean_s == 0.00101


def test_json_170_merged_with_text() -> None:
    r = parse_json(
        (fixture("h2load-1.70-h2c-output-file.json")).encode(), fixture("h2load-1.70-h2c.txt")
    )
    assert r.tool_version == "1.70.0"
    assert r.protocol == "h2c"
    assert r.duration_s == 0.302039
    assert r.rps == 66216.6144
    assert r.bytes_per_s == 48076506
    assert r.requests == Requests(20000, 20000, 20000, 20000, 0, 0, 0)
    assert r.status == {"2xx": 20000, "3xx": 0, "4xx": 0, "5xx": 0}
    assert r.traffic == Traffic(14520980, 2160000, 12000000)
    assert r.latency is not None
    assert r.latency.min_s == 6.3412e-05
    assert r.latency.max_s == 0.006902174
    assert r.latency.percentiles == {
        "p50_s": 0.0024851925,
        "p95_s": 0.005011846,
        "p99_s": 0.005463079,
    }
    assert r.connect is not None and r.connect.sd_s == 0.000153727507
    assert r.ttfb is not None and r.ttfb.mean_s == 0.0019726215


def test_json_text_adds_tls() -> None:
    r = parse_json(fixture("h2load-1.70-h2c-output-file.json"), fixture("h2load-1.69-tls-h2.txt"))
    assert r.tls is not None and r.tls.cipher == "ECDHE-RSA-AES128-GCM-SHA256"
    assert r.protocol == "h2"
    assert r.requests.total == 20000  # the JSON's numbers win


def test_json_without_text() -> None:
    r = parse_json(fixture("h2load-1.70-h2c-output-file.json"))
    assert r.protocol is None and r.tls is None
    assert r.requests.total == 20000


def test_json_wrong_types_are_dropped_not_raised() -> None:
    data = {
        "metadata": {"generator": 7},
        "measurements": {
            "duration": "fast",
            "requests": {"total": True, "done": 1.5, "failed": 2.0},
            "status_codes": [],
            "performance": {"request": {"min": None, "max": 0.5}},
        },
    }
    r = parse_json(json.dumps(data))
    assert r.tool_version is None and r.duration_s is None
    assert r.requests == Requests(failed=2)
    assert r.status == {}
    assert r.latency is not None and r.latency.max_s == 0.5


@pytest.mark.parametrize("data", ['{"version": "v1"}', "[]", "", b"\x80", '{"measurements": 3}'])
def test_json_not_h2load(data: str | bytes) -> None:
    with pytest.raises(ParseError):
        parse_json(data)
