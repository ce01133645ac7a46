"""Show a :class:`~knapsack_audit.compare.CompareReport`: terminal, Markdown, JSON, JUnit.

The Markdown is meant for a pull-request comment: the verdict, gates and
claims, one summary row per family, then per property its smallest
regression as a copy-pasteable call with its size (the other families'
cases folded under ``<details>``) come first; per-property counts and how the numbers were
measured are folded under ``<details>``. JUnit XML (:mod:`xml.etree`) has a
``<testsuite>`` per solver pair, a ``<testcase>`` per family (a
``<failure>`` when it has a regression) and one per gate or claim.
"""

from __future__ import annotations

import json
import os
import platform
import shlex
import subprocess
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from datetime import datetime, timezone
from importlib import metadata
from pathlib import Path

from rich.console import Console
from rich.table import Table
from rich.text import Text

from knapsack_audit import __version__
from knapsack_audit.compare import (
    MEMORY_FLOOR,
    MEMORY_MEASURABLE,
    CompareReport,
    FamilyComparison,
    PairReport,
    Regression,
)
from knapsack_audit.reports import report_format


def headline(report: CompareReport) -> str:
    """``'143 regressions, 2 checks not held'``, ``'no regression'`` or ``'could not run'``."""
    if report.exit_code == 2:
        return "could not run"
    regressions = sum(pair.regressions for pair in report.pairs)
    not_held = sum(not check.held for check in report.checks)
    parts = [f"{regressions} regression{'s' if regressions != 1 else ''}" if regressions else ""]
    parts.append(f"{not_held} check{'s' if not_held != 1 else ''} not held" if not_held else "")
    return ", ".join(part for part in parts if part) or "no regression"


def provenance(command: Sequence[str]) -> list[str]:
    """Command, revision, versions and machine, one line each (for the report's details)."""
    try:
        revision = subprocess.run(
            ["git", "describe", "--always", "--dirty"],
            cwd=Path(__file__).resolve().parent,
            capture_output=True,
            text=True,
            timeout=10,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        revision = "unknown (not a git checkout)"
    try:
        torch_version = metadata.version("torch")
    except metadata.PackageNotFoundError:
        torch_version = "not installed"
    return [
        f"command: `{shlex.join(['knapsack-audit', *command[1:]])}`",
        f"knapsack-audit {__version__}, revision {revision}",
        f"torch {torch_version}, Python {platform.python_version()}",
        f"machine: {platform.platform()}, {os.cpu_count()} CPUs, {_memory_total()}",
        f"date: {datetime.now(timezone.utc).isoformat(timespec='seconds')}",
    ]


def _memory_total() -> str:
    try:
        with open("/proc/meminfo", encoding="ascii") as meminfo:
            kib = int(meminfo.readline().split()[1])
    except (OSError, ValueError, IndexError):
        return "memory unknown"
    return f"MemTotal {kib / 2**20:.1f} GiB"


def write_compare_report(path: str, report: CompareReport, provenance: Sequence[str]) -> None:
    """Write ``report`` to ``path`` as JSON, Markdown or JUnit XML (by extension)."""
    kind = report_format(path)
    if kind == "json":
        document = {"tool": "knapsack-audit", "version": __version__, **report.to_dict()}
        document["provenance"] = list(provenance)
        text = json.dumps(document, indent=2) + "\n"
    elif kind == "markdown":
        text = to_markdown(report, provenance)
    else:
        text = to_junit(report)
    Path(path).write_text(text, encoding="utf-8")


def _failures(counts: dict[str, int]) -> str:
    return ", ".join(f"{name} {count}" for name, count in counts.items()) or "-"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _summary_rows(pair: PairReport) -> list[str]:
    rows = []
    for family in pair.families:
        rows.append(
            f"| {family.family} | {family.cases} | {family.regressions or '-'} | "
            f"{family.fixes or '-'} | {family.differing or '-'} | "
            f"{family.time.describe()} | {family.memory.describe()} |"
        )
    return rows


SHORT_CALL = 400
"""Calls longer than this are cut on the terminal (the reports hold them whole)."""


def by_property(pair: PairReport) -> dict[str, list[tuple[str, Regression]]]:
    """Each property's regressions as ``(family, example)``, the smallest case first
    (fewest items, then fewest types, then the shortest call)."""
    grouped: dict[str, list[tuple[str, Regression]]] = {}
    for family in pair.families:
        for example in family.examples:
            grouped.setdefault(example.property, []).append((family.family, example))
    for examples in grouped.values():
        examples.sort(key=lambda pair: (pair[1].items, pair[1].types, len(pair[1].call)))
    return grouped


def _regression_lines(pair: PairReport) -> list[str]:
    """Per property: its smallest case in full, the other families' folded."""
    regressions = {family.family: family.regressions for family in pair.families}
    lines = []
    for prop, examples in by_property(pair).items():
        (family, smallest), rest = examples[0], examples[1:]
        cases = sum(regressions[name] for name, _ in examples)
        lines += [
            f"**{prop}** ({smallest.clause}) fails in {cases} case(s) of "
            f"{len(examples)} family(ies); the smallest, in `{family}`: "
            f"{smallest.size()} ({smallest.minimized}):",
            "",
            *_example_body(smallest),
        ]
        if not rest:
            continue
        lines += [f"<details><summary>{prop} in the other families</summary>", ""]
        for name, example in rest:
            lines += [
                f"In `{name}` ({regressions[name]} case(s)): {example.size()} "
                f"({example.minimized}):",
                "",
                *_example_body(example),
            ]
        lines += ["</details>", ""]
    return lines


def _example_body(example: Regression) -> list[str]:
    return [
        "```python",
        example.call,
        "```",
        "",
        f"- NEW: {_cell(example.new)}",
        f"- BASE: {_cell(example.base)}",
        "",
    ]


def to_markdown(report: CompareReport, provenance: Sequence[str] = ()) -> str:
    """The PR-comment Markdown (see the module docstring)."""
    lines = [
        f"## knapsack-audit compare: {headline(report)} (exit {report.exit_code})",
        "",
        f"BASE `{report.base}`, NEW `{report.new}`, effort `{report.effort}`. "
        "Ratios are NEW / BASE: below 1 NEW is faster or smaller.",
        "",
    ]
    if report.added or report.removed:
        lines += [
            f"Added in NEW: {', '.join(report.added) or '-'}; "
            f"removed from BASE: {', '.join(report.removed) or '-'}.",
            "",
        ]
    if report.checks:
        lines += ["| check | held | measured (median per family) |", "|---|---|---|"]
        lines += [
            f"| {c.kind} `{_cell(c.text)}` on `{c.pair}` | "
            f"{'held' if c.held else '**not held**'} | {_cell(c.figure)} |"
            for c in report.checks
        ]
        lines.append("")
    for pair in report.pairs:
        lines += [f"### `{pair.name}`: {pair.regressions} regression(s)", ""]
        if pair.error is not None:
            lines += [f"Could not run: {_cell(pair.error)}", ""]
            continue
        lines += [
            "| family | cases | regressions | fixed | differ, both correct | time | peak memory |",
            "|---|---:|---:|---:|---:|---|---|",
            *_summary_rows(pair),
            "",
        ]
        lines += _regression_lines(pair)
    lines += ["<details><summary>Details: failures per property, how this was measured</summary>"]
    lines.append("")
    for pair in report.pairs:
        lines += _details(pair)
    lines += [
        "Each case is one call per solver in its own isolated worker, BASE and NEW "
        "alternating: a warm-up call (its answer is judged against the exact oracle), "
        "then timed repeats, each with its peak resident memory (`VmHWM` reset before "
        "the call). A ratio is the median over cases of median(NEW) / median(BASE); worst "
        "is the largest; noise is the median over cases of the spread between repeats, "
        "3 MAD / median (median absolute deviation: one stalled repeat does not move it). "
        f"Memory ratios use cases where a peak reaches {MEMORY_MEASURABLE // 2**20} MiB, "
        f"with peaks below {MEMORY_FLOOR // 2**10} KiB counted as that. "
        "A regression is a case where NEW fails a property BASE passes (SPEC 9.1); "
        "its call is reduced by the engine's minimizer while BASE still passes.",
        "",
        *(f"- {line}" for line in provenance),
        "",
        "</details>",
        "",
    ]
    return "\n".join(lines)


def _details(pair: PairReport) -> list[str]:
    lines = [
        f"`{pair.name}`: BASE `{pair.base}`, NEW `{pair.new}`, judge {pair.judge}, "
        f"{pair.seconds:.0f} s.",
        "",
        "| family | BASE fails (cases per property) | NEW fails "
        "| time verdict | memory verdict | seconds |",
        "|---|---|---|---|---|---:|",
    ]
    lines += [_detail_row(family) for family in pair.families]
    lines.append("")
    return lines


def _detail_row(family: FamilyComparison) -> str:
    return (
        f"| {family.family} | {_failures(family.base_failures)} | "
        f"{_failures(family.new_failures)} | "
        f"{family.time.verdict} ({family.time.cases} cases) | "
        f"{family.memory.verdict} ({family.memory.cases} cases) | {family.seconds:.0f} |"
    )


def to_junit(report: CompareReport) -> str:
    """JUnit XML: a testsuite per pair, a testcase per family and per check."""
    root = ET.Element("testsuites", name="knapsack-audit compare")
    for pair in report.pairs:
        suite = ET.SubElement(root, "testsuite", name=pair.name, time=f"{pair.seconds:.1f}")
        tests = failures = errors = 0
        if pair.error is not None:
            case = ET.SubElement(suite, "testcase", classname=pair.name, name="load")
            ET.SubElement(case, "error", message=pair.error, type="TargetError")
            tests, errors = 1, 1
        for family in pair.families:
            case = ET.SubElement(suite, "testcase", classname=pair.name, name=family.family)
            tests += 1
            if family.examples:
                failures += 1
                first = family.examples[0]
                failure = ET.SubElement(
                    case,
                    "failure",
                    message=f"{family.regressions} regression(s): {first.property}",
                    type="SPEC 9.1",
                )
                failure.text = "\n".join(
                    f"{e.property} ({e.clause}): {e.call}\nsize: {e.size()}\n"
                    f"NEW: {e.new}\nBASE: {e.base}"
                    for e in family.examples
                )
        for check in (check for check in report.checks if check.pair == pair.name):
            case = ET.SubElement(suite, "testcase", classname=pair.name, name=check.text)
            tests += 1
            if not check.held:
                failures += 1
                ET.SubElement(case, "failure", message=check.figure, type=check.kind)
        suite.set("tests", str(tests))
        suite.set("failures", str(failures))
        suite.set("errors", str(errors))
    ET.indent(root)
    return ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n"


def print_compare(console: Console, report: CompareReport) -> None:
    """The summary tables, regressions and checks, on the terminal."""
    for pair in report.pairs:
        title = Text.assemble((pair.name, "bold"), f": {pair.regressions} regression(s)")
        if pair.error is not None:
            console.print(title)
            console.print(Text(f"  could not run: {pair.error}"), soft_wrap=True)
            continue
        table = Table(
            title=title,
            caption=f"BASE {pair.base}, NEW {pair.new}; judge {pair.judge}; {pair.seconds:.0f} s",
            title_justify="left",
        )
        for column in ("family", "cases", "regr.", "fixed", "differ"):
            table.add_column(column, justify="left" if column == "family" else "right")
        table.add_column("time NEW/BASE")
        table.add_column("memory NEW/BASE")
        for family in pair.families:
            table.add_row(
                family.family,
                str(family.cases),
                Text(str(family.regressions), style="bold red" if family.regressions else ""),
                str(family.fixes),
                str(family.differing),
                family.time.describe(),
                family.memory.describe(),
            )
        console.print(table)
        for prop, examples in by_property(pair).items():
            smallest_in, example = examples[0]
            console.print(
                Text.assemble(
                    ("REGRESSION ", "bold red"),
                    (prop, "bold"),
                    f" ({example.clause}) in {len(examples)} family(ies); the smallest, "
                    f"in {smallest_in}: {example.size()}",
                )
            )
            call = example.call
            if len(call) > SHORT_CALL:
                call = f"{call[:SHORT_CALL]}... (cut; the full call is in --report)"
            console.print(Text(f"  {call}", style="cyan"), soft_wrap=True)
            console.print(Text(f"  NEW:  {example.new[:SHORT_CALL]}"), soft_wrap=True)
            console.print(Text(f"  BASE: {example.base}"), soft_wrap=True)
            for other, larger in examples[1:]:
                console.print(Text(f"  also in {other}: {larger.size()} (see --report)"))
    if report.added or report.removed:
        console.print(
            f"added in NEW: {', '.join(report.added) or '-'}; "
            f"removed from BASE: {', '.join(report.removed) or '-'}"
        )
    for check in report.checks:
        style = "green" if check.held else "bold red"
        verdict = "held" if check.held else "NOT HELD"
        console.print(
            Text.assemble(
                (f"{verdict:8} ", style),
                f"{check.kind} {check.text} on {check.pair}: {check.figure}",
            ),
            soft_wrap=True,
        )
    console.print(f"exit code {report.exit_code}")
