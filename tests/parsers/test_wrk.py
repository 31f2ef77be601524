from __future__ import annotations

import pytest

from tests.parsers import capture, fixture
from tui_bench.parsers import ParseError
from tui_bench.parsers.wrk import latency_table, parse
from tui_bench.result import Requests, Traffic, percentile_of_key

NO_ERRORS = {"connect": 0, "read": 0, "write": 0, "timeout": 0, "non_2xx_3xx": 0}


def test_plain() -> None:
    r = parse(capture("wrk-4.1.0-plain"))
    assert r.tool == "wrk"
    assert r.protocol == "http/1.1"
    assert r.duration_s == 2.1
    assert r.rps == 73493.56
    assert r.bytes_per_s == pytest.approx(17.59 * 1024**2)
    assert r.requests == Requests(total=154322, done=154322, succeeded=154322, failed=0, timeout=0)
    # Only the rounded "36.94MB read" is printed.
    assert r.traffic == Traffic(total_bytes=round(36.94 * 1024**2))
    assert r.status == {}  # wrk knows no status classes
    assert r.errors == NO_ERRORS
    assert r.latency is not None
    assert (r.latency.mean_s, r.latency.sd_s, r.latency.max_s) == (585.13e-6, 0.00097, 0.00831)
    assert r.latency.min_s is None
    assert r.latency.percentiles == {}
    assert r.connect is None and r.ttfb is None


def test_latency_distribution() -> None:
    r = parse(capture("wrk-4.1.0-latency"))
    assert r.requests.total == 136783
    assert r.latency is not None
    assert r.latency.percentiles == {
        "p50_s": 257e-6,
        "p75_s": 350e-6,
        "p90_s": 0.00183,
        "p99_s": 0.00615,
    }


def test_lua_summary_wins_over_rounded_text() -> None:
    r = parse(capture("wrk-4.1.0-lua"))
    assert r.duration_s == 2.100151
    assert r.requests.total == 186451
    assert r.traffic == Traffic(total_bytes=46799201)
    assert r.rps == pytest.approx(186451 / 2.100151)
    assert r.bytes_per_s == pytest.approx(46799201 / 2.100151)
    assert r.latency is not None
    assert (r.latency.min_s, r.latency.max_s) == (14e-6, 0.005436)
    assert r.latency.mean_s == pytest.approx(250.31e-6)
    assert r.latency.sd_s == pytest.approx(299.571e-6)
    assert r.latency.percentiles == pytest.approx(
        {
            "p50_s": 161e-6,
            "p75_s": 353e-6,
            "p90_s": 509e-6,
            "p99_s": 0.00127,
            "p99_9_s": 0.003761,
            "p99_99_s": 0.004754,
        }
    )


def test_lua_summary_alone_is_enough() -> None:
    r = parse(fixture("wrk-4.1.0-lua.stderr.txt"))
    assert r.requests.total == 186451
    assert r.errors == NO_ERRORS


def test_big_bodies_gigabytes() -> None:
    text = fixture("wrk-4.1.0-big-latency-lua.txt")
    assert parse(text).traffic.total_bytes == round(6.12 * 1024**3)
    r = parse(capture("wrk-4.1.0-big-latency-lua"))
    assert r.traffic.total_bytes == 6570795868


def test_non_2xx() -> None:
    r = parse(capture("wrk-4.1.0-non2xx-latency-lua"))
    assert r.errors == {**NO_ERRORS, "non_2xx_3xx": 278037}
    assert r.requests.succeeded == 0
    assert r.requests.failed == 278037
    text_only = parse(fixture("wrk-4.1.0-non2xx-latency-lua.txt"))
    assert text_only.errors["non_2xx_3xx"] == 278037
    assert text_only.requests.succeeded == 0


def test_read_errors_no_latency() -> None:
    r = parse(capture("wrk-4.1.0-read-errors-lua"))
    assert r.errors == {**NO_ERRORS, "read": 21164}
    assert r.requests.total == 0
    assert r.latency is None


def test_read_and_write_errors() -> None:
    r = parse(capture("wrk-4.1.0-read-write-errors"))
    assert r.errors == {**NO_ERRORS, "read": 11506, "write": 4081}
    assert r.latency is None  # "-nan%": no sample


def test_connect_errors() -> None:
    r = parse(capture("wrk-4.1.0-connect-errors"))
    assert r.errors == {**NO_ERRORS, "connect": 10441}
    assert r.rps == 0.0


def test_timeouts() -> None:
    r = parse(capture("wrk-4.1.0-timeout-latency-lua"))
    assert r.errors == {**NO_ERRORS, "timeout": 10}
    assert r.requests.timeout == 10
    assert r.requests.total == 10
    # Every response came after --timeout: wrk kept none in its latency statistics.
    assert r.latency is None


def test_zero_requests_text() -> None:
    r = parse(capture("wrk-4.1.0-slow-zero-requests-latency"))
    assert r.requests.total == 0
    assert r.traffic.total_bytes == 33 * 1024
    assert r.latency is None


def test_server_closing_connections_is_fine_for_wrk() -> None:
    r = parse(capture("wrk-4.1.0-server-closes"))
    assert r.errors == NO_ERRORS
    assert r.requests.total == 186798


def test_unable_to_connect_has_no_report() -> None:
    with pytest.raises(ParseError, match="no wrk report"):
        parse(capture("wrk-4.1.0-refused"))


def test_centminmod_fork() -> None:
    r = parse(fixture("wrk-cmm-breakout-json.txt"))
    # The JSON block's exact figures win over the text's.
    assert r.duration_s == 3.006606
    assert r.requests.total == 97397
    assert r.traffic.total_bytes == 22790898
    assert r.rps == 32394.33
    assert r.bytes_per_s == 7580274.24
    assert r.latency is not None
    assert r.latency.min_s == 218e-6  # the fork's Min column
    assert r.latency.max_s == 0.01626
    assert r.latency.mean_s == 0.00303
    assert r.latency.percentiles == {
        "p50_s": 0.00296,
        "p75_s": 0.003716,
        "p90_s": 0.004311,
        "p99_s": 0.008215,
        "p99_999_s": 0.016261,
    }
    assert r.connect is not None
    assert (r.connect.min_s, r.connect.mean_s) == (82e-6, 692.49e-6)
    assert r.ttfb is not None and r.ttfb.max_s == 0.01626


def test_version_from_wrk_v() -> None:
    text = "wrk debian/4.1.0-3+b2 [epoll] Copyright (C) 2012 Will Glozer\n"
    assert parse(text + capture("wrk-4.1.0-plain")).tool_version == "4.1.0"
    assert parse(capture("wrk-4.1.0-plain")).tool_version is None


def test_broken_summary_line_is_a_parse_error() -> None:
    with pytest.raises(ParseError):
        parse('tuibench-summary {"requests": 1,\n')
    with pytest.raises(ParseError):
        parse("tuibench-summary {nope}\n")


def test_lua_summary_table_gives_the_latency_at_fine_quantiles() -> None:
    text = capture("wrk-4.1.0-table-lua")
    table = latency_table(text)
    assert table is not None
    # 1 % … 99 %, 99.1 % … 99.9 %, 99.91 % … 99.99 % and 99.999 %: 118 rows.
    assert len(table.percentiles) == 118
    # The rows wrk's own report prints are the same figures, to its rounding.
    assert table.percentiles["p99_s"] == 0.01204
    own = parse(text).latency
    assert own is not None and table.percentiles["p50_s"] == own.percentiles["p50_s"]
    values = [table.percentiles[k] for k in sorted(table.percentiles, key=percentile_of_key)]
    assert values == sorted(values)
    assert (table.min_s, table.max_s) == (35e-6, 0.023431)
    # A run's own result keeps the usual few.
    assert "p1_s" not in own.percentiles


def test_no_table_without_the_scripts_summary() -> None:
    assert latency_table(capture("wrk-4.1.0-latency")) is None
    assert latency_table(capture("wrk-4.1.0-lua")) is None, "an older script's line"
