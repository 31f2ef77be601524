import numpy as np
import pytest

from tui_bench.errors import SessionError
from tui_bench.formats import fmt_bytes, fmt_compact, fmt_seconds
from tui_bench.histogram import LatencyHistogram
from tui_bench.report.export import export, series_csv
from tui_bench.result import Distribution, Requests, Result
from tui_bench.storage.histogram_codec import packed
from tui_bench.storage.session import SCHEMA, Session
from tui_bench.storage.threshold_codec import threshold_record


def session() -> Session:
    result = Result(
        tool="h2load",
        tool_version="1.52.0",
        protocol="h2c",
        rps=1234.5,
        requests=Requests(total=100, succeeded=99, failed=1),
        status={"2xx": 99},
        latency=Distribution(0.0001, 0.02, 0.001, None, {"p99_s": 0.01}),
    )
    return Session(
        {
            "schema": SCHEMA,
            "version": 1,
            "id": "sid",
            "name": "n",
            "status": "completed",
            "spec": {"urls": ["http://127.0.0.1:1/"], "tool": "h2load"},
            "argv": ["h2load"],
            "series": [
                {"t_s": 0, "rps": 100, "p99_s": 0.01, "server_cpu_pct": 55.5},
                {"t_s": 1, "rps": 90},
            ],
            "result": result.to_dict(),
            "warnings": [{"code": "same-machine", "message": "shared box"}],
        }
    )


def test_csv_header_is_the_contract_and_rows_follow() -> None:
    lines = series_csv(session().series_columns).splitlines()
    header = lines[0].split(",")
    for column in (
        "t_s",
        "rps",
        "errors",
        "p50_s",
        "p90_s",
        "p99_s",
        "server_cpu_pct",
        "server_rss_bytes",
        "client_cpu_pct",
    ):
        assert column in header
    first = dict(zip(header, lines[1].split(","), strict=True))
    assert first["rps"] == "100" and first["p99_s"] == "0.01" and first["server_cpu_pct"] == "55.5"
    assert first["p50_s"] == ""
    assert len(lines) == 3


def test_markdown_has_result_table_and_warnings() -> None:
    md = export(session(), "md")
    assert "| req/s | 1,234.50 |" in md
    assert "p99 10.00 ms" in md
    assert "> warning: shared box" in md


def test_markdown_says_what_the_run_cost_and_unknown_is_a_dash() -> None:
    doc = {
        **session().doc,
        "resources": {
            "server_cpu_mean_pct": 152.4,
            "server_cpu_max_pct": 190.0,
            "server_rss_max_bytes": 48 * 2**20,
            "client_cpu_mean_pct": None,
            "client_cpu_max_pct": "garbage",
        },
    }
    md = export(Session(doc), "md")
    assert "| server | cpu mean 152%, max 190%, rss peak 48.00 MiB |" in md
    assert "| client | cpu mean –, max – |" in md
    # A session saved before the figures were kept has no rows for them.
    assert "| server |" not in export(session(), "md")


def test_json_export_holds_result_key() -> None:
    import orjson

    doc = orjson.loads(export(session(), "json"))
    assert doc["result"]["rps"] == 1234.5


def test_formatters() -> None:
    assert fmt_seconds(0.0000371) == "37 µs"
    assert fmt_seconds(0.0048) == "4.80 ms"
    assert fmt_seconds(None) == "–"
    assert fmt_bytes(1440490) == "1.37 MiB"


@pytest.mark.parametrize(
    ("value", "digits", "shown"),
    [
        (43522, 3, "43.5k"),
        (-43522, 3, "-43.5k"),
        (1e6, 3, "1M"),
        (0.5, 3, "0.5"),
        (250, 3, "250"),
        (0, 3, "0"),
        (35002, 2, "35k"),
        (35499, 2, "35k"),
        (135002, 2, "140k"),  # never an exponent
        (842, 2, "842"),
        (84.25, 2, "84"),
        (999_600, 2, "1M"),
        (999_950, 3, "1M"),
        (0.00001234, 3, "0.000012"),
        (float("nan"), 3, "nan"),
        (float("inf"), 2, "inf"),
        (2_500_000, 2, "2.5M"),
    ],
)
def test_fmt_compact(value: float, digits: int, shown: str) -> None:
    assert fmt_compact(value, digits) == shown


def test_markdown_of_a_run_of_several_has_a_section_per_load_generator() -> None:
    doc = dict(session().doc)
    doc["argv"] = ["h2load", "-c", "2", "--log-file=/dev/fd/3"]
    doc["generators"] = [
        {"host": "bench-c", "tool": {"name": "h2load", "version": "1.52.0"},
         "argv": ["h2load", "-c", "2", "--log-file=/dev/fd/3"], "rps": 600.0, "share": 0.6,
         "client_cpu_mean_pct": 93.2, "client_bound": True, "start_skew_s": 0.0021,
         "lost": None, "session": {"result": {"requests": {"total": 60}}}},
        {"host": "bench-c#2", "tool": {"name": "h2load", "version": "1.64.0"},
         "argv": ["h2load", "-c", "1"], "rps": 400.0, "share": 0.4,
         "client_cpu_mean_pct": None, "client_bound": False, "start_skew_s": None,
         "lost": "bench-c#2: the connection was lost", "session": None},
    ]  # fmt: skip
    md = export(Session(doc), "md")
    assert "- argv: one per load generator, below" in md
    assert "--log-file=/dev/fd/3` " not in md.split("## Load generators")[0]
    assert "## Load generators (2)" in md
    assert "| bench-c | h2load 1.52.0 | 60 | 600 | 60% | 93% | yes | 2.1 ms | – |" in md
    assert (
        "| bench-c#2 | h2load 1.64.0 | – | 400 | 40% | – | no | – | "
        "bench-c#2: the connection was lost |"
    ) in md
    assert "- bench-c: `h2load -c 2 --log-file=/dev/fd/3`" in md
    assert "- bench-c#2: `h2load -c 1`" in md


def test_markdown_of_a_run_of_one_keeps_its_argv_and_no_generators_section() -> None:
    md = export(session(), "md")
    assert "- argv: `h2load`" in md
    assert "Load generators" not in md


def test_markdown_says_what_was_sent_and_its_argv_pastes_back_into_a_shell() -> None:
    doc = {
        **session().doc,
        "spec": {
            "urls": ["http://127.0.0.1:1/"],
            "tool": "h2load",
            "method": "POST",
            "body_file": "order.json",
            "body_size": 58,
        },
        "argv": ["h2load", "-H", "Accept: text/html", "http://127.0.0.1:1/a b"],
    }
    md = export(Session(doc), "md")
    assert "| request | POST with a 58-byte application/json body |" in md
    assert "- argv: `h2load -H 'Accept: text/html' 'http://127.0.0.1:1/a b'`" in md


def test_markdown_of_a_run_judged_by_thresholds_has_a_row_for_each() -> None:
    from tui_bench.analysis.thresholds import parse_threshold
    from tui_bench.analysis.verdicts import run_thresholds

    doc = session().doc
    judged = run_thresholds([parse_threshold("p99<5ms"), parse_threshold("rps>1000")], Session(doc))
    md = export(Session({**doc, "thresholds": [threshold_record(v) for v in judged]}), "md")
    table = md[md.index("## Thresholds") :].splitlines()
    assert table[2:4] == [
        "| threshold | point | measured | verdict |",
        "| --- | --- | ---: | --- |",
    ]
    assert table[4] == "| p99<5ms | all | 10.00 ms | **FAIL** |"
    assert table[5] == "| rps>1000 | all | 1,234 req/s | pass |"


def minutes_session(service: bool) -> Session:
    def minute(start_s: int, base_us: int) -> dict[str, object]:
        h = LatencyHistogram()
        h.add(np.arange(base_us, base_us + 1000, dtype=np.int64))
        record: dict[str, object] = {"t_s": start_s, "histogram": packed(h)}
        if service:
            record["service_histogram"] = packed(h)
        return record

    doc = dict(session().doc)
    doc["minutes"] = [minute(0, 1000), minute(60, 5000)]
    return Session(doc)


def test_minutes_are_each_minutes_own_percentiles() -> None:
    lines = export(minutes_session(service=False), "minutes").splitlines()
    assert lines[0] == "t_s,requests,p50_s,p90_s,p99_s,p99_9_s,max_s,service_p50_s,service_p99_s"
    first, second = (line.split(",") for line in lines[1:])
    assert first[:2] == ["0", "1000"] and second[:2] == ["60", "1000"]
    # 1000..1999 µs then 5000..5999 µs: each minute's median its own, within a bucket.
    assert float(first[2]) == pytest.approx(0.0015, rel=0.01)
    assert float(second[2]) == pytest.approx(0.0055, rel=0.01)
    assert second[6] == "0.005999"
    assert first[7:] == ["", ""]  # a closed loop: no send-time latency
    (_, rate) = export(minutes_session(service=True), "minutes").splitlines()[:2]
    assert rate.split(",")[7] != ""


def test_minutes_of_a_session_without_them_is_one_line_naming_why() -> None:
    with pytest.raises(SessionError, match=r"sid keeps no minute histograms: .*h2load"):
        export(session(), "minutes")
