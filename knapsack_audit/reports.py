"""Write ``verify`` results as JSON, Markdown or JUnit XML, chosen by file extension.

JUnit XML is built with :mod:`xml.etree.ElementTree` (standard library): one
``<testsuite>`` per target, one ``<testcase>`` per property, ``<failure>``
for a failed property (its message is the counterexample call), ``<skipped>``
for a warning, ``<error>`` for a target that could not be loaded; and one
suite per group of other named :class:`Check` (the release report's golden
replay).
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from knapsack_audit import __version__
from knapsack_audit.verify import TargetReport, smallest_failure


@dataclass(frozen=True)
class Check:
    """A named pass/fail check beside the targets' properties, for JUnit XML.

    ``failure``: the failure message (``None``: passed); ``detail``: the
    failure's text (a copy-pasteable call, say).
    """

    suite: str
    name: str
    failure: str | None
    detail: str = ""


FORMATS = {".json": "json", ".md": "markdown", ".xml": "junit"}
"""Report file extension -> format."""


def report_format(path: str) -> str:
    """The format for ``path``; :class:`ValueError` naming the known extensions."""
    suffix = Path(path).suffix.lower()
    if suffix not in FORMATS:
        raise ValueError(
            f"--report {path}: unknown extension {suffix or '(none)'!r}; "
            f"use one of {', '.join(FORMATS)}"
        )
    return FORMATS[suffix]


def write_report(path: str, reports: Sequence[TargetReport], exit_code: int) -> None:
    """Write ``reports`` to ``path`` in the format its extension names."""
    kind = report_format(path)
    if kind == "json":
        text = to_json(reports, exit_code)
    elif kind == "markdown":
        text = to_markdown(reports, exit_code)
    else:
        text = to_junit(reports)
    Path(path).write_text(text, encoding="utf-8")


def to_json(reports: Sequence[TargetReport], exit_code: int) -> str:
    """``{"tool", "version", "exit_code", "targets": [...]}`` (see :meth:`TargetReport.to_dict`)."""
    document: dict[str, Any] = {
        "tool": "knapsack-audit",
        "version": __version__,
        "exit_code": exit_code,
        "targets": [report.to_dict() for report in reports],
    }
    return json.dumps(document, indent=2) + "\n"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def markdown_sections(reports: Sequence[TargetReport], level: int = 2) -> list[str]:
    """Markdown for each target: verdict table, then each failure's call."""
    heading = "#" * level
    lines: list[str] = []
    for report in reports:
        lines.append(f"{heading} `{report.label}`: {report.status.upper()}")
        lines.append("")
        if report.error is not None:
            lines += [f"Could not be loaded: {report.error}", ""]
            lines += [*report.isolation_notes(), ""] if report.isolation_notes() else []
            continue
        lines.append(f"Judge: {report.judge}; domain: {report.domain}; {report.effort}.")
        if report.isolation_notes():
            lines += ["", *report.isolation_notes()]
        lines += ["", "| property | verdict | examples | time (s) |", "|---|---|---|---|"]
        for row in report.verdicts:
            lines.append(f"| {row.property} | {row.verdict} | {row.examples} | {row.seconds:.1f} |")
        lines.append("")
        if report.findings:
            lines += [f"{smallest_failure(report.findings).capitalize()}.", ""]
        for finding in report.findings:
            lines += [
                f"{heading}# {report.label}: {finding.property} fails ({finding.clause})",
                "",
                "```python",
                finding.call,
                "```",
                "",
                f"- size: {finding.size()}",
                f"- expected: {_cell(finding.expected)}",
                f"- actual: {_cell(finding.actual)}",
            ]
            if finding.explanation:
                lines.append(f"- note: {_cell(finding.explanation)}")
            if finding.state_note():
                lines.append(f"- state: {_cell(finding.state_note())}")
            if len(finding.after) == 1:
                lines += ["- after:", "", "```python", finding.after[0], "```"]
            lines.append("")
    return lines


def verdict_table(reports: Sequence[TargetReport]) -> list[str]:
    """Markdown lines: one row per target with its status and failed properties."""
    lines = ["| target | status | failed properties |", "|---|---|---|"]
    for report in reports:
        failed = ", ".join(finding.property for finding in report.findings) or "-"
        lines.append(f"| `{report.label}` | {report.status} | {failed} |")
    return lines


def to_markdown(reports: Sequence[TargetReport], exit_code: int) -> str:
    """A Markdown report with a summary table and one section per target."""
    lines = [f"# knapsack-audit {__version__}: verify", "", f"Exit code {exit_code}.", ""]
    lines += verdict_table(reports)
    lines.append("")
    lines += markdown_sections(reports)
    return "\n".join(lines)


def to_junit(reports: Sequence[TargetReport], checks: Sequence[Check] = ()) -> str:
    """JUnit XML: a testsuite per target, a testcase per property; then a
    testsuite per :attr:`Check.suite`, a testcase per check."""
    root = ET.Element("testsuites", name="knapsack-audit")
    totals = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    for report in reports:
        suite = ET.SubElement(root, "testsuite", name=report.label)
        counts = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
        if report.error is not None:
            case = ET.SubElement(suite, "testcase", classname=report.label, name="load")
            ET.SubElement(case, "error", message=report.error, type="TargetError")
            counts["tests"], counts["errors"] = 1, 1
        findings = {finding.property: finding for finding in report.findings}
        for row in report.verdicts:
            case = ET.SubElement(
                suite,
                "testcase",
                classname=report.label,
                name=row.property,
                time=f"{row.seconds:.3f}",
            )
            counts["tests"] += 1
            if row.property in findings:
                finding = findings[row.property]
                failure = ET.SubElement(
                    case, "failure", message=finding.actual, type=finding.clause
                )
                failure.text = "\n".join(
                    part
                    for part in (
                        finding.call,
                        f"size: {finding.size()}",
                        f"expected: {finding.expected}",
                        f"actual: {finding.actual}",
                        finding.explanation,
                        finding.state_note(),
                        *(f"after: {call}" for call in finding.after),
                    )
                    if part
                )
                counts["failures"] += 1
            elif row.verdict == "warning":
                ET.SubElement(case, "skipped", message="search cut off before its effort was spent")
                counts["skipped"] += 1
        suite.set("time", f"{report.seconds:.3f}")
        for key, value in counts.items():
            suite.set(key, str(value))
            totals[key] += value
    for name in dict.fromkeys(check.suite for check in checks):
        suite = ET.SubElement(root, "testsuite", name=name)
        mine = [check for check in checks if check.suite == name]
        for check in mine:
            case = ET.SubElement(suite, "testcase", classname=name, name=check.name)
            if check.failure is not None:
                failure = ET.SubElement(case, "failure", message=check.failure)
                failure.text = check.detail or None
        failed = sum(1 for check in mine if check.failure is not None)
        for key, value in (
            ("tests", len(mine)),
            ("failures", failed),
            ("errors", 0),
            ("skipped", 0),
        ):
            suite.set(key, str(value))
            totals[key] += value
    for key, value in totals.items():
        root.set(key, str(value))
    ET.indent(root)
    return ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n"
