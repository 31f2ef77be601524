from __future__ import annotations

import pytest

from tests.parsers import capture, fixture
from tui_bench.parsers import ParseError
from tui_bench.parsers.ab import parse
from tui_bench.report.text import result_rows
from tui_bench.result import Requests, Result, Tls, Traffic

NO_ERRORS = {"connect": 0, "read": 0, "exceptions": 0, "write": 0, "non_2xx": 0}


def test_plain() -> None:
    r = parse(capture("ab-2.3-plain"))
    assert r.tool == "ab"
    assert r.tool_version == "2.3"
    assert r.protocol == "http/1.0"
    assert r.duration_s == 0.274
    assert r.rps == 18263.71
    assert r.bytes_per_s == pytest.approx(4387.57 * 1024)
    assert r.requests == Requests(total=5000, done=5000, succeeded=5000, failed=0)
    assert r.traffic == Traffic(total_bytes=1230000, header_bytes=1155000, data_bytes=75000)
    assert r.errors == NO_ERRORS
    assert r.status == {}
    assert r.tls is None
    assert r.latency is not None
    assert (r.latency.min_s, r.latency.mean_s, r.latency.sd_s) == (0.0, 0.001, 0.0002)
    assert r.latency.max_s == 0.003  # the 100% row
    assert r.latency.percentiles == {
        "p50_s": 0.0,
        "p66_s": 0.001,
        "p75_s": 0.001,
        "p80_s": 0.001,
        "p90_s": 0.001,
        "p95_s": 0.001,
        "p98_s": 0.001,
        "p99_s": 0.001,
    }
    assert r.connect is not None
    assert (r.connect.max_s, r.connect.sd_s) == (0.001, 0.0001)
    assert r.ttfb is not None and r.ttfb.max_s == 0.003


def test_keep_alive() -> None:
    r = parse(capture("ab-2.3-k"))
    assert r.requests.total == 20000
    assert r.latency is not None and r.latency.percentiles["p99_s"] == 0.003
    assert r.latency.max_s == 0.007


def test_big_bodies() -> None:
    r = parse(capture("ab-2.3-big-k"))
    assert r.traffic == Traffic(131558000, 486000, 131072000)
    assert r.bytes_per_s == pytest.approx(2720536.37 * 1024)


def test_answers_of_another_length_are_not_failures() -> None:
    # ab says "Failed requests: 1555 (Length: 1555)" of a page whose length varies: every
    # answer a 200, received whole.
    r = parse(capture("ab-2.3-length-failures"))
    assert r.errors == NO_ERRORS
    assert r.requests == Requests(total=2000, done=2000, succeeded=2000, failed=0)
    assert r.error_count == 0


def test_non_2xx() -> None:
    r = parse(capture("ab-2.3-non2xx"))
    assert r.errors == {**NO_ERRORS, "non_2xx": 1000}
    assert r.requests.succeeded == 0
    assert r.requests.failed == 0  # ab does not call a 404 a failed request


def test_receive_failures_counted_twice_leave_succeeded_unknown() -> None:
    r = parse(capture("ab-2.3-r-receive-failures"))
    assert r.errors == {**NO_ERRORS, "read": 200, "exceptions": 200}
    assert r.requests.failed == 400
    assert r.requests.succeeded is None


def test_closed_without_response_counts_as_complete() -> None:
    r = parse(capture("ab-2.3-r-drop"))
    assert r.requests.succeeded == 200
    assert r.traffic == Traffic(0, 0, 0)


def test_tls() -> None:
    r = parse(capture("ab-2.3-tls"))
    assert r.tls == Tls("TLSv1.3", "TLS_AES_256_GCM_SHA384", "X25519 253 bits")
    assert r.connect is not None
    assert (r.connect.min_s, r.connect.mean_s, r.connect.sd_s) == (0.001, 0.003, 0.0017)
    assert r.connect.percentiles == {"p50_s": 0.003}
    assert r.connect.max_s == 0.01


def test_remote_tls_capture() -> None:
    r = parse(fixture("ab-2.x-tls-c50-remote.txt"))
    assert r.tool_version is None
    assert r.duration_s == 10.139
    assert r.requests.total == 500
    assert r.traffic == Traffic(18661500, 190500, 18471000)
    assert r.latency is not None
    assert (r.latency.min_s, r.latency.mean_s, r.latency.max_s) == (0.762, 0.906, 1.579)
    assert r.latency.sd_s == 0.1225
    assert r.latency.percentiles["p50_s"] == 0.88
    assert r.latency.percentiles["p99_s"] == 1.477
    assert r.ttfb is not None and r.ttfb.percentiles == {"p50_s": 0.174}
    assert r.connect is not None and r.connect.max_s == 1.209


def test_tls_version_line_ab_prints() -> None:
    text = fixture("ab-2.x-tls-c50-remote.txt").replace(
        "Concurrency Level",
        "SSL/TLS Protocol:       TLSv1.3,TLS_AES_256_GCM_SHA384,4096,256\nConcurrency Level",
        1,
    )
    r = parse(text)
    assert r.tls == Tls("TLSv1.3", "TLS_AES_256_GCM_SHA384", None)


def test_without_confidence_columns() -> None:
    # ab -S prints "min avg max" and no median/sd.
    text = (
        "Complete requests:      10\nTime taken for tests:   0.010 seconds\n\n"
        "Connection Times (ms)\n              min   avg   max\n"
        "Connect:        0     1     2\nProcessing:     1     2     3\n"
        "Waiting:        1     1     2\nTotal:          1     3     5\n"
    )
    r = parse(text)
    assert r.latency is not None
    assert (r.latency.min_s, r.latency.mean_s, r.latency.max_s) == (0.001, 0.003, 0.005)
    assert r.latency.sd_s is None


@pytest.mark.parametrize("name", ["ab-2.3-refused", "ab-2.3-timeout"])
def test_fatal_errors_leave_no_report(name: str) -> None:
    with pytest.raises(ParseError, match="no ab report"):
        parse(capture(name))


def test_a_zero_in_whole_milliseconds_is_under_a_millisecond() -> None:
    result = parse(fixture("ab-2.3-k.txt"))
    latency = result.latency
    assert latency is not None and latency.resolution_s == 0.001
    assert latency.percentiles["p50_s"] == 0.0 and latency.percentiles["p99_s"] == 0.003
    rows = dict(result_rows(result))
    assert "p50 <1 ms" in rows["latency"] and "p99 3.00 ms" in rows["latency"]
    assert "0 µs" not in rows["latency"]
    again = Result.from_dict(result.to_dict()).latency
    assert again is not None and again.resolution_s == 0.001, "kept in the session"
