"""``knapsack-audit mutate``: the operators it applies, and an end-to-end run.

Mutation testing measures the audit (how many one-line bugs it catches); these tests check the
tool that measures it, on a small solver of the planted corpus.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from test_cli import knapsack_audit

from knapsack_audit.isolation import IsolatedSolver
from knapsack_audit.mutate import OPERATORS, mutants, probe, probe_cases
from knapsack_audit.properties import Judge
from knapsack_audit.targets import Target

CORPUS = Path(__file__).parent / "planted" / "corpus.py"

SOURCE = '''
def helper(xs):
    return max(xs[: len(xs)]) if xs else 0


def solver(memory, runtime, max_memory):
    """Docstring."""
    budget = round(max_memory * 10000) - 1
    total = 0
    for w in memory:
        if w <= budget:
            total += w
        else:
            total = total
    return helper([total, budget]), [], []


def untouched(x):
    return x + 1
'''


def test_every_operator_makes_mutants_of_the_function_and_its_callees() -> None:
    """SPEC 3 (mutation testing measures the audit): each operator applies; the function and the
    module functions it calls are mutated, the others and the docstring not."""
    baseline, found = mutants(SOURCE, "solver")
    assert set(Counter(m.operator for m in found)) == set(OPERATORS)
    changed = [
        "".join(
            line
            for line in m.diff.splitlines()
            if line[:1] in "+-" and line[:3] not in ("+++", "---")
        )
        for m in found
    ]
    assert all("x + " not in text and "Docstring" not in text for text in changed)
    assert any("min(" in text for text in changed)  # helper is in scope
    for mutant in found:
        assert mutant.source != baseline
        compile(mutant.source, "mutant", "exec")
        assert mutant.diff.startswith("--- original")


def quick_mutation_run(folder: Path, target: str, *options: str) -> tuple[str, str]:
    """``knapsack-audit mutate TARGET OPTIONS`` at a 2-second effort, seed 1:
    its standard output (a progress line per mutant) and the Markdown."""
    output = folder / "mutation.md"
    run = knapsack_audit(
        "mutate", target, *options, "--time-budget", "2", "--seed", "1", "--output", str(output)
    )
    assert run.returncode == 0, run.stdout + run.stderr
    return run.stdout, output.read_text()


def quick_mutation_report(folder: Path, target: str, *options: str) -> str:
    """The Markdown of :func:`quick_mutation_run`."""
    return quick_mutation_run(folder, target, *options)[1]


@pytest.mark.slow
@pytest.mark.release
def test_mutate_command_classifies_every_mutant(tmp_path: Path) -> None:
    """SPEC 3.3: an end-to-end run on the corpus's exact solver: every mutant is
    killed, timed out or survived, survivors are listed with their diff."""
    text = quick_mutation_report(tmp_path, f"{CORPUS}:exact", "--max-mutants", "4")
    assert "4 mutants:" in text and "Unmutated solver: pass" in text
    killed, timed_out, survived = (
        int(text.split(f" {word}")[0].rsplit(" ", 1)[-1])
        for word in ("killed,", "timed out,", "survived;")
    )
    assert killed + timed_out + survived == 4
    assert text.count("### mutant ") == survived


def test_probe_tells_a_miss_from_an_equivalent_survivor() -> None:
    """SPEC 3.3, 6.2: the survivor probe says "no difference" for the solver
    itself, "equivalent under the contract" for another correct tie-break, and
    names the failing property and input for a real bug (strict fit)."""
    cases = probe_cases(300, seed=1, domain="partitioner")

    def target(name: str) -> Target:
        return Target(f"corpus.py:{name}", None, str(CORPUS), name)

    original = target("exact")
    with IsolatedSolver(original, 10.0, None) as solver:
        same = probe(solver, original, original, Judge(), cases)
        tie = probe(solver, original, target("last_item_wins_ties"), Judge(), cases)
        bug = probe(solver, original, target("strict_fit"), Judge(), cases)
    assert same.startswith("no difference from the original on 300"), same
    assert tie.startswith("differs") and tie.endswith("equivalent under the contract"), tie
    assert bug.startswith("MISSED by verify") and "optimality" in bug, bug


def _package_with_core(folder: Path, name: str, core: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A package ``name`` in ``folder`` whose ``solve`` is the corpus's exact
    table solver with the budget's units from ``core.capacity_of`` (source
    ``core``), importable by the audit's workers (``PYTHONPATH``)."""
    package = folder / name
    package.mkdir()
    (package / "__init__.py").write_text("from .solver import solve\n")
    (package / "core.py").write_text(core)
    (package / "solver.py").write_text(
        "from corpus import answer, backtrack, quantize_all, table\n"
        "from .core import capacity_of\n\n\n"
        "def solve(memory, runtime, max_memory):\n"
        "    weights, capacity = quantize_all(memory), capacity_of(max_memory)\n"
        "    saved = backtrack(table(weights, runtime, capacity), weights, capacity)\n"
        "    return answer(runtime, saved)\n"
    )
    monkeypatch.setenv("PYTHONPATH", f"{folder}{os.pathsep}{CORPUS.parent}")


def test_module_mode_mutates_a_module_behind_the_target(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SPEC 3.3: ``--module`` mutates a module the target imports from
    (``from .core import capacity_of``), and each mutant is what the target
    runs: both constant mutants of the quantization scale are killed, which
    they could not be if the target kept the original module."""
    _package_with_core(
        tmp_path,
        "pkgm",
        "def capacity_of(max_memory):\n    return round(max_memory * 10000)\n",
        monkeypatch,
    )
    text = quick_mutation_report(tmp_path, "pkgm:solve", "--module", "pkgm.core")
    assert "Unmutated solver: pass" in text
    assert "2 mutants: 2 killed, 0 timed out, 0 survived" in text, text


def test_a_mutant_that_does_not_compile_is_killed_in_the_report_and_the_progress_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SPEC 3.3: deleting the binding of a ``nonlocal`` name makes a module
    that does not compile; that mutant is killed (``load``) in the report, and
    its progress line says so. Before, the line said "survived (0.0 s)" while
    the report counted it killed (mutant 352 of ``optimized/bounded.py``,
    session 11)."""
    _package_with_core(
        tmp_path,
        "pkgn",
        "def capacity_of(max_memory):\n"
        "    units = round(max_memory * 10000)\n\n"
        "    def read():\n"
        "        nonlocal units\n"
        "        return units\n\n"
        "    return read()\n",
        monkeypatch,
    )
    stdout, text = quick_mutation_run(tmp_path, "pkgn:solve", "--module", "pkgn.core")
    assert ": load (" in stdout, stdout
    assert "survived (0.0 s)" not in stdout, stdout
    assert "-    units = round(max_memory * 10000)\n+    pass" not in text, text


def test_module_mode_names_a_bad_module() -> None:
    """SPEC 3.3: a module outside the target's package, or a file target, is a usage error."""
    outside = knapsack_audit(
        "mutate", "knapsack_audit.optimized:frontier_knapsack", "--module", "json.decoder"
    )
    assert outside.returncode == 2 and "not a module of knapsack_audit" in outside.stderr
    unknown = knapsack_audit(
        "mutate", f"{CORPUS}:exact", "--module", "knapsack_audit.optimized.frontier"
    )
    assert unknown.returncode == 2 and "--module needs a module target" in unknown.stderr


# --- scripts/mutants_against_tests.py: the clauses verify leaves out ------------------

MUTANTS_AGAINST_TESTS = Path(__file__).parents[1] / "scripts" / "mutants_against_tests.py"

CHILD_SELECTION = """
import subprocess, sys

PROBE = (
    "from knapsack_audit.optimized import solver; "
    "print(solver.buffers_always_fit((1 << 21) - 1), solver.buffers_always_fit(1 << 21))"
)


def test_the_bound_is_tight_in_a_child_process():
    printed = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True)
    assert printed.stdout.split() == ["True", "False"], printed.stderr
"""


def test_mutants_against_tests_judges_each_mutant_also_in_child_processes(
    tmp_path: Path,
) -> None:
    """docs/mutation/README.md, "Score": the script that runs a pytest selection
    against mutants of our solver (numbered as ``mutate --module`` numbers them)
    reports a mutant the selection catches as killed, even when only a Python
    process the test starts calls the mutated code (SPEC 1.10's test runs the
    solver under ``RLIMIT_AS`` in a child), and one it cannot see as survived."""
    from knapsack_audit.optimized import solver

    source = Path(solver.__file__).read_text(encoding="utf-8")
    lines = source.splitlines()
    units_line = lines.index("    units = capacity + 1") + 1
    detail_line = next(k for k, text in enumerate(lines, 1) if "detail = str(error)" in text)
    _, found = mutants(source, None)
    (narrower,) = [m for m in found if m.line == units_line and m.description == "Add -> Sub"]
    (message,) = [m for m in found if m.line == detail_line and m.description == "-1 -> -1 + 1"]
    selection = tmp_path / "test_child.py"
    selection.write_text(CHILD_SELECTION, encoding="utf-8")
    report = tmp_path / "report.md"
    completed = subprocess.run(
        [
            *(sys.executable, str(MUTANTS_AGAINST_TESTS), "knapsack_audit.optimized.solver"),
            *(f"{narrower.index},{message.index}", "--output", str(report), "--", str(selection)),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert completed.returncode == 0, completed.stderr
    rows = {row.split(" | ")[0].strip("| "): row for row in report.read_text().splitlines()}
    assert "| killed | " in rows[str(narrower.index)], rows
    assert "test_the_bound_is_tight_in_a_child_process" in rows[str(narrower.index)]
    assert "| survived | " in rows[str(message.index)], rows
    assert completed.stdout.splitlines()[-1] == "1 of 2 killed"
