"""Run a pytest selection against mutants of one module of our solver.

``knapsack-audit mutate --module`` judges each mutant by ``verify``, which feeds
a solver valid calls that fit in memory (SPEC 1.9). The clauses it leaves out
by design (SPEC 1.3-1.6 and 1.10: invalid input, buffers that do not fit) are
checked per entry point by the contract tests. This script asks whether those
tests kill the mutants ``verify`` let through: each mutant, numbered exactly
as ``mutate --module`` numbers it, is put in place of the module for one
pytest run, and the run's exit status is the verdict: 1 killed, 0 survived,
anything else an error. The mutant is installed by an import hook in a
``sitecustomize.py`` on ``PYTHONPATH``, so the Python processes the tests
start (the audit's workers, a solver run under ``RLIMIT_AS``) load it too.
The unmutated module is run first and must pass, or nothing is judged.

Usage (from the checkout)::

    python scripts/mutants_against_tests.py knapsack_audit.optimized.solver \\
        17,19,21 --output report.md -- tests/test_contract.py tests/test_optimized.py

A test that starts Python with ``-S``, ``-I`` or its own ``PYTHONPATH`` does
not see the mutant; a mutant only such a test would kill counts as survived
(the verdict errs towards "not detected").
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from knapsack_audit.mutate import Mutant, mutants

_PLUGIN = """\
import importlib.abc
import importlib.util
import sys


class KnapsackAuditTestMutantFinder(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name == {module!r}:
            return importlib.util.spec_from_file_location(name, {source!r})
        return None


sys.meta_path.insert(0, KnapsackAuditTestMutantFinder())
"""

FIRST_FAILURE_PREFIX = "FAILED "


def module_file(module: str) -> Path:
    """The source file of ``module``, found without importing it."""
    spec = importlib.util.find_spec(module)
    if spec is None or spec.origin is None or not spec.origin.endswith(".py"):
        raise SystemExit(f"no Python source for module {module}")
    return Path(spec.origin)


def run_tests(module: str, source: str, folder: Path, pytest_args: list[str]) -> tuple[int, str]:
    """Exit status and first failing test of one pytest run with ``source`` as ``module``."""
    mutant_file = folder / "mutated_module.py"
    mutant_file.write_text(source, encoding="utf-8")
    (folder / "sitecustomize.py").write_text(
        _PLUGIN.format(module=module, source=str(mutant_file)), encoding="utf-8"
    )
    command = [
        *(sys.executable, "-m", "pytest", "-p", "no:xdist", "-p", "no:cacheprovider"),
        *("-x", "-q", "-rf", *pytest_args),
    ]
    environment = {**os.environ, "PYTHONPATH": str(folder)}
    finished = subprocess.run(command, capture_output=True, text=True, env=environment)
    failed = [
        line[len(FIRST_FAILURE_PREFIX) :].split(" - ")[0]
        for line in finished.stdout.splitlines()
        if line.startswith(FIRST_FAILURE_PREFIX)
    ]
    return finished.returncode, (failed[0] if failed else finished.stdout.strip()[-200:])


def verdict(status: int) -> str:
    return {0: "survived", 1: "killed"}.get(status, f"error (pytest exit {status})")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("module", help="a module of our solver, as mutate --module takes it")
    parser.add_argument("indices", help="mutant numbers as in the mutate report, comma-separated")
    parser.add_argument("--output", type=Path, help="write the markdown table here too")
    parser.add_argument("pytest_args", nargs="+", help="the pytest selection (after --)")
    arguments = parser.parse_args()
    path = module_file(arguments.module)
    baseline, found = mutants(path.read_text(encoding="utf-8"), None)
    by_index: dict[int, Mutant] = {mutant.index: mutant for mutant in found}
    wanted = [int(text) for text in arguments.indices.split(",") if text]
    unknown = [index for index in wanted if index not in by_index]
    if unknown:
        raise SystemExit(f"no mutants numbered {unknown} in {path} ({len(found)} mutants)")
    rows = []
    with tempfile.TemporaryDirectory(prefix="knapsack-audit-test-mutants-") as text:
        folder = Path(text)
        status, detail = run_tests(arguments.module, baseline, folder, arguments.pytest_args)
        if status != 0:
            raise SystemExit(f"the unmutated module fails the selection ({detail})")
        for index in wanted:
            mutant = by_index[index]
            start = time.monotonic()
            status, detail = run_tests(
                arguments.module, mutant.source, folder, arguments.pytest_args
            )
            seconds = time.monotonic() - start
            first = detail if status == 1 else ""
            rows.append(
                f"| {index} | {mutant.line} | {mutant.operator}: {mutant.description} "
                f"| {verdict(status)} | {first} | {seconds:.1f} |"
            )
            print(rows[-1], flush=True)
    table = "\n".join(
        [
            f"Module `{arguments.module}` ({path.name}, {len(found)} mutants); "
            f"selection: `pytest {' '.join(arguments.pytest_args)}`",
            "",
            "| mutant | line | change | verdict | first failing test | seconds |",
            "|---|---|---|---|---|---|",
            *rows,
        ]
    )
    if arguments.output:
        arguments.output.write_text(table + "\n", encoding="utf-8")
    killed = sum("| killed |" in row for row in rows)
    print(f"{killed} of {len(rows)} killed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
