"""The JUnit report, read back with junitparser as CI systems read it: a case per check,
failing where tuibench fails, the figures in its message."""

from __future__ import annotations

from pathlib import Path

from junitparser import Failure, JUnitXml

from tui_bench.analysis.verdicts import Verdicts
from tui_bench.records.threshold import ThresholdVerdict
from tui_bench.records.verdict import Reason, Validity
from tui_bench.report.junit import CHECKS, junit_xml, run_suite


def _read(tmp_path: Path, xml: str) -> JUnitXml:
    path = tmp_path / "report.xml"
    path.write_text(xml)
    return JUnitXml.fromfile(str(path))


def test_an_invalid_check_and_a_failed_threshold_fail_their_cases_only(tmp_path: Path) -> None:
    validity = Validity.of(
        [
            Reason("rate-not-held", "achieved 812 of 1,000 req/s", "invalid"),
            Reason("same-thing-new", "a check this release does not know", "suspect"),
            Reason("few-samples", "p99 of 60 requests", "suspect"),
        ]
    )
    threshold = ThresholdVerdict("p99<5ms", "p99_s", "<", 0.005, 0.0072, passed=False)
    kept = ThresholdVerdict("rps>100", "rps", ">", 100, 812, passed=True)
    suite = run_suite("api", validity, Verdicts(thresholds=(threshold, kept)))
    report = _read(tmp_path, junit_xml([suite], "tuibench run api"))
    [read] = list(report)
    cases = {case.name: case for case in read}
    assert len(cases) == len(CHECKS) + 1 + 2
    failed = {name for name, case in cases.items() if not case.is_passed}
    assert failed == {"validity: rate-not-held", "threshold p99<5ms"}
    [failure] = cases["threshold p99<5ms"].result
    assert isinstance(failure, Failure)
    assert failure.message == "threshold p99<5ms: FAIL (p99 7.20 ms)"
    assert cases["validity: rate-not-held"].result[0].message == "achieved 812 of 1,000 req/s"
    # A suspect reason passes (tuibench exits 0 on it) and says what it found.
    assert cases["validity: few-samples"].system_out == "suspect: p99 of 60 requests"
    assert cases["validity: same-thing-new"].is_passed
    assert report.tests == len(cases) and report.failures == 2


def test_a_run_without_a_verdict_fails_one_case(tmp_path: Path) -> None:
    report = _read(tmp_path, junit_xml([run_suite("x", None, Verdicts())], "t"))
    [read] = list(report)
    [case] = list(read)
    assert not case.is_passed and case.name == "validity"
