"""``knapsack-audit report``: the release audit, one Markdown file for a tracker.

It runs ``verify`` on every knapsack solver of the installed torch and on
every solver of ours that loads (both from :mod:`knapsack_audit.catalog`),
replays the golden fixtures shipped with the package (:func:`replay_golden`:
verdicts, upstream's exact overruns and shortfalls per real call, time
ratios), and writes versions, environment, verdicts and counterexamples.
"""

from __future__ import annotations

import importlib.metadata
import os
import platform
import sys
from dataclasses import dataclass, field
from pathlib import Path

from rich.console import Console

from knapsack_audit import catalog
from knapsack_audit.golden import findings as golden_findings
from knapsack_audit.golden import fixtures
from knapsack_audit.golden import replay as golden_replay
from knapsack_audit.reports import markdown_sections, verdict_table
from knapsack_audit.sandbox import describe_sandbox
from knapsack_audit.targets import Target, parse_target
from knapsack_audit.terminal import print_summary, progress_display
from knapsack_audit.verify import AuditOptions, TargetReport, exit_code, verify_all

VERSIONED = ("torch", "numpy", "hypothesis", "scipy", "knapsack-audit")


@dataclass
class GoldenReplay:
    """What replaying the golden fixtures gave.

    ``lines``: the verdict per solver; ``summary``: upstream's exact totals and
    time ratios (:mod:`knapsack_audit.golden.findings`); ``table``: one
    Markdown row per fixture.
    """

    installed: bool
    lines: list[str] = field(default_factory=list)
    failed: bool = False
    summary: list[str] = field(default_factory=list)
    table: list[str] = field(default_factory=list)


def release_targets() -> tuple[list[Target], list[str]]:
    """Torch's solvers and ours that exist, and notes on those that do not."""
    notes: list[str] = []
    targets = [
        target
        for name in catalog.installed_torch_solvers()
        for target in parse_target(f"torch:{name}")
    ]
    for solver in catalog.ours():
        if _loads(solver):
            targets += parse_target(solver.name)
        else:
            notes.append(f"`{solver.name}` is not installed; not audited.")
    return targets, notes


def _loads(solver: catalog.Entry) -> bool:
    try:
        solver.load()
    except catalog.TargetError:
        return False
    return True


def replay_golden() -> GoldenReplay:
    """Replay the golden fixtures (package data) against ours and torch's solvers.

    Small zoo: every one-call property; ours must have no finding, and torch's
    counts are compared with those recorded for this environment in
    ``expected_findings.json`` (a changed count, an upstream fix or a
    regression, marks the replay failed). Every fixture, real scale
    included: each solver once, exact units over budget and shortfall below
    the stored exact optimum (:mod:`knapsack_audit.golden.findings`); ours
    must be feasible and optimal on every one. An install without the
    fixtures skips the replay.
    """
    directory = fixtures.default_directory()
    if not directory.is_dir():
        return GoldenReplay(installed=False)
    loaded = fixtures.load(directory)
    small, _ = golden_replay.split(loaded)
    outcome = GoldenReplay(installed=True)
    for solver in golden_replay.our_solvers():
        findings = golden_replay.replay(solver, small)
        outcome.lines.append(
            f"`{solver.name}`: {len(small)} small-zoo fixtures, every property, "
            f"{len(findings)} findings"
        )
        outcome.failed |= bool(findings)
    judged = golden_findings.judge_all(loaded)
    wrong = [f.fixture.name for f in judged if not golden_findings.exact(f.ours)]
    outcome.lines.append(
        f"`{catalog.OPTIMIZED}`: {len(judged)} fixtures, over budget or below the "
        f"optimum on {len(wrong)}{': ' + ', '.join(wrong[:5]) if wrong else ''}"
    )
    outcome.failed |= bool(wrong)
    recorded = golden_replay.read_expected(directory).get(golden_replay.environment_key(), {})
    expected = recorded.get("findings", {})
    for solver in golden_replay.upstream_solvers():
        counts = golden_replay.count(golden_replay.replay(solver, small))
        name = solver.name.rpartition(":")[2]
        line = f"`{name}` on the small zoo: findings per property {counts or 'none'}"
        if name not in expected:
            line += " (no recorded counts for this environment)"
        elif expected[name] != counts:
            line += f" CHANGED from the recorded {expected[name] or 'none'}"
            outcome.failed = True
        else:
            line += " (as recorded)"
        outcome.lines.append(line)
    outcome.summary = golden_findings.summary_lines(judged) + golden_findings.time_ratio_lines(
        judged
    )
    outcome.table = golden_findings.markdown_table(judged)
    return outcome


def versions() -> list[tuple[str, str]]:
    """(package, version) for Python and :data:`VERSIONED`."""
    rows = [("python", platform.python_version())]
    for name in VERSIONED:
        try:
            rows.append((name, importlib.metadata.version(name)))
        except importlib.metadata.PackageNotFoundError:
            rows.append((name, "not installed"))
    return rows


def environment() -> list[tuple[str, str]]:
    """(what, value) describing the machine the audit ran on."""
    return [
        ("platform", platform.platform()),
        ("machine", platform.machine()),
        ("cpu count", str(os.cpu_count())),
        ("python executable", sys.executable),
    ]


def release_markdown(
    reports: list[TargetReport],
    golden: GoldenReplay,
    notes: list[str],
    options: AuditOptions,
    code: int,
) -> str:
    """The release report in Markdown."""
    lines = ["# knapsack-audit release audit", "", f"Exit code {code}.", ""]
    lines += ["## Versions", "", "| package | version |", "|---|---|"]
    lines += [f"| {name} | {version} |" for name, version in versions()]
    lines += ["", "## Environment", "", "| what | value |", "|---|---|"]
    lines += [f"| {name} | {value} |" for name, value in environment()]
    lines += [
        "",
        f"Search: at most {options.max_examples} random cases and {options.time_budget:g} s "
        "per target after the exhaustive phase, seed "
        f"{'fresh per target (in each verdict)' if options.seed is None else options.seed}; "
        "call timeout "
        f"{options.call_timeout:g} s. Sandbox: {describe_sandbox(options.sandbox)}.",
        "",
        "## Verdicts",
        "",
    ]
    lines += verdict_table(reports)
    lines += [""] + [f"- {note}" for note in notes] + [""]
    lines += ["## Golden fixtures", ""]
    if not golden.installed:
        lines.append("No golden fixtures found in the installed package; replay skipped.")
    else:
        lines.append("Replay: " + ("FAILED" if golden.failed else "passed") + ".")
        lines += [""] + [f"- {line}" for line in golden.lines]
        lines += ["", "### Upstream on the real partitioner calls", ""]
        lines += [f"- {line}" for line in golden.summary]
        lines += [
            "",
            "<details><summary>Per fixture: units over budget (bold) or shortfall "
            "below the optimum; time of each upstream solver / ours (one call each, "
            "noisy)</summary>",
            "",
        ]
        lines += [*golden.table, "", "</details>"]
    lines += ["", "## Targets", ""]
    lines += markdown_sections(reports, level=3)
    return "\n".join(lines) + "\n"


def run_release_report(output: str, options: AuditOptions, jobs: int, quiet: bool) -> int:
    """``knapsack-audit report``: audit, replay, write ``output``; the exit code."""
    targets, notes = release_targets()
    console = Console(highlight=False)
    with progress_display(quiet) as progress:
        reports = verify_all(
            targets, options, jobs, on_example=progress.example, on_done=progress.done
        )
    golden = replay_golden()
    if not golden.installed:
        console.print("no golden fixtures found in the installed package; golden replay skipped")
    code = exit_code(reports)
    if golden.failed and code == 0:
        code = 1
    Path(output).write_text(
        release_markdown(reports, golden, notes, options, code), encoding="utf-8"
    )
    print_summary(console, reports, code)
    console.print(f"report written to {output}")
    return code
