"""``knapsack-audit report``: the release audit, one Markdown file for a tracker.

It runs ``verify`` on every knapsack solver of the installed torch and on
ours (``knapsack_audit.reference:dp_knapsack``, and
``knapsack_audit.optimized:dp_knapsack_sliding_hirschberg`` when installed),
replays the golden fixtures when a ``knapsack_audit.golden`` module with a
``replay`` function is installed, and writes versions, environment, verdicts
and counterexamples.

Golden replay interface (assumed; the golden module is built separately):
``replay()`` takes no argument and returns an iterable of results, each
rendered with ``str``; a result whose ``passed`` attribute is false, or a
``replay`` that raises, counts as a failure.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import importlib.util
import os
import platform
import sys
from dataclasses import dataclass, field
from pathlib import Path

from rich.console import Console

from knapsack_audit.golden import fixtures
from knapsack_audit.golden import replay as golden_replay
from knapsack_audit.reports import markdown_sections, verdict_table
from knapsack_audit.targets import Target, installed_torch_solvers, parse_target
from knapsack_audit.terminal import print_summary, progress_display
from knapsack_audit.verify import AuditOptions, TargetReport, exit_code, verify_all

OUR_SOLVERS = (
    ("knapsack_audit.reference", "dp_knapsack"),
    ("knapsack_audit.optimized", "dp_knapsack_sliding_hirschberg"),
)
VERSIONED = ("torch", "numpy", "hypothesis", "scipy", "knapsack-audit")


@dataclass
class GoldenReplay:
    """What replaying the golden fixtures gave."""

    installed: bool
    lines: list[str] = field(default_factory=list)
    failed: bool = False


def release_targets() -> tuple[list[Target], list[str]]:
    """Torch's solvers and ours that exist, and notes on those that do not."""
    notes: list[str] = []
    targets = [
        target for name in installed_torch_solvers() for target in parse_target(f"torch:{name}")
    ]
    for module, function in OUR_SOLVERS:
        if _defines(module, function):
            targets += parse_target(f"{module}:{function}")
        else:
            notes.append(f"`{module}:{function}` is not installed; not audited.")
    return targets, notes


def _defines(module: str, function: str) -> bool:
    try:
        return callable(getattr(importlib.import_module(module), function, None))
    except ImportError:
        return False


def replay_golden() -> GoldenReplay:
    """Replay the golden fixtures (tests/golden/) against ours and torch's solvers.

    Ours must have no finding. Torch's finding counts are compared with the
    counts recorded for this environment in ``expected_findings.json``: a
    changed count (an upstream fix, or a regression) marks the replay failed.
    Without a source checkout (no fixtures folder) the replay is skipped.
    """
    directory = fixtures.default_directory()
    if not directory.is_dir():
        return GoldenReplay(installed=False)
    loaded = fixtures.load(directory)
    outcome = GoldenReplay(installed=True)
    for solver in golden_replay.our_solvers():
        findings = golden_replay.replay(solver, loaded)
        outcome.lines.append(f"`{solver.name}`: {len(loaded)} fixtures, {len(findings)} findings")
        outcome.failed |= bool(findings)
    recorded = golden_replay.read_expected(directory).get(golden_replay.environment_key(), {})
    expected = recorded.get("findings", {})
    for solver in golden_replay.upstream_solvers():
        counts = golden_replay.count(golden_replay.replay(solver, loaded))
        name = solver.name.rpartition(":")[2]
        line = f"`{name}`: findings per property {counts or 'none'}"
        if name not in expected:
            line += " (no recorded counts for this environment)"
        elif expected[name] != counts:
            line += f" CHANGED from the recorded {expected[name] or 'none'}"
            outcome.failed = True
        else:
            line += " (as recorded)"
        outcome.lines.append(line)
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
        f"{options.call_timeout:g} s.",
        "",
        "## Verdicts",
        "",
    ]
    lines += verdict_table(reports)
    lines += [""] + [f"- {note}" for note in notes] + [""]
    lines += ["## Golden fixtures", ""]
    if not golden.installed:
        lines.append("No golden fixtures found (not a source checkout); replay skipped.")
    else:
        lines.append("Replay: " + ("FAILED" if golden.failed else "passed") + ".")
        lines += [""] + [f"- {line}" for line in golden.lines]
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
        console.print("no golden fixtures found (not a source checkout); golden replay skipped")
    code = exit_code(reports)
    if golden.failed and code == 0:
        code = 1
    Path(output).write_text(
        release_markdown(reports, golden, notes, options, code), encoding="utf-8"
    )
    print_summary(console, reports, code)
    console.print(f"report written to {output}")
    return code
