"""A JUnit XML report of what tuibench judged: a test case per validity check, per
threshold and per gate, failing where tuibench fails (the exit status says so too), the
figures in each message. CI systems (GitHub, GitLab, Jenkins) show it as a test run."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from xml.etree import ElementTree as ET

from tui_bench.analysis.verdicts import BaselineVerdict, Verdicts
from tui_bench.records.sweep_point import SweepPoint
from tui_bench.records.verdict import CODE_VERDICTS, WARNING_VERDICTS, Validity
from tui_bench.report.text import verdict_line
from tui_bench.storage.session import Session

# Every check a run's validity is made of, in a stable order.
CHECKS = tuple(sorted({*CODE_VERDICTS, *WARNING_VERDICTS}))


@dataclass(frozen=True)
class Case:
    name: str
    classname: str
    # Why it failed (tuibench fails on it); None: it passed.
    failure: str | None = None
    # What it found all the same (a suspect run's reason, the figures).
    output: str | None = None


@dataclass(frozen=True)
class Suite:
    name: str
    cases: tuple[Case, ...]


def validity_cases(validity: Validity | None, classname: str) -> list[Case]:
    """A case per check; an invalid reason fails its case, a suspect one passes with its
    message (tuibench warns of it and exits 0). A run with no verdict fails one case."""
    if validity is None:
        return [Case("validity", classname, failure="no verdict: the run could not be judged")]
    found = {r.code: r for r in validity.reasons}
    cases = []
    for code in (*CHECKS, *(c for c in found if c not in CHECKS)):
        reason = found.get(code)
        if reason is None:
            cases.append(Case(f"validity: {code}", classname))
        elif reason.verdict == "invalid":
            cases.append(Case(f"validity: {code}", classname, failure=reason.message))
        else:
            cases.append(Case(f"validity: {code}", classname, output=f"suspect: {reason.message}"))
    return cases


def verdict_cases(verdicts: Verdicts, classname: str) -> list[Case]:
    cases = [
        Case(
            f"threshold {v.text}" + (f" at {v.name}" if v.name else ""),
            classname,
            failure=None if v.passed else verdict_line(v),
            output=verdict_line(v),
        )
        for v in verdicts.thresholds
    ]
    if verdicts.baseline is not None:
        cases.append(gate_case(verdicts.baseline, classname))
    return cases


def gate_case(baseline: BaselineVerdict, classname: str) -> Case:
    text = "\n".join(baseline.lines) or None
    failed = baseline.failed or bool(baseline.refused)
    return Case("gate: baseline", classname, failure=text if failed else None, output=text)


def run_suite(name: str, validity: Validity | None, verdicts: Verdicts) -> Suite:
    classname = f"tuibench.run.{name}"
    return Suite(name, (*validity_cases(validity, classname), *verdict_cases(verdicts, classname)))


def sweep_suites(session: Session, verdicts: Verdicts) -> list[Suite]:
    """A suite per point (its validity and its thresholds), and one for the sweep's gate."""
    suites = []
    for point in session.points:
        name = _point_name(session, point)
        classname = f"tuibench.sweep.{session.name or session.id}.{name}"
        mine = Verdicts(thresholds=tuple(v for v in verdicts.thresholds if v.point == point.index))
        suites.append(
            Suite(
                name, (*validity_cases(point.validity, classname), *verdict_cases(mine, classname))
            )
        )
    if verdicts.baseline is not None:
        classname = f"tuibench.sweep.{session.name or session.id}"
        suites.append(Suite("baseline", (gate_case(verdicts.baseline, classname),)))
    return suites


def _point_name(session: Session, point: SweepPoint) -> str:
    values = ",".join(f"{k}={v}" for k, v in point.values.items())
    return point.name or values or f"point {point.index + 1}"


def step_name(session: Session, point: SweepPoint) -> str:
    return f"step {point.index + 1}: {_point_name(session, point)}"


def held_text(point: SweepPoint) -> str:
    """`held: 26,400 req/s` or `not held: invalid (rate-not-held: …)`."""
    rps = f"{point.rps_figure:,.0f} req/s" if point.rps_figure is not None else "– req/s"
    if point.held:
        return f"held: {rps}"
    reasons = (
        "; ".join(f"{r.code}: {r.message}" for r in point.validity.reasons)
        if point.validity
        else ""
    )
    slo = "" if point.meets_slo is not False else ", SLO not met"
    return f"not held: {rps} {point.verdict or '–'}{slo}" + (f" ({reasons})" if reasons else "")


def junit_xml(suites: Sequence[Suite], name: str) -> str:
    root = ET.Element("testsuites", name=name)
    total = failures = 0
    for suite in suites:
        element = ET.SubElement(
            root,
            "testsuite",
            name=suite.name,
            tests=str(len(suite.cases)),
            failures=str(sum(c.failure is not None for c in suite.cases)),
            errors="0",
            skipped="0",
        )
        for case in suite.cases:
            _case(element, case)
        total += len(suite.cases)
        failures += sum(c.failure is not None for c in suite.cases)
    root.set("tests", str(total))
    root.set("failures", str(failures))
    root.set("errors", "0")
    ET.indent(root)
    return ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n"


def _case(parent: ET.Element, case: Case) -> None:
    element = ET.SubElement(parent, "testcase", name=case.name, classname=case.classname)
    if case.failure is not None:
        failure = ET.SubElement(element, "failure", message=_first_line(case.failure))
        failure.text = case.failure
    if case.output:
        ET.SubElement(element, "system-out").text = case.output


def _first_line(text: str) -> str:
    return next(iter(text.splitlines()), "")
