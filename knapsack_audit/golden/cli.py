"""Command line of the golden fixtures (issue #6).

``python -m knapsack_audit.golden capture [--out DIR] [--model NAME ...]``
    compiles the zoo at every budget and estimator and (re)writes the fixture
    files (all of them by default: this is the one re-capture command).
``python -m knapsack_audit.golden expected [--fixtures DIR]``
    replays the installed torch's solvers on every fixture and rewrites this
    environment's entry of ``expected_findings.json``.

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
    return parser


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
    from knapsack_audit.golden import replay

    directory = arguments.fixtures or fixtures.writable_directory()
    path = replay.write_expected(directory, fixtures.load(directory))
    print(f"wrote {path}")
    return 0
