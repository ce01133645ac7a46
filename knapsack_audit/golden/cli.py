"""Command line of the golden fixtures.

``python -m knapsack_audit.golden capture [--out DIR] [--model NAME ...]``
    compiles the zoo at every budget and estimator and (re)writes the fixture
    files (all of them by default: this is the one re-capture command).
``python -m knapsack_audit.golden expected [--fixtures DIR]``
    replays the installed torch's solvers on every fixture and rewrites this
    environment's entry of ``expected_findings.json``.
``python -m knapsack_audit.golden findings [--fixtures DIR] [--table] [--repeats N]``
    prints each solver's verdict on the fixtures (the lines
    tests/golden/README.md quotes), the median time ratios to ours
    (:func:`knapsack_audit.measure.interleaved`, ``N`` rounds) and, with
    ``--table``, one Markdown row per fixture
    (:mod:`knapsack_audit.golden.findings`).
``python -m knapsack_audit.golden check [--fixtures DIR] [--force]``
    when the installed torch differs from the fixtures' (or with ``--force``),
    re-captures a small subset and reports which calls changed
    (:mod:`knapsack_audit.golden.drift`); exit status 1 if any did.

:func:`main` takes ``argv`` without the program name and returns the exit
status, so a ``knapsack-audit golden ...`` subcommand can delegate to it.
"""

from __future__ import annotations

import argparse
import shlex
from collections.abc import Sequence
from pathlib import Path


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m knapsack_audit.golden",
        description="Capture and replay golden knapsack fixtures from real compilations.",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    capture = commands.add_parser("capture", help="compile the zoo and write fixture files")
    capture.add_argument("--out", type=Path, default=None, help="fixture directory")
    capture.add_argument(
        "--model", action="append", default=None, help="only this zoo model (repeatable)"
    )
    expected = commands.add_parser(
        "expected", help="replay upstream solvers and rewrite expected_findings.json"
    )
    expected.add_argument("--fixtures", type=Path, default=None, help="fixture directory")
    summary = commands.add_parser(
        "findings", help="upstream's overruns and shortfalls on the fixtures (README totals)"
    )
    summary.add_argument("--fixtures", type=Path, default=None, help="fixture directory")
    summary.add_argument("--table", action="store_true", help="also one row per fixture")
    summary.add_argument(
        "--repeats",
        type=int,
        default=3,
        help="timed rounds per call, interleaved, after a warm-up (default 3)",
    )
    check = commands.add_parser(
        "check", help="re-capture a subset and report whether the partitioner's inputs drifted"
    )
    check.add_argument("--fixtures", type=Path, default=None, help="fixture directory")
    check.add_argument(
        "--force", action="store_true", help="check even when the torch versions are equal"
    )
    return parser


def run_check(fixtures_directory: Path | None, force: bool) -> int:
    """``check``: print one line per re-captured call; 1 if any changed."""
    import torch

    from knapsack_audit.golden import drift, fixtures

    loaded = fixtures.load(fixtures_directory)
    versions = ", ".join(sorted(drift.stored_versions(loaded)))
    installed = torch.__version__
    if not force and not drift.needs_check(loaded):
        print(f"fixtures were captured with the installed torch {installed}; nothing to check")
        return 0
    print(f"fixtures captured with torch {versions}; installed torch {installed}")
    rows = drift.check(loaded)
    for row in rows:
        print(row.describe())
    if drift.drifted(rows):
        print("the partitioner's inputs changed: re-capture (`golden capture`) and review")
        return 1
    print("the checked calls are unchanged: the fixtures still describe this torch")
    return 0


def main(argv: Sequence[str]) -> int:
    """Run one golden command; returns the process exit status."""
    arguments = _parser().parse_args(list(argv))
    from knapsack_audit.golden import fixtures

    if arguments.command == "capture":
        from knapsack_audit.golden import capture, models

        directory = arguments.out or fixtures.writable_directory()
        specs = models.ZOO
        if arguments.model:
            specs = tuple(models.by_name(name) for name in arguments.model)
        command = shlex.join(["python", "-m", "knapsack_audit.golden", *argv])
        capture.capture_all(directory, command, specs)
        return 0
    if arguments.command == "check":
        return run_check(arguments.fixtures, arguments.force)
    if arguments.command == "findings":
        from knapsack_audit.golden import findings

        judged = findings.judge_all(fixtures.load(arguments.fixtures), arguments.repeats)
        lines = findings.summary_lines(judged) + findings.time_ratio_lines(
            judged, arguments.repeats
        )
        if arguments.table:
            lines += ["", *findings.markdown_table(judged)]
        print("\n".join(lines))
        return 0
    from knapsack_audit.golden import replay

    directory = arguments.fixtures or fixtures.writable_directory()
    path = replay.write_expected(directory, fixtures.load(directory))
    print(f"wrote {path}")
    return 0
